import { describe, expect, it } from 'vitest';
import { hashDeclaration } from '../../tools/canonical-json';
import type { ToolDeclaration } from '../../tools/types';
import { analyseTool, fetchTool } from '../__fixtures__/declarations';
import {
  addNode,
  addNodeNotes,
  clearParamNotes,
  connect,
  disconnect,
  getUniqueNodeId,
  isTypeCompatible,
  moveNodes,
  removeNodes,
  renameNode,
  resetArg,
  setArg,
} from '.';
import { exportWorkflow } from '../export';
import { importWorkflow, validateExport } from '../import';
import { asNodeId, type WorkflowDocument } from '../types';

const empty: WorkflowDocument = { task: '', nodes: [], edges: [], tools: {} };

/** fetch_file as step_1 → analyse as step_2, unconnected. */
function twoNodes(): WorkflowDocument {
  return addNode(addNode(empty, fetchTool, { x: 0, y: 0 }, { url: 'https://x' }), analyseTool, {
    x: 300,
    y: 0,
  });
}

function connected(): WorkflowDocument {
  const result = connect(twoNodes(), {
    source: 'step_1',
    sourceOutput: 'path',
    target: 'step_2',
    targetInput: 'path',
  });
  if (!result.ok) throw new Error(result.error[0].message);
  return result.value;
}

const paramOf = (doc: WorkflowDocument, node: number, name: string) =>
  exportWorkflow(doc, { id: 'w', name: 'w' }).nodes[node].input_parameters.find((p) => p.name === name);

describe('isTypeCompatible', () => {
  it.each([
    ['str', 'str', true],
    ['int', 'float', true],
    ['float', 'int', false],
    ['any', 'dict', true],
    ['list', 'any', true],
    ['str', 'int', false],
    ['bool', 'str', false],
  ] as const)('%s → %s is %s', (out, input, expected) => {
    expect(isTypeCompatible(out, input)).toBe(expected);
  });
});

describe('addNode', () => {
  it('appends a node with the next free id and snapshots the declaration', () => {
    const doc = twoNodes();
    expect(doc.nodes.map((n) => [n.id, n.tool])).toEqual([
      ['step_1', 'fetch_file'],
      ['step_2', 'analyse'],
    ]);
    expect(doc.nodes[0]).toMatchObject({ args: { url: 'https://x' }, toolHash: hashDeclaration(fetchTool) });
    expect(doc.tools.analyse.hash).toBe(hashDeclaration(analyseTool));
    expect(empty.nodes).toEqual([]);
  });
  it('uses the id it is given', () => {
    expect(addNode(empty, fetchTool, { x: 0, y: 0 }, {}, asNodeId('dl')).nodes[0].id).toBe('dl');
  });
  it('replaces a changed declaration of the same name and keeps old nodes on their hash', () => {
    const changed: ToolDeclaration = { ...fetchTool, description: 'v2' };
    const doc = addNode(twoNodes(), changed, { x: 0, y: 0 });
    expect(doc.tools.fetch_file.declaration).toBe(changed);
    expect(doc.nodes[0].toolHash).toBe(hashDeclaration(fetchTool));
    expect(doc.nodes[2].toolHash).toBe(hashDeclaration(changed));
  });
});

