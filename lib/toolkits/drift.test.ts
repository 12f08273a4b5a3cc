import { describe, expect, it } from 'vitest';
import { hashDeclaration } from '../tools/canonical-json';
import type { ToolDeclaration } from '../tools/types';
import { buildNodeParameters } from '../workflow/params';
import { asEdgeId, asNodeId, type WorkflowDocument, type WorkflowNode } from '../workflow/types';
import { describeDiff, getDeclarationDiff, getWorkflowDrift, isEmptyDiff, rebuildNodes } from './drift';

const convertV1: ToolDeclaration = {
  name: 'convert',
  description: 'Convert a value',
  inputSchema: {
    type: 'object',
    required: ['input'],
    properties: {
      input: { type: 'string' },
      scale: { type: 'integer' },
      legacy: { type: 'boolean', default: false },
      executor: { type: 'object' },
    },
  },
  outputSchema: { type: 'object', properties: { value: { type: 'number' }, log: { type: 'string' } } },
};

const convertV2: ToolDeclaration = {
  name: 'convert',
  description: 'Convert a value',
  inputSchema: {
    type: 'object',
    required: ['input', 'unit'],
    properties: {
      input: { type: 'string' },
      scale: { type: 'number', default: 1 },
      unit: { type: 'string' },
      executor: { type: 'string' },
    },
  },
  outputSchema: { type: 'object', properties: { value: { type: 'number' } } },
};

const plot: ToolDeclaration = {
  name: 'plot',
  description: 'Plot',
  inputSchema: { type: 'object', properties: { data: { type: 'number' }, title: { type: 'string' } } },
};

function node(id: string, tool: string, args: Record<string, unknown>, toolHash?: string): WorkflowNode {
  return { id: asNodeId(id), tool, position: { x: 0, y: 0 }, args, ...(toolHash ? { toolHash } : {}) };
}

function documentWith(nodes: WorkflowNode[], tools: ToolDeclaration[]): WorkflowDocument {
  return {
    task: 'convert and plot',
    nodes,
    edges: [
      {
        id: asEdgeId('e1'),
        source: asNodeId('n1'),
        sourceOutput: 'value',
        target: asNodeId('n3'),
        targetInput: 'data',
      },
      {
        id: asEdgeId('e2'),
        source: asNodeId('n1'),
        sourceOutput: 'log',
        target: asNodeId('n3'),
        targetInput: 'title',
      },
    ],
    tools: Object.fromEntries(tools.map((t) => [t.name, { declaration: t, hash: hashDeclaration(t) }])),
  };
}

const v1Hash = hashDeclaration(convertV1);
const baseDoc = () =>
  documentWith(
    [
      node('n1', 'convert', { input: 'a.txt', scale: 3, legacy: true }, v1Hash),
      node('n2', 'convert', { input: 'b.txt' }, v1Hash),
      node('n3', 'plot', { title: 'T' }, hashDeclaration(plot)),
    ],
    [convertV1, plot],
  );

describe('getDeclarationDiff', () => {
  it('reports added, removed, retyped and required-changed parameters in declaration order', () => {
    const diff = getDeclarationDiff(convertV1, convertV2);
    expect(diff.added).toEqual([{ name: 'unit', type: 'str', required: true }]);
    expect(diff.removed).toEqual([{ name: 'legacy', type: 'bool' }]);
    expect(diff.retyped).toEqual([{ name: 'scale', from: 'int', to: 'float' }]);
    expect(diff.requiredChanged).toEqual([]);
    expect(diff.defaultChanged).toEqual([{ name: 'scale', to: 1 }]);
    expect(diff.outputsRemoved).toEqual(['log']);
    expect(diff.outputsAdded).toEqual([]);
  });

  it('ignores system parameters, which nodes never show', () => {
    const diff = getDeclarationDiff(convertV1, convertV2);
    expect([...diff.added, ...diff.removed, ...diff.retyped].map((p) => p.name)).not.toContain('executor');
  });

  it('reports a parameter that became required', () => {
    const stricter = { ...plot, inputSchema: { ...plot.inputSchema, required: ['data'] } };
    expect(getDeclarationDiff(plot, stricter).requiredChanged).toEqual([{ name: 'data', required: true }]);
    expect(getDeclarationDiff(stricter, plot).requiredChanged).toEqual([{ name: 'data', required: false }]);
  });

  it('names a change that touches no parameter', () => {
    const reworded = { ...plot, description: 'Plot a series' };
    const diff = getDeclarationDiff(plot, reworded);
    expect(diff.otherChanges).toEqual(['description']);
    const constrained = {
      ...plot,
      inputSchema: {
        type: 'object',
        properties: { data: { type: 'number', minimum: 0 }, title: { type: 'string' } },
      },
    };
    expect(getDeclarationDiff(plot, constrained).otherChanges).toEqual(['input schema']);
  });

  it('is empty when only key order differs', () => {
    const reordered: ToolDeclaration = {
      description: plot.description,
      inputSchema: { properties: plot.inputSchema.properties, type: 'object' },
      name: 'plot',
    };
    expect(isEmptyDiff(getDeclarationDiff(plot, reordered))).toBe(true);
  });

  it('describes each change in one line', () => {
    expect(describeDiff(getDeclarationDiff(convertV1, convertV2))).toEqual([
      'added required parameter "unit" (str)',
      'removed parameter "legacy"',
      'parameter "scale" changed type int → float',
      'parameter "scale" default none → 1',
      'removed output "log"',
    ]);
  });
});

