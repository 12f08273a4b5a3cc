import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffDocuments, isEmptyDiff, isJsonEqual, mergeDocuments, summarizeDiff } from './diff';
import { asEdgeId, asNodeId, type WorkflowDocument, type WorkflowEdge, type WorkflowNode } from './types';

const node = (id: string, args: Record<string, unknown> = {}, x = 0): WorkflowNode => ({
  id: asNodeId(id),
  tool: 'tool_' + id,
  position: { x, y: 0 },
  args,
});
const edge = (id: string, source: string, target: string, targetInput = 'in'): WorkflowEdge => ({
  id: asEdgeId(id),
  source: asNodeId(source),
  sourceOutput: 'result',
  target: asNodeId(target),
  targetInput,
});
const doc = (nodes: WorkflowNode[], edges: WorkflowEdge[] = [], task = 't'): WorkflowDocument => ({
  task,
  nodes,
  edges,
  tools: {},
});

describe('diffDocuments', () => {
  const before = doc(
    [node('a', { p: 1, q: 'x' }), node('b', { r: true }), node('c')],
    [edge('e1', 'a', 'b'), edge('e2', 'b', 'c')],
  );

  it('reports nodes, edges and params added, removed and changed by id', () => {
    const after = doc(
      [node('a', { p: 2, s: [] }, 50), { ...node('b', { r: true }), label: 'B' }, node('d')],
      [edge('e1', 'a', 'b', 'other'), edge('e3', 'a', 'd')],
      'new task',
    );
    const d = diffDocuments(before, after);
    expect(d.task).toBe(true);
    expect(d.nodes).toEqual({ added: ['d'], removed: ['c'], changed: ['b'], moved: ['a'] });
    expect(d.edges).toEqual({ added: ['e3'], removed: ['e2'], changed: ['e1'] });
    expect(d.params).toEqual({
      added: [{ node: 'a', param: 's' }],
      removed: [{ node: 'a', param: 'q' }],
      changed: [{ node: 'a', param: 'p' }],
    });
    expect(summarizeDiff(d)).toBe(
      'task changed, 1 node added, 1 node removed, 1 node changed, 1 node moved, 1 edge added, 1 edge removed, 1 edge changed, 1 param added, 1 param removed, 1 param changed',
    );
  });

  it('sees no change in a reordered copy with keys in another order', () => {
    const copy = doc(
      [node('c'), { ...node('b'), args: { r: true } }, { ...node('a'), args: { q: 'x', p: 1 } }],
      [...before.edges].reverse(),
    );
    const d = diffDocuments(before, copy);
    expect(isEmptyDiff(d)).toBe(true);
    expect(summarizeDiff(d)).toBe('No changes');
  });

  it('reports tool declarations whose hash changed', () => {
    const decl = { name: 'x', description: '', inputSchema: {} };
    const a = {
      ...doc([]),
      tools: { x: { declaration: decl, hash: 'h1' }, y: { declaration: decl, hash: 'h' } },
    };
    const b = {
      ...doc([]),
      tools: { x: { declaration: decl, hash: 'h2' }, z: { declaration: decl, hash: 'h' } },
    };
    expect(diffDocuments(a, b).tools).toEqual({ added: ['z'], removed: ['y'], changed: ['x'] });
    expect(summarizeDiff(diffDocuments(a, b))).toBe('1 tool added, 1 tool removed, 1 tool changed');
  });
});

describe('params named like Object.prototype members', () => {
  it('are reported when added or removed, and merged as own members', () => {
    const before = doc([node('a', { p: 1 })]);
    const after = doc([node('a', JSON.parse('{"p": 1, "constructor": 2, "__proto__": 3}'))]);
    expect(diffDocuments(before, after).params.added).toEqual([
      { node: 'a', param: 'constructor' },
      { node: 'a', param: '__proto__' },
    ]);
    expect(diffDocuments(after, before).params.removed).toHaveLength(2);
    const { doc: merged } = mergeDocuments(before, after, before);
    expect(JSON.stringify(merged.nodes[0].args)).toBe('{"p":1,"constructor":2,"__proto__":3}');
  });
});