describe('addNode of a tool whose declaration changed', () => {
  const meta = { id: 'w', name: 'w' };
  it('removes an edge into an input the new declaration lacks, says so on the node, and exports a file import accepts', () => {
    const withoutPath: ToolDeclaration = {
      ...analyseTool,
      inputSchema: { type: 'object', properties: { threshold: { type: 'number' } } },
    };
    const doc = addNode(connected(), withoutPath, { x: 0, y: 300 });
    expect(doc.edges).toEqual([]);
    expect(doc.nodes[1].notes).toEqual([
      {
        severity: 'warning',
        code: 'edge_removed',
        message: expect.stringContaining(
          '"step_2" has no input "path" in the current declaration of tool "analyse"',
        ),
        param: 'path',
      },
    ]);
    const file = JSON.parse(JSON.stringify(exportWorkflow(doc, meta)));
    expect(validateExport(file)).toEqual([]);
    const imported = importWorkflow(file);
    if (!imported.ok) throw new Error('import failed');
    expect(JSON.stringify(exportWorkflow(imported.value.document, meta))).toBe(JSON.stringify(file));
  });
  it('removes an edge from an output the new declaration lacks', () => {
    const noSize: ToolDeclaration = {
      ...fetchTool,
      outputSchema: { type: 'object', properties: { size: {} } },
    };
    const doc = addNode(connected(), noSize, { x: 0, y: 300 });
    expect(doc.edges).toEqual([]);
    expect(doc.nodes[1].notes?.[0].message).toContain('"step_1" has no output "path"');
  });
  it('removes an edge whose types the new declaration makes clash, so the file still imports', () => {
    const pathAsList: ToolDeclaration = {
      ...fetchTool,
      outputSchema: { type: 'object', properties: { path: { type: 'array' }, size: { type: 'integer' } } },
    };
    const doc = addNode(connected(), pathAsList, { x: 0, y: 300 });
    expect(doc.edges).toEqual([]);
    expect(doc.nodes[1].notes?.map((n) => [n.code, n.param])).toEqual([['edge_removed', 'path']]);
    expect(doc.nodes[1].notes?.[0].message).toContain('Output "path" is list but input "path" takes str');
    expect(validateExport(JSON.parse(JSON.stringify(exportWorkflow(doc, meta))))).toEqual([]);
  });
  it('keeps the edges the new declaration still fits, and the document when nothing changed', () => {
    const doc = connected();
    const described: ToolDeclaration = { ...analyseTool, description: 'v2' };
    expect(addNode(doc, described, { x: 0, y: 0 }).edges).toEqual(doc.edges);
    expect(addNode(doc, analyseTool, { x: 0, y: 0 }).edges).toBe(doc.edges);
  });
  it('removes an edge into an arg port of a node whose tool was undeclared until now', () => {
    const ghost = { id: asNodeId('g'), tool: 'ghost', position: { x: 0, y: 0 }, args: { x: 'a', y: 'b' } };
    const wired = connect(
      { ...twoNodes(), nodes: [...twoNodes().nodes, ghost] },
      {
        source: 'step_1',
        sourceOutput: 'path',
        target: 'g',
        targetInput: 'x',
      },
    );
    if (!wired.ok) throw new Error(wired.error[0].message);
    const declared: ToolDeclaration = {
      name: 'ghost',
      description: '',
      inputSchema: { type: 'object', properties: { y: {} } },
    };
    const doc = addNode(wired.value, declared, { x: 0, y: 0 });
    expect(doc.edges).toEqual([]);
    expect(doc.nodes[2].notes?.map((n) => n.code)).toEqual(['edge_removed']);
    expect(validateExport(JSON.parse(JSON.stringify(exportWorkflow(doc, meta))))).toEqual([]);
  });
});

describe('getUniqueNodeId', () => {
  it('skips ids that are taken', () => {
    expect(getUniqueNodeId(twoNodes())).toBe('step_3');
    expect(getUniqueNodeId(twoNodes(), 'step', new Set(['step_3']))).toBe('step_4');
  });
});

describe('removeNodes', () => {
  it('removes the nodes, their edges and unused tool snapshots', () => {
    const doc = removeNodes(connected(), ['step_1']);
    expect(doc.nodes.map((n) => n.id)).toEqual(['step_2']);
    expect(doc.edges).toEqual([]);
    expect(Object.keys(doc.tools)).toEqual(['analyse']);
  });
  it('keeps the snapshot of a tool named "__proto__" that a remaining node uses', () => {
    const proto = { ...fetchTool, name: '__proto__' };
    const doc = removeNodes(addNode(twoNodes(), proto, { x: 0, y: 0 }, {}, asNodeId('p')), ['step_1']);
    expect(Object.keys(doc.tools)).toEqual(['analyse', '__proto__']);
    // A record without a prototype: the snapshot is a member, not the prototype.
    expect(Object.getPrototypeOf(doc.tools)).toBeNull();
    expect(exportWorkflow(doc, { id: 'w', name: 'w' }).tools.map((t) => t.name)).toEqual([
      '__proto__',
      'analyse',
    ]);
  });
  it('returns the same document when nothing matches', () => {
    const doc = twoNodes();
    expect(removeNodes(doc, ['nope'])).toBe(doc);
  });
});

