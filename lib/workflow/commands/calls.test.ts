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
    // Neither is a parameter, so neither is warned about as an embedded reference.
    expect([result.doc.nodes[0].notes, undeclared.doc.nodes[0].notes]).toEqual([undefined, undefined]);
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

  it('drops the notes about each arg it replaces, so none goes stale', () => {
    const doc = addCall(wired(), {
      id: 'c',
      decl: analyseTool,
      args: { path: '{{zz.path}}', threshold: '{{a.path}}', tags: ['t'] },
      notes: [
        { severity: 'warning', code: 'repaired_arguments', message: 'Repaired.' },
        { severity: 'warning', code: 'possibly_truncated', message: 'Cut inside "tags".', param: 'tags' },
      ],
    }).doc;
    const notes = (d: WorkflowDocument) => d.nodes[2].notes?.map((n) => [n.code, n.param]);
    expect(notes(doc)).toEqual([
      ['repaired_arguments', undefined],
      ['possibly_truncated', 'tags'],
      ['bad_reference', 'path'],
      ['bad_reference', 'threshold'],
    ]);
    // path is wired now, threshold gets a value, tags is cleared: each of their notes goes.
    const result = updateCall(doc, {
      stepId: 'c',
      args: { path: '{{a.path}}', threshold: 0.1 },
      unset: ['tags'],
    });
    expect(notes(result!.doc)).toEqual([['repaired_arguments', undefined]]);
    // A reference that still cannot be wired takes the place of the old note, not beside it.
    const again = updateCall(doc, { stepId: 'c', args: { threshold: '{{zz.size}}' } });
    expect(notes(again!.doc)).toEqual([
      ['repaired_arguments', undefined],
      ['possibly_truncated', 'tags'],
      ['bad_reference', 'path'],
      ['bad_reference', 'threshold'],
    ]);
    expect(again!.doc.nodes[2].notes?.[3].message).toContain('zz.size');
    for (const r of [result!, again!]) {
      const replayed = applyOperations(doc, r.operations);
      expect(replayed.ok && JSON.stringify(replayed.value)).toBe(JSON.stringify(r.doc));
    }
  });

  it('is undefined for a step that does not exist', () => {
    expect(updateCall(wired(), { stepId: 'zz', args: {} })).toBeUndefined();
  });
});