describe('getWorkflowDrift', () => {
  it('finds nothing when every tool is as the nodes were built', () => {
    expect(getWorkflowDrift(baseDoc(), [convertV1, plot])).toEqual([]);
  });

  it('flags every node of a tool whose schema changed, with the diff', () => {
    const drift = getWorkflowDrift(baseDoc(), [convertV2, plot]);
    expect(drift.map((d) => [d.nodeId, d.status])).toEqual([
      ['n1', 'changed'],
      ['n2', 'changed'],
    ]);
    expect(drift[0].fromHash).toBe(v1Hash);
    expect(drift[0].toHash).toBe(hashDeclaration(convertV2));
    expect(drift[0].diff?.added.map((p) => p.name)).toEqual(['unit']);
  });

  it('flags nodes whose tool disappeared as missing', () => {
    expect(getWorkflowDrift(baseDoc(), [convertV1])).toEqual([
      { nodeId: 'n3', tool: 'plot', status: 'missing', fromHash: hashDeclaration(plot) },
    ]);
  });

  it('offers a placeholder node whose tool now exists for rebuilding', () => {
    const doc = baseDoc();
    doc.nodes.push({
      ...node('n4', 'smooth', {}),
      placeholderParams: [{ name: 'window', type: 'int', value: 5, origin: 'arg', required: false }],
    });
    const smooth: ToolDeclaration = {
      name: 'smooth',
      description: 'Smooth',
      inputSchema: { type: 'object', properties: { window: { type: 'integer' } } },
    };
    const drift = getWorkflowDrift(doc, [convertV1, plot, smooth]);
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatchObject({
      nodeId: 'n4',
      status: 'changed',
      diff: { added: [{ name: 'window', type: 'int', required: false }] },
    });
  });
});

describe('rebuildNodes', () => {
  it('moves the nodes to the live declaration, keeping the values that still have a parameter', () => {
    const result = rebuildNodes(baseDoc(), [asNodeId('n1')], [convertV2, plot]);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    const { document, rebuilt, droppedArgs } = result.value;
    const n1 = document.nodes.find((n) => n.id === 'n1')!;
    expect(n1.args).toEqual({ input: 'a.txt', scale: 3 });
    expect(n1.toolHash).toBe(hashDeclaration(convertV2));
    expect(document.tools.convert).toEqual({ declaration: convertV2, hash: hashDeclaration(convertV2) });
    expect(droppedArgs).toEqual([{ nodeId: 'n1', name: 'legacy', value: true }]);
    // One snapshot per tool: the other convert node moves too.
    expect(rebuilt).toEqual(['n1', 'n2']);
    expect(getWorkflowDrift(document, [convertV2, plot])).toEqual([]);
  });

  it('gives parameters by the DESIGN §1 rules after the rebuild', () => {
    const result = rebuildNodes(baseDoc(), [asNodeId('n2')], [convertV2, plot]);
    if (!result.ok) throw new Error('rebuild failed');
    const n2 = result.value.document.nodes.find((n) => n.id === 'n2')!;
    const params = buildNodeParameters(result.value.document.tools.convert.declaration, n2.args, {
      connectedInputs: new Set(),
    });
    expect(params.input_parameters.map((p) => [p.name, p.value, p.origin])).toEqual([
      ['input', 'b.txt', 'arg'],
      ['scale', 1, 'default'],
      ['unit', '', 'zero'],
    ]);
    expect(params.missing_tool_args).toEqual(['unit']);
  });

  it('removes edges from outputs that no longer exist and keeps the rest', () => {
    const result = rebuildNodes(baseDoc(), [asNodeId('n1')], [convertV2, plot]);
    if (!result.ok) throw new Error('rebuild failed');
    expect(result.value.removedEdges).toEqual(['e2']);
    expect(result.value.document.edges.map((e) => e.id)).toEqual(['e1']);
  });

  it('turns a placeholder into a real node with its imported values', () => {
    const doc = baseDoc();
    doc.nodes.push({
      ...node('n4', 'smooth', {}),
      placeholderParams: [
        { name: 'window', type: 'int', value: 5, origin: 'arg', required: false },
        { name: 'mode', type: 'str', value: 'x', origin: 'default', required: false },
      ],
      placeholderOutputs: [{ name: 'result', type: 'any' }],
    });
    const smooth: ToolDeclaration = {
      name: 'smooth',
      description: 'Smooth',
      inputSchema: {
        type: 'object',
        properties: { window: { type: 'integer' }, mode: { type: 'string', default: 'x' } },
      },
    };
    const result = rebuildNodes(doc, [asNodeId('n4')], [convertV1, plot, smooth]);
    if (!result.ok) throw new Error('rebuild failed');
    const n4 = result.value.document.nodes.find((n) => n.id === 'n4')!;
    expect(n4.args).toEqual({ window: 5 });
    expect(n4.placeholderParams).toBeUndefined();
    expect(n4.placeholderOutputs).toBeUndefined();
    expect(result.value.document.tools.smooth.hash).toBe(hashDeclaration(smooth));
  });

  it('refuses a node whose tool is missing, and an unknown node, changing nothing', () => {
    const doc = baseDoc();
    const missing = rebuildNodes(doc, [asNodeId('n3')], [convertV2]);
    expect(missing).toMatchObject({ ok: false, error: [{ path: '/nodes/2/tool', code: 'missing_tool' }] });
    const unknown = rebuildNodes(doc, [asNodeId('nope')], [convertV2, plot]);
    expect(unknown).toMatchObject({ ok: false, error: [{ code: 'unknown_node' }] });
    expect(doc).toEqual(baseDoc());
  });
});