describe('connect', () => {
  it('refuses an input named "" of an undeclared tool (a port needs a name)', () => {
    const doc: WorkflowDocument = {
      ...twoNodes(),
      nodes: [
        ...twoNodes().nodes,
        { id: asNodeId('g'), tool: 'ghost', position: { x: 0, y: 0 }, args: { '': 1, q: 'x' } },
      ],
    };
    const into = (targetInput: string) =>
      connect(doc, { source: 'step_1', sourceOutput: 'path', target: 'g', targetInput });
    expect(into('')).toMatchObject({ ok: false, error: [{ code: 'unknown_port' }] });
    expect(into('q').ok).toBe(true);
  });
  describe('when the connection is valid', () => {
    it('adds the edge and the input becomes edge-fed', () => {
      const doc = connected();
      expect(doc.edges).toEqual([
        {
          id: 'step_1.path->step_2.path',
          source: 'step_1',
          sourceOutput: 'path',
          target: 'step_2',
          targetInput: 'path',
        },
      ]);
      expect(paramOf(doc, 1, 'path')).toMatchObject({ value: '', origin: 'edge' });
    });
    it('accepts an int output into a float input', () => {
      const result = connect(twoNodes(), {
        source: 'step_1',
        sourceOutput: 'size',
        target: 'step_2',
        targetInput: 'threshold',
      });
      expect(result.ok).toBe(true);
    });
  });

  describe('when the connection is refused', () => {
    const refusal = (doc: WorkflowDocument, c: Parameters<typeof connect>[1]) => {
      const result = connect(doc, c);
      if (result.ok) throw new Error('expected a refusal');
      return result.error[0];
    };
    it('refuses incompatible types and says why', () => {
      const issue = refusal(twoNodes(), {
        source: 'step_1',
        sourceOutput: 'path',
        target: 'step_2',
        targetInput: 'threshold',
      });
      expect(issue).toMatchObject({ code: 'type_mismatch', path: '/targetInput' });
      expect(issue.message).toBe(
        'Output "path" is str but input "threshold" takes float: pick an input of type str (or any).',
      );
    });
    it('refuses a second edge into the same input', () => {
      const issue = refusal(connected(), {
        source: 'step_1',
        sourceOutput: 'path',
        target: 'step_2',
        targetInput: 'path',
      });
      expect(issue.code).toBe('input_taken');
    });
    it('refuses a self loop', () => {
      expect(
        refusal(twoNodes(), {
          source: 'step_2',
          sourceOutput: 'result',
          target: 'step_2',
          targetInput: 'tags',
        }).code,
      ).toBe('self_loop');
    });
    it('refuses a cycle', () => {
      const doc = connected();
      expect(
        refusal(doc, { source: 'step_2', sourceOutput: 'result', target: 'step_1', targetInput: 'url' }).code,
      ).toBe('cycle');
    });
    it('refuses unknown nodes and ports', () => {
      expect(
        refusal(twoNodes(), { source: 'x', sourceOutput: 'path', target: 'step_2', targetInput: 'path' })
          .path,
      ).toBe('/source');
      expect(
        refusal(twoNodes(), { source: 'step_1', sourceOutput: 'nope', target: 'step_2', targetInput: 'path' })
          .path,
      ).toBe('/sourceOutput');
      expect(
        refusal(twoNodes(), {
          source: 'step_1',
          sourceOutput: 'path',
          target: 'step_2',
          targetInput: 'executor',
        }).code,
      ).toBe('unknown_port');
    });
  });
});

describe('disconnect', () => {
  it('removes the edge so the input falls back to its arg', () => {
    const doc = setArg(connected(), 'step_2', 'path', '/tmp/a.cif');
    expect(paramOf(doc, 1, 'path')).toMatchObject({ value: '', origin: 'edge' });
    const after = disconnect(doc, 'step_1.path->step_2.path');
    expect(after.edges).toEqual([]);
    expect(paramOf(after, 1, 'path')).toMatchObject({ value: '/tmp/a.cif', origin: 'arg' });
  });
  it('returns the same document for an unknown edge', () => {
    const doc = connected();
    expect(disconnect(doc, 'nope')).toBe(doc);
  });
});

describe('setArg and resetArg', () => {
  it('sets a value, even null, and reset falls back to the default', () => {
    const doc = setArg(twoNodes(), 'step_2', 'threshold', null);
    expect(paramOf(doc, 1, 'threshold')).toMatchObject({ value: null, origin: 'arg' });
    expect(paramOf(resetArg(doc, 'step_2', 'threshold'), 1, 'threshold')).toMatchObject({
      value: 0.5,
      origin: 'default',
    });
  });
  it('falls back to the zero value when there is no default', () => {
    const doc = resetArg(setArg(twoNodes(), 'step_2', 'tags', ['a']), 'step_2', 'tags');
    expect(paramOf(doc, 1, 'tags')).toMatchObject({ value: [], origin: 'zero' });
  });
  it('returns the same document when nothing changes', () => {
    const doc = twoNodes();
    expect(setArg(doc, 'step_1', 'url', 'https://x')).toBe(doc);
    expect(resetArg(doc, 'step_2', 'tags')).toBe(doc);
    expect(setArg(doc, 'nope', 'a', 1)).toBe(doc);
  });
  it('never changes the previous document', () => {
    const doc = twoNodes();
    setArg(doc, 'step_1', 'url', 'https://changed');
    expect(doc.nodes[0].args.url).toBe('https://x');
  });
});

