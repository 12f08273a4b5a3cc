import { describe, expect, it } from 'vitest';
import { asEdgeId, asNodeId, type WorkflowDocument } from '../workflow/types';
import { toDomainConnection, toDomainConnectionFromHandles, toFlowEdges, toFlowNodes } from './adapters';

const doc: WorkflowDocument = {
  task: '',
  nodes: [
    { id: asNodeId('a'), tool: 't', position: { x: 0, y: 0 }, args: {} },
    { id: asNodeId('b'), tool: 't', position: { x: 300, y: 0 }, args: {} },
  ],
  edges: [
    {
      id: asEdgeId('e'),
      source: asNodeId('a'),
      sourceOutput: 'out',
      target: asNodeId('b'),
      targetInput: 'in',
    },
  ],
  tools: {},
};

describe('toFlowNodes', () => {
  it('returns the very same node objects when nothing React Flow shows changed', () => {
    const first = toFlowNodes(doc);
    const moved = { ...doc, nodes: [doc.nodes[0], { ...doc.nodes[1], position: { x: 310, y: 0 } }] };
    const next = toFlowNodes(moved, first);
    expect(next[0]).toBe(first[0]);
    expect(next[1]).not.toBe(first[1]);
    expect(next[1].position).toEqual({ x: 310, y: 0 });
  });

  it('keeps measurement and applies a new selection', () => {
    const first = toFlowNodes(doc).map((n) => ({ ...n, measured: { width: 300, height: 120 } }));
    const next = toFlowNodes(doc, first, new Set(['b']));
    expect(next.map((n) => n.selected)).toEqual([false, true]);
    expect(next[1].measured).toEqual({ width: 300, height: 120 });
  });
});

describe('toFlowEdges', () => {
  it('names handles after the ports and keeps edge selection', () => {
    const [edge] = toFlowEdges(doc.edges);
    expect(edge).toMatchObject({ sourceHandle: 'out:out', targetHandle: 'in:in', selected: false });
    const selected = [{ ...edge, selected: true }];
    expect(toFlowEdges(doc.edges, selected)[0]).toBe(selected[0]);
  });
});

describe('toDomainConnection', () => {
  it('reads port names from handle ids, and refuses a connection without handles', () => {
    expect(
      toDomainConnection({ source: 'a', sourceHandle: 'out:path', target: 'b', targetHandle: 'in:file' }),
    ).toEqual({
      source: 'a',
      sourceOutput: 'path',
      target: 'b',
      targetInput: 'file',
    });
    expect(
      toDomainConnection({ source: 'a', sourceHandle: null, target: 'b', targetHandle: 'in:file' }),
    ).toBeUndefined();
  });

  it('orients a drag that started on an input', () => {
    const from = { nodeId: 'b', id: 'in:file', type: 'target' as const };
    const to = { nodeId: 'a', id: 'out:path', type: 'source' as const };
    expect(toDomainConnectionFromHandles(from, to)).toMatchObject({
      source: 'a',
      target: 'b',
      targetInput: 'file',
    });
    expect(toDomainConnectionFromHandles(from, { ...to, type: 'target' })).toBeUndefined();
  });
});
