/**
 * Batches (graph.ts `inBatch`): a sequence of commands grows the arrays it made in place, so a
 * plan of n steps builds in linear time, while every document a batch is given, and every
 * document a batch returned, stays as it was (the editor's undo and React rely on it).
 */
import { describe, expect, it } from 'vitest';
import { analyseTool, fetchTool } from './__fixtures__/declarations';
import { addCall, applyOperations, setArg } from './commands';
import { appendEdge, appendNode, findNode, inBatch } from './graph';
import { applyPlan, createDocumentFromPlan } from './plan';
import { asEdgeId, asNodeId, type Plan, type WorkflowDocument, type WorkflowNode } from './types';

const tools = [fetchTool, analyseTool];

/** `n` steps: fetch, then analyse wired to the fetch before it. */
function chain(n: number, first = 1): Plan {
  const steps: Plan['steps'] = [];
  for (let i = first; i < first + n; i++) {
    steps.push(
      i % 2 === 1
        ? { id: `s${i}`, tool: 'fetch_file', args: { url: `https://x/${i}` } }
        : { id: `s${i}`, tool: 'analyse', args: { path: `{{s${i - 1}.path}}`, threshold: i } },
    );
  }
  return { task: 't', steps };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

const node = (id: string): WorkflowNode => ({
  id: asNodeId(id),
  tool: 't',
  position: { x: 0, y: 0 },
  args: {},
});

describe('inBatch', () => {
  it('grows an array the batch made in place, and copies any other', () => {
    const outside: WorkflowNode[] = [node('a')];
    const [copied, grown] = inBatch(() => {
      const copy = appendNode(outside, node('b'));
      return [copy, appendNode(copy, node('c'))];
    });
    expect(copied).not.toBe(outside);
    expect(grown).toBe(copied);
    expect(outside.map((n) => n.id)).toEqual(['a']);
    expect(grown.map((n) => n.id)).toEqual(['a', 'b', 'c']);
    // The batch is over: its array is copied like any other now.
    expect(appendNode(grown, node('d'))).not.toBe(grown);
    expect(grown).toHaveLength(3);
  });

  it('keeps lookups right for arrays grown in place', () => {
    const doc = inBatch(() => {
      let d: WorkflowDocument = { task: '', nodes: [], edges: [], tools: {} };
      for (let i = 0; i < 50; i++) d = { ...d, nodes: appendNode(d.nodes, node(`n${i}`)) };
      const edge = {
        id: asEdgeId('e'),
        source: asNodeId('n1'),
        sourceOutput: 'o',
        target: asNodeId('n2'),
        targetInput: 'i',
      };
      return {
        ...d,
        edges: appendEdge(appendEdge(d.edges, edge), { ...edge, id: asEdgeId('f'), target: asNodeId('n3') }),
      };
    });
    expect(findNode(doc, 'n49')?.id).toBe('n49');
    expect(findNode(doc, 'n50')).toBeUndefined();
    expect(doc.edges.map((e) => e.id)).toEqual(['e', 'f']);
  });

  it('ends when the change throws', () => {
    const outside: WorkflowNode[] = [];
    expect(() =>
      inBatch(() => {
        appendNode(outside, node('a'));
        throw new Error('stop');
      }),
    ).toThrow('stop');
    const a = appendNode(outside, node('a'));
    expect(appendNode(a, node('b'))).not.toBe(a);
  });
});

describe('commands in a batch', () => {
  it('never change the document a plan is applied to (frozen here, so a write would throw)', () => {
    const first = createDocumentFromPlan(chain(6), tools);
    if (!first.ok) throw new Error(JSON.stringify(first.error));
    const base = deepFreeze(first.value);
    const text = JSON.stringify(base);
    const next = applyPlan(base, chain(6, 7), tools);
    expect(next.ok && next.value.nodes.map((n) => n.id)).toEqual([
      's1',
      's2',
      's3',
      's4',
      's5',
      's6',
      's7',
      's8',
      's9',
      's10',
      's11',
      's12',
    ]);
    expect(next.ok && next.value.edges).toHaveLength(6);
    expect(JSON.stringify(base)).toBe(text);
  });

  it('never change a document an earlier batch returned', () => {
    const built = createDocumentFromPlan(chain(4), tools);
    if (!built.ok) throw new Error(JSON.stringify(built.error));
    const doc = built.value;
    const text = JSON.stringify(doc);
    const added = addCall(doc, { id: 's5', decl: analyseTool, args: { path: '{{s3.path}}' } });
    const replayed = applyOperations(doc, added.operations);
    const edited = setArg(doc, 's2', 'threshold', 9);
    expect(JSON.stringify(doc)).toBe(text);
    expect(replayed.ok && JSON.stringify(replayed.value)).toBe(JSON.stringify(added.doc));
    expect(edited.nodes).not.toBe(doc.nodes);
  });

  it('leave the document untouched when a replay fails part-way', () => {
    const built = createDocumentFromPlan(chain(2), tools);
    if (!built.ok) throw new Error(JSON.stringify(built.error));
    const doc = deepFreeze(built.value);
    const result = applyOperations(doc, [
      { op: 'update_step', stepId: 's2', args: { threshold: 3 }, unset: [] },
      { op: 'remove_step', stepId: 'nope' },
    ]);
    expect(result.ok).toBe(false);
    expect(doc.nodes[1].args).toEqual({ threshold: 2 });
  });
});
