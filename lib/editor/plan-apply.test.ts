import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../tools/types';
import type { PlannedStep } from '../planner/types';
import { exportWorkflow } from '../workflow/export';
import { asEdgeId, asNodeId, type WorkflowDocument } from '../workflow/types';
import { applyOperationsLeniently, getEventOperation } from './plan-apply';

const optimize: ToolDeclaration = {
  name: 'optimize_structure',
  description: 'Relax a structure',
  inputSchema: {
    type: 'object',
    required: ['input_structure'],
    properties: { input_structure: { type: 'string' }, steps: { type: 'integer', default: 100 } },
  },
  outputSchema: { type: 'object', properties: { optimized_structure: { type: 'string' } } },
};
const phonons: ToolDeclaration = {
  name: 'calculate_phonons',
  description: 'Phonons',
  inputSchema: {
    type: 'object',
    required: ['input_structure'],
    properties: { input_structure: { type: 'string' } },
  },
};
const tools = [optimize, phonons];
const empty: WorkflowDocument = { task: 'relax then phonons', nodes: [], edges: [], tools: {} };

const step = (id: string, tool: string, args: Record<string, unknown> = {}): PlannedStep => ({
  id,
  tool,
  args,
  unknownArgs: [],
  issues: [],
});
const wire = {
  source: 'step_1',
  sourceOutput: 'optimized_structure',
  target: 'step_2',
  targetInput: 'input_structure',
};

describe('applyOperationsLeniently', () => {
  it('builds the streamed steps and wires into nodes and edges', () => {
    const { doc, issues } = applyOperationsLeniently(
      empty,
      [
        { op: 'add_step', step: step('step_1', 'optimize_structure', { input_structure: 'a.cif' }) },
        { op: 'add_step', step: step('step_2', 'calculate_phonons') },
        { op: 'connect', edge: wire },
      ],
      tools,
    );
    expect(issues).toEqual([]);
    expect(doc.nodes.map((n) => n.id)).toEqual(['step_1', 'step_2']);
    const exported = exportWorkflow(doc, { id: 'w', name: 'w' });
    expect(exported.nodes[1].input_parameters[0]).toMatchObject({ value: '', origin: 'edge' });
  });

  it('keeps the operations that fit when one does not, and says which one failed', () => {
    const { doc, issues } = applyOperationsLeniently(
      empty,
      [
        { op: 'add_step', step: step('step_1', 'optimize_structure') },
        { op: 'connect', edge: wire },
        { op: 'add_step', step: step('step_2', 'calculate_phonons') },
      ],
      tools,
    );
    expect(doc.nodes.map((n) => n.id)).toEqual(['step_1', 'step_2']);
    expect(doc.edges).toEqual([]);
    expect(issues.map((i) => i.path)).toEqual(['/operations/1/edge/target']);
    expect(empty.nodes).toEqual([]);
  });
});

describe('getEventOperation', () => {
  it('turns step and edge events into operations and skips add_step operations (already sent as steps)', () => {
    const s = step('step_1', 'optimize_structure');
    expect(getEventOperation({ type: 'step', step: s })).toEqual({ op: 'add_step', step: s });
    const edge = {
      id: asEdgeId('step_1.optimized_structure->step_2.input_structure'),
      source: asNodeId('step_1'),
      sourceOutput: 'optimized_structure',
      target: asNodeId('step_2'),
      targetInput: 'input_structure',
    };
    expect(getEventOperation({ type: 'edge', edge })).toEqual({ op: 'connect', edge: wire });
    expect(getEventOperation({ type: 'operation', operation: { op: 'add_step', step: s } })).toBeUndefined();
    expect(
      getEventOperation({ type: 'operation', operation: { op: 'remove_step', stepId: 'step_1' } }),
    ).toEqual({
      op: 'remove_step',
      stepId: 'step_1',
    });
    expect(getEventOperation({ type: 'progress', iteration: 1, message: 'thinking' })).toBeUndefined();
  });
});
