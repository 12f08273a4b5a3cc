import { describe, expect, it } from 'vitest';
import { allTools, materialsTools } from './__fixtures__/tools';
import { buildSystemPrompt, describeWorkflow } from './prompt';
import { getParamPlan } from '../workflow/params';
import { DEFAULT_SYSTEM_PARAMS } from '../tools/types';
import { asEdgeId, asNodeId, type WorkflowDocument } from '../workflow/types';

describe('buildSystemPrompt', () => {
  it('gives every parameter of every tool with its type, required flag, default and description', () => {
    const prompt = buildSystemPrompt({
      task: 'T',
      tools: allTools,
      protocol: 'native',
      systemParams: DEFAULT_SYSTEM_PARAMS,
      nextStepId: 'step_1',
    });
    const typeNames: Record<string, string> = {
      str: 'string',
      int: 'integer',
      float: 'number',
      bool: 'boolean',
      list: 'array',
      dict: 'object',
    };
    let checked = 0;
    for (const tool of allTools) {
      const section = prompt.slice(prompt.indexOf(`## ${tool.name}\n`)).split('\n## ')[0];
      expect(section).toContain(`Description: ${tool.description}`);
      const properties = tool.inputSchema.properties as Record<string, { default?: unknown }>;
      for (const param of getParamPlan(tool)) {
        const line = section.split('\n').find((l) => l.startsWith(`- ${param.name} (`));
        expect(line, `${tool.name}.${param.name}`).toBeDefined();
        expect(line).toContain(`(${typeNames[param.type]}`);
        expect(line).toContain(param.required ? ', required' : ', optional');
        if ('default' in properties[param.name])
          expect(line).toContain(`default ${JSON.stringify(properties[param.name].default)}`);
        if (param.description) expect(line).toContain(`: ${param.description}`);
        checked++;
      }
    }
    expect(checked).toBe(50);
  });

  it('matches the snapshot for the seed tool (task, wiring convention, catalogue)', () => {
    const prompt = buildSystemPrompt({
      task: 'Optimise the structure, then compute its phonons.',
      tools: materialsTools.slice(0, 1),
      protocol: 'text',
      systemParams: DEFAULT_SYSTEM_PARAMS,
      nextStepId: 'step_1',
    });
    expect(prompt).toMatchInlineSnapshot(`
      "You are Toolflow's workflow planner. You turn a task into a workflow: a graph of tool calls that a
      platform will run later. Every tool call you make becomes one step of the workflow. Nothing runs now:
      each call is answered with a placeholder result {"step_id": "step_N", "outputs": [...]} that names the
      step and the outputs later steps can use.

      # How to plan
      - Call the tools the task needs, in order. Calls that do not depend on each other may go in one turn.
      - Steps are numbered in call order; your next call becomes step_1.
      - To feed an earlier step's output into a parameter, set the parameter to exactly the string
        "{{step_N.output}}" — for example "{{step_1.result}}". Use only outputs named in a tool result or in
        the catalogue below ("Returns:"); a tool that declares no outputs has one output named "result".
      - Give every required parameter a value or a reference. Use only the parameters a tool declares, with
        the declared types; leave out optional parameters whose default is right.
      - Never pass "executor" or "storage": the platform fills those in itself.
      - When the workflow is complete, reply with one short sentence and no tool calls.
      - To fix a step you already made (a wrong value, or arguments a tool result says were repaired), use
        update_step, remove_step, connect or disconnect; do not call its tool again.

      # Task
      Optimise the structure, then compute its phonons.

      # How to call a tool
      You cannot call tools natively here. To call a tool, write one block per call in your reply:
      <tool_call>{"name": "tool_name", "arguments": {"parameter": "value"}}</tool_call>
      The block holds one JSON object and nothing else. Several blocks may follow each other. The results
      come back in the next message as <tool_result> blocks, in the same order.

      # Available tools (1)

      ## optimize_structure
      Description: Perform geometry optimization (relaxation) of a crystal structure with a DPA model. 使用 DPA 模型对晶体结构进行几何优化（结构弛豫）。
      Parameters:
      - input_structure (string, required): Input structure file URL or path (输入结构文件)
      - model_path (string, required): Path to the DPA model file (DPA 模型文件路径)
      - head (string, optional, default "Omat24"): Model head type (模型头)
      - force_tolerance (number, optional, default 0.01): Force convergence tolerance in eV/Å (力收敛阈值)
      - max_iterations (integer, optional, default 100): Maximum optimization iterations (最大迭代次数)
      - relax_cell (boolean, optional, default false): Whether to relax cell parameters (是否优化晶胞参数)
      Returns: optimized_structure (string), final_energy (number)
      "
    `);
  });
});

describe('describeWorkflow', () => {
  it('shows a wire into an input named "__proto__" and the outputs of a tool named "constructor"', () => {
    const decl = { ...materialsTools[0], name: 'constructor' };
    const doc: WorkflowDocument = {
      task: '',
      nodes: [
        { id: asNodeId('step_1'), tool: 'constructor', position: { x: 0, y: 0 }, args: {} },
        { id: asNodeId('step_2'), tool: 'ghost', position: { x: 0, y: 0 }, args: {} },
      ],
      edges: [
        {
          id: asEdgeId('e'),
          source: asNodeId('step_1'),
          sourceOutput: 'final_energy',
          target: asNodeId('step_2'),
          targetInput: '__proto__',
        },
      ],
      tools: { constructor: { declaration: decl, hash: 'h' } },
    };
    expect(describeWorkflow(doc).split('\n')).toEqual([
      '- step_1: constructor {} → outputs: optimized_structure, final_energy',
      '- step_2: ghost {"__proto__":"{{step_1.final_energy}}"} → outputs: result',
    ]);
  });
});
