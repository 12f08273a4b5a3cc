import { describe, expect, it } from 'vitest';
import { analyseTool, fetchTool } from '../__fixtures__/declarations';
import { copyNodes, pasteNodes } from './clipboard';
import { asEdgeId, asNodeId, type WorkflowDocument } from '../types';

const doc: WorkflowDocument = {
  task: '',
  nodes: [
    { id: asNodeId('a'), tool: 'fetch_file', position: { x: 0, y: 0 }, args: { url: 'u', meta: { k: [1] } } },
    { id: asNodeId('b'), tool: 'analyse', position: { x: 300, y: 0 }, args: {} },
    { id: asNodeId('c'), tool: 'analyse', position: { x: 600, y: 0 }, args: {} },
  ],
  edges: [
    {
      id: asEdgeId('ab'),
      source: asNodeId('a'),
      sourceOutput: 'path',
      target: asNodeId('b'),
      targetInput: 'path',
    },
    {
      id: asEdgeId('bc'),
      source: asNodeId('b'),
      sourceOutput: 'result',
      target: asNodeId('c'),
      targetInput: 'path',
    },
  ],
  tools: {
    fetch_file: { declaration: fetchTool, hash: 'hf' },
    analyse: { declaration: analyseTool, hash: 'ha' },
  },
};

describe('copyNodes', () => {
  it('keeps only the edges between two copied nodes and the tools they use', () => {
    const clip = copyNodes(doc, ['a', 'b']);
    expect(clip.nodes.map((n) => n.id)).toEqual(['a', 'b']);
    expect(clip.edges.map((e) => e.id)).toEqual(['ab']);
    expect(Object.keys(clip.tools).sort()).toEqual(['analyse', 'fetch_file']);
  });

  it('keeps the snapshot of a tool named like an Object.prototype member', () => {
    const named: WorkflowDocument = {
      task: '',
      nodes: [{ id: asNodeId('p'), tool: '__proto__', position: { x: 0, y: 0 }, args: {} }],
      edges: [],
      tools: {},
    };
    Object.defineProperty(named.tools, '__proto__', {
      value: { declaration: { ...fetchTool, name: '__proto__' }, hash: 'hp' },
      enumerable: true,
    });
    expect(Object.keys(copyNodes(named, ['p']).tools)).toEqual(['__proto__']);
    const pasted = pasteNodes({ ...doc, nodes: [] }, copyNodes(named, ['p']), { x: 0, y: 0 }).doc;
    expect(Object.keys(pasted.tools)).toEqual(['fetch_file', 'analyse', '__proto__']);
  });

  it('shares no objects with the document', () => {
    const clip = copyNodes(doc, ['a']);
    expect(clip.nodes[0].args).not.toBe(doc.nodes[0].args);
    expect(clip.nodes[0].args).toEqual(doc.nodes[0].args);
  });
});

describe('pasteNodes', () => {
  it('gives every copy a new id, shifts it, and rewires the copied edges between the copies', () => {
    const { doc: next, ids } = pasteNodes(doc, copyNodes(doc, ['a', 'b']), { x: 40, y: 40 });
    expect(ids).toEqual(['a_copy_1', 'b_copy_1']);
    expect(next.nodes.slice(3).map((n) => n.position)).toEqual([
      { x: 40, y: 40 },
      { x: 340, y: 40 },
    ]);
    expect(next.edges.slice(2)).toEqual([
      expect.objectContaining({
        source: 'a_copy_1',
        sourceOutput: 'path',
        target: 'b_copy_1',
        targetInput: 'path',
      }),
    ]);
  });

  it('pasting twice never reuses an id, nor grows copy suffixes', () => {
    const clip = copyNodes(doc, ['a']);
    const once = pasteNodes(doc, clip, { x: 40, y: 40 }).doc;
    const twice = pasteNodes(once, copyNodes(once, ['a_copy_1']), { x: 40, y: 40 });
    expect(twice.ids).toEqual(['a_copy_2']);
  });

  it('adds the snapshots the target document lacks and keeps its own', () => {
    const empty: WorkflowDocument = {
      task: '',
      nodes: [],
      edges: [],
      tools: { analyse: { declaration: analyseTool, hash: 'other' } },
    };
    const { doc: next } = pasteNodes(empty, copyNodes(doc, ['a', 'b']), { x: 0, y: 0 });
    expect(next.tools.fetch_file.hash).toBe('hf');
    expect(next.tools.analyse.hash).toBe('other');
  });

  it('removes an edge into an arg port that a node loses when the pasted snapshot declares its tool', () => {
    const target: WorkflowDocument = {
      task: '',
      nodes: [
        { id: asNodeId('s'), tool: 'ghost', position: { x: 0, y: 0 }, args: {} },
        { id: asNodeId('g'), tool: 'analyse', position: { x: 0, y: 0 }, args: { x: 'a' } },
      ],
      edges: [
        {
          id: asEdgeId('sg'),
          source: asNodeId('s'),
          sourceOutput: 'result',
          target: asNodeId('g'),
          targetInput: 'x',
        },
      ],
      tools: {},
    };
    const { doc: next } = pasteNodes(target, copyNodes(doc, ['b']), { x: 0, y: 0 });
    expect(Object.keys(next.tools)).toEqual(['analyse']);
    expect(next.edges).toEqual([]);
    expect(next.nodes[1].notes?.map((n) => [n.code, n.param])).toEqual([['edge_removed', 'x']]);
    expect(next.nodes.map((n) => n.id)).toEqual(['s', 'g', 'b_copy_1']);
  });

  it('returns the same document for an empty clipboard', () => {
    expect(pasteNodes(doc, { nodes: [], edges: [], tools: {} }, { x: 1, y: 1 }).doc).toBe(doc);
  });
});
