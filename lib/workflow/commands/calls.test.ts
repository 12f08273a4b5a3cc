import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../../tools/types';
import { analyseTool, fetchTool } from '../__fixtures__/declarations';
import { exportWorkflow } from '../export';
import type { WorkflowDocument } from '../types';
import { addCall, applyOperations, updateCall } from '.';

const empty: WorkflowDocument = { task: '', nodes: [], edges: [], tools: {} };

/** fetch_file as a → analyse as b, wired path → path. */
function wired(): WorkflowDocument {
  const a = addCall(empty, { id: 'a', decl: fetchTool, args: { url: 'https://x' } }).doc;
  return addCall(a, { id: 'b', decl: analyseTool, args: { path: '{{a.path}}', tags: ['t'] } }).doc;
}

describe('addCall', () => {
  it('adds the node, wires its references and records the same change as operations', () => {
    const result = addCall(empty, { id: 'a', decl: fetchTool, args: { url: 'u', colour: 'red' } });
    const next = addCall(result.doc, {
      id: 'b',
      decl: analyseTool,
      args: { path: '{{a.path}}', threshold: 0.5 },
      notes: [{ severity: 'warning', code: 'repaired_arguments', message: 'The arguments were repaired.' }],
      rawArguments: "{'path': '{{a.path}}', 'threshold': 0.5}",
    });
    expect(result.step).toMatchObject({ id: 'a', args: { url: 'u' }, unknownArgs: ['colour'] });
    expect(next.edges.map((e) => e.id)).toEqual(['a.path->b.path']);
    expect(next.step.args).toEqual({ threshold: 0.5 });
    const replayed = applyOperations(
      empty,
      [...result.operations, ...next.operations],
      [fetchTool, analyseTool],
    );
    expect(replayed.ok && JSON.stringify(replayed.value)).toBe(JSON.stringify(next.doc));
  });

  it('wires into a step whose tool nobody declared, which keeps its args', () => {
    const a = addCall(empty, { id: 'a', decl: fetchTool, args: {} }).doc;
    const result = addCall(a, { id: 'b', decl: 'vanished', args: { file: '{{a.path}}', n: 2 } });
    expect(result.edges.map((e) => e.id)).toEqual(['a.path->b.file']);
    const node = exportWorkflow(result.doc, { id: 'w', name: 'w' }).nodes[1];
    expect(node.input_parameters.map((p) => [p.name, p.origin])).toEqual([
      ['n', 'arg'],
      ['file', 'edge'],
    ]);
    expect(node.problems.map((p) => p.code)).toEqual(['unknown_tool']);
  });

  it('keeps a reference in a system parameter the tool declares as a plain value (the platform fills it)', () => {
    const withExecutor: ToolDeclaration = {
      ...fetchTool,
      inputSchema: { type: 'object', properties: { url: { type: 'string' }, executor: {} } },
    };
    const result = addCall(empty, { id: 'a', decl: withExecutor, args: { executor: '{{x.result}}' } });
    expect(result.doc.nodes[0].args).toEqual({ executor: '{{x.result}}' });
    expect(result.edges).toEqual([]);
    const undeclared = addCall(empty, { id: 'a', decl: fetchTool, args: { executor: '{{x.result}}' } });
    expect(undeclared.step).toMatchObject({ args: {}, unknownArgs: ['executor'] });
  });
});

describe('updateCall', () => {
  it('notes a reference it cannot wire on the node and leaves the value that was there', () => {
    const doc = addCall(wired(), { id: 'c', decl: analyseTool, args: { path: 'p.txt' } }).doc;
    const result = updateCall(doc, { stepId: 'c', args: { path: '{{a.size}}', threshold: 1 } });
    expect(result?.updated).toEqual(['threshold']);
    const node = result!.doc.nodes[2];
    expect(node.args).toEqual({ path: 'p.txt', threshold: 1 });
    expect(node.notes).toEqual([
      expect.objectContaining({
        code: 'bad_reference',
        param: 'path',
        message: expect.stringContaining('is int'),
      }),
    ]);
    const replayed = applyOperations(doc, result!.operations);
    expect(replayed.ok && JSON.stringify(replayed.value)).toBe(JSON.stringify(result!.doc));
  });

  it('wires a reference, records unknown args on the node and clears what is unset', () => {
    const doc = addCall(wired(), { id: 'c', decl: analyseTool, args: { threshold: 2 } }).doc;
    const result = updateCall(doc, {
      stepId: 'c',
      args: { path: '{{a.path}}', colour: 1 },
      unset: ['threshold'],
    });
    expect(result?.edges.map((e) => e.id)).toEqual(['a.path->c.path']);
    expect(result?.doc.nodes[2]).toMatchObject({ args: {}, unknownArgs: ['colour'] });
    expect(result?.issues.map((i) => i.code)).toEqual(['unknown_arg']);
  });

  it('is undefined for a step that does not exist', () => {
    expect(updateCall(wired(), { stepId: 'zz', args: {} })).toBeUndefined();
  });
});