describe('isJsonEqual', () => {
  it('compares deeply, ignoring key order and undefined keys', () => {
    expect(isJsonEqual({ a: [1, { b: 2 }], c: undefined }, { a: [1, { b: 2 }] })).toBe(true);
    expect(isJsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(isJsonEqual([], {})).toBe(false);
    expect(isJsonEqual(null, {})).toBe(false);
  });
});

describe('mergeDocuments', () => {
  const base = doc([node('a', { p: 1, q: 1 }), node('b', { r: 1 })], [edge('e1', 'a', 'b')]);

  it('combines edits to different nodes and to different params of one node', () => {
    const mine = doc([node('a', { p: 2, q: 1 }, 100), node('b', { r: 1 })], base.edges);
    const theirs = doc([node('a', { p: 1, q: 9 }), node('b', { r: 5 })], base.edges, 'their task');
    const { doc: merged, conflicts } = mergeDocuments(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(merged.task).toBe('their task');
    expect(merged.nodes).toEqual([node('a', { p: 2, q: 9 }, 100), node('b', { r: 5 })]);
  });

  it('keeps my value where both changed the same param, and reports it', () => {
    const mine = doc([node('a', { p: 2, q: 1 }), node('b', { r: 1 })], base.edges);
    const theirs = doc([node('a', { p: 3, q: 1 }), node('b', { r: 1 })], base.edges);
    const { doc: merged, conflicts } = mergeDocuments(base, mine, theirs);
    expect(merged.nodes[0].args).toEqual({ p: 2, q: 1 });
    expect(conflicts).toEqual([
      {
        where: 'node a param p',
        message: 'Parameter "p" of node a was changed in both places; your value was kept.',
      },
    ]);
  });

  it('keeps nodes added on both sides, theirs first then mine', () => {
    const mine = doc([...base.nodes, node('m')], base.edges);
    const theirs = doc([...base.nodes, node('t')], base.edges);
    expect(mergeDocuments(base, mine, theirs).doc.nodes.map((n) => n.id)).toEqual(['a', 'b', 't', 'm']);
  });

  it('deletes a node deleted on one side and untouched on the other, with its edges', () => {
    const mine = doc([node('a', { p: 1, q: 1 })], []);
    const { doc: merged, conflicts } = mergeDocuments(base, mine, base);
    expect(merged.nodes.map((n) => n.id)).toEqual(['a']);
    expect(merged.edges).toEqual([]);
    expect(conflicts).toEqual([]);
  });

  it('keeps a node deleted on one side but edited on the other, and says so', () => {
    const mine = doc([node('a', { p: 1, q: 1 })], []);
    const theirs = doc([node('a', { p: 1, q: 1 }), node('b', { r: 7 })], base.edges);
    const { doc: merged, conflicts } = mergeDocuments(base, mine, theirs);
    expect(merged.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(conflicts.map((c) => c.where)).toEqual(['node b']);
  });

  it('drops an edge that lost its node, reporting it', () => {
    const mine = doc([...base.nodes, node('c')], [...base.edges, edge('e2', 'b', 'c')]);
    const theirs = doc([node('a', { p: 1, q: 1 }), node('b', { r: 1 })], base.edges);
    const withoutC = doc([node('a', { p: 1, q: 1 }), node('b', { r: 1 })], []);
    // They deleted b (untouched by me) while I wired b to a new node.
    const r = mergeDocuments(doc(base.nodes, base.edges), mine, doc([withoutC.nodes[0]], []));
    expect(r.doc.nodes.map((n) => n.id)).toEqual(['a', 'c']);
    expect(r.doc.edges).toEqual([]);
    expect(r.conflicts.map((c) => c.where)).toEqual(['edge e2']);
    expect(mergeDocuments(base, mine, theirs).doc.edges.map((e) => e.id)).toEqual(['e1', 'e2']);
  });

  it('keeps my edge when both sides wired the same input', () => {
    const three = doc([node('a'), node('b'), node('c')]);
    const mine = doc(three.nodes, [edge('em', 'a', 'c')]);
    const theirs = doc(three.nodes, [edge('et', 'b', 'c')]);
    const r = mergeDocuments(three, mine, theirs);
    expect(r.doc.edges.map((e) => e.id)).toEqual(['em']);
    expect(r.conflicts.map((c) => c.where)).toEqual(['edge et']);
  });

  const arbDoc = fc
    .record({
      nodes: fc.uniqueArray(
        fc.record({
          id: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
          args: fc.dictionary(
            fc.constantFrom('p', 'q', 'r'),
            fc.oneof(fc.integer({ min: 0, max: 3 }), fc.string({ maxLength: 2 })),
          ),
          x: fc.integer({ min: 0, max: 3 }),
        }),
        { selector: (n) => n.id, maxLength: 5 },
      ),
      task: fc.constantFrom('t', 'u'),
    })
    .map(({ nodes, task }) => {
      const ns = nodes.map((n) => node(n.id, n.args, n.x));
      const edges = ns.slice(1).map((n, i) => edge(`e${ns[i].id}${n.id}`, ns[i].id, n.id));
      return doc(ns, edges, task);
    });

  it('returns mine when theirs did not change, theirs when mine did not, and either when both agree', () => {
    fc.assert(
      fc.property(arbDoc, arbDoc, (base, other) => {
        expect(mergeDocuments(base, other, base)).toEqual({ doc: other, conflicts: [] });
        expect(mergeDocuments(base, base, other).doc).toEqual(other);
        expect(mergeDocuments(base, other, other)).toEqual({ doc: other, conflicts: [] });
      }),
    );
  });

  it('always produces edges whose endpoints exist, and keeps every node one side edited', () => {
    fc.assert(
      fc.property(arbDoc, arbDoc, arbDoc, (base, mine, theirs) => {
        const { doc: merged } = mergeDocuments(base, mine, theirs);
        const ids = new Set(merged.nodes.map((n) => n.id));
        for (const e of merged.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
        const baseIds = new Set(base.nodes.map((n) => n.id));
        for (const n of [...mine.nodes, ...theirs.nodes])
          if (!baseIds.has(n.id)) expect(ids.has(n.id)).toBe(true);
      }),
    );
  });
});