describe('notes about a parameter', () => {
  const truncated = {
    severity: 'warning' as const,
    code: 'possibly_truncated',
    message: 'The reply was cut off inside argument "path".',
    param: 'path',
  };
  const badReference = {
    severity: 'error' as const,
    code: 'bad_reference',
    message: 'Argument "threshold" refers to {{step_9.x}}, which cannot be wired.',
    param: 'threshold',
  };
  const repaired = { severity: 'warning' as const, code: 'repaired_arguments', message: 'Repaired.' };
  const noted = () => addNodeNotes(twoNodes(), 'step_2', [repaired, truncated, badReference]);
  const codes = (doc: WorkflowDocument) => doc.nodes[1].notes?.map((n) => n.code);

  it('go when the parameter is set, and only those about it', () => {
    expect(codes(setArg(noted(), 'step_2', 'path', 'b.cif'))).toEqual([
      'repaired_arguments',
      'bad_reference',
    ]);
    expect(codes(setArg(noted(), 'step_2', 'threshold', 0.2))).toEqual([
      'repaired_arguments',
      'possibly_truncated',
    ]);
  });

  it('go when the value set is the one it had (the value is confirmed)', () => {
    const doc = setArg(noted(), 'step_2', 'path', 'a.cif');
    const again = addNodeNotes(doc, 'step_2', [truncated]);
    expect(codes(setArg(again, 'step_2', 'path', 'a.cif'))).toEqual(['repaired_arguments', 'bad_reference']);
  });

  it('go when the parameter is reset, even when it had no arg', () => {
    expect(codes(resetArg(noted(), 'step_2', 'threshold'))).toEqual([
      'repaired_arguments',
      'possibly_truncated',
    ]);
  });

  it('go when an edge feeds the input', () => {
    const result = connect(noted(), {
      source: 'step_1',
      sourceOutput: 'path',
      target: 'step_2',
      targetInput: 'path',
    });
    expect(result.ok && codes(result.value)).toEqual(['repaired_arguments', 'bad_reference']);
  });

  it('leave no empty notes member behind, so the node serializes as one never noted', () => {
    const doc = addNodeNotes(twoNodes(), 'step_2', [truncated]);
    expect(JSON.stringify(setArg(doc, 'step_2', 'path', 'x'))).toBe(
      JSON.stringify(setArg(twoNodes(), 'step_2', 'path', 'x')),
    );
  });

  it('are found under a parameter named like an Object.prototype member', () => {
    const doc = addNodeNotes(twoNodes(), 'step_2', [{ ...truncated, param: '__proto__' }, repaired]);
    expect(codes(setArg(doc, 'step_2', '__proto__', 1))).toEqual(['repaired_arguments']);
    expect(codes(clearParamNotes(doc, 'step_2', ['constructor']))).toEqual([
      'possibly_truncated',
      'repaired_arguments',
    ]);
  });

  it('stay when another parameter changes, and the document is the same when there is nothing to drop', () => {
    const doc = noted();
    expect(clearParamNotes(doc, 'step_2', ['mode'])).toBe(doc);
    expect(resetArg(doc, 'step_2', 'mode')).toBe(doc);
    expect(codes(disconnect(doc, 'none'))).toEqual([
      'repaired_arguments',
      'possibly_truncated',
      'bad_reference',
    ]);
  });
});

describe('moveNodes', () => {
  it('moves the nodes given, from a record or a map', () => {
    const doc = moveNodes(twoNodes(), { step_2: { x: 5, y: 6 } });
    expect(doc.nodes.map((n) => n.position)).toEqual([
      { x: 0, y: 0 },
      { x: 5, y: 6 },
    ]);
    expect(moveNodes(doc, new Map([['step_1', { x: 1, y: 1 }]])).nodes[0].position).toEqual({ x: 1, y: 1 });
  });
  it('returns the same document when no position changes', () => {
    const doc = twoNodes();
    expect(moveNodes(doc, { step_1: { x: 0, y: 0 }, ghost: { x: 1, y: 1 } })).toBe(doc);
  });
});

describe('renameNode', () => {
  it('sets a trimmed label and a blank one removes it', () => {
    const named = renameNode(twoNodes(), 'step_1', '  Download  ');
    expect(named.nodes[0].label).toBe('Download');
    expect('label' in renameNode(named, 'step_1', ' ').nodes[0]).toBe(false);
  });
});
