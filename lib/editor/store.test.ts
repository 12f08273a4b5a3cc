import { beforeAll, describe, expect, it, vi } from 'vitest';
import { analyseTool, fetchTool } from '../workflow/__fixtures__/declarations';
import { exportWorkflow, getValueProblems } from '../workflow/export';
import { asEdgeId, asNodeId, type EdgeId, type WorkflowDocument } from '../workflow/types';
import { getInitialViewport, getNodeBoxes, NARROW_MIN_ZOOM } from './document-layout';
import { isOverlapping } from './layout';
import { loadAutoLayout } from './load-auto-layout';
import { loadEditorCommands } from './load-commands';
import type { DomainConnection } from './adapters';
import type { Result } from '../result';
import { selectExport } from './select-export';
import { selectNodeView, selectProblems } from './selectors';
import { createEditorStore, getHistoryStore, type EditorStore } from './store';

const A = asNodeId('fetch');
const B = asNodeId('analyse');

function createDoc(): WorkflowDocument {
  return {
    task: 'fetch then analyse',
    nodes: [
      { id: A, tool: 'fetch_file', position: { x: 0, y: 0 }, args: { url: 'https://example.org/a.cif' } },
      { id: B, tool: 'analyse', position: { x: 400, y: 0 }, args: { path: '/tmp/x.cif', threshold: 0.9 } },
    ],
    edges: [],
    tools: {
      fetch_file: { declaration: fetchTool, hash: 'h-fetch' },
      analyse: { declaration: analyseTool, hash: 'h-analyse' },
    },
  };
}

function createTestStore(doc = createDoc(), readOnly = false): EditorStore {
  return createEditorStore({ meta: { id: 'wf_1', name: 'Test', version: 1, readOnly }, doc });
}

const pathOf = (store: EditorStore, id: string, name: string) =>
  selectNodeView(store.getState(), id)!.input_parameters.find((p) => p.name === name)!;

const toPath = { source: A, sourceOutput: 'path', target: B, targetInput: 'path' };

// The commands load on demand in the editor; here they are loaded first, so actions apply at once.
beforeAll(async () => {
  await loadEditorCommands();
});

/** `connect`, whose outcome is known at once once the commands are loaded. */
function connectNow(store: EditorStore, connection: DomainConnection): Result<EdgeId, string> {
  const outcome = store.getState().connect(connection);
  if (!outcome) throw new Error('connect waited for the commands to load');
  return outcome;
}

describe('connect', () => {
  it('blanks the input it feeds and marks its origin as edge', () => {
    const store = createTestStore();
    const result = connectNow(store, toPath);
    expect(result.ok).toBe(true);
    expect(pathOf(store, B, 'path')).toMatchObject({ value: '', origin: 'edge' });
    expect(store.getState().flowEdges).toHaveLength(1);
    expect(store.getState().saveState).toBe('dirty');
  });

  it('refuses an incompatible connection with a reason, and keeps the document', () => {
    const store = createTestStore();
    const before = store.getState().doc;
    const result = connectNow(store, { source: A, sourceOutput: 'size', target: B, targetInput: 'tags' });
    expect(result).toEqual({ ok: false, error: expect.stringContaining('int') });
    expect(store.getState().connectRefusal).toMatch(/input "tags" takes list/);
    expect(store.getState().doc).toBe(before);
    expect(getHistoryStore(store).getState().pastStates).toHaveLength(0);
  });

  it('clears the refusal once a connection succeeds', () => {
    const store = createTestStore();
    store.getState().connect({ source: A, sourceOutput: 'size', target: B, targetInput: 'tags' });
    store.getState().connect(toPath);
    expect(store.getState().connectRefusal).toBeNull();
  });

  it('dismisses the refusal at the next edit or change of selection, not before', () => {
    const store = createTestStore();
    const refuse = () =>
      store.getState().connect({ source: A, sourceOutput: 'size', target: B, targetInput: 'tags' });
    refuse();
    store.getState().setSaveState('saving');
    expect(store.getState().connectRefusal).not.toBeNull();
    store.getState().selectNodes([A]);
    expect(store.getState().connectRefusal).toBeNull();

    refuse();
    store.getState().renameNode(A, 'Fetch it');
    expect(store.getState().connectRefusal).toBeNull();

    // A second refusal while one shows replaces it.
    refuse();
    store.getState().connect({ source: A, sourceOutput: 'size', target: B, targetInput: 'path' });
    expect(store.getState().connectRefusal).toMatch(/input "path"/);
  });
});

describe('an edge saved before the typed-wiring rule was checked everywhere', () => {
  // fetch_file's "size" is an int; analyse's "path" takes a str.
  const sizeToPath = { id: asEdgeId('e1'), source: A, sourceOutput: 'size', target: B, targetInput: 'path' };
  const clash = (store: EditorStore) =>
    selectNodeView(store.getState(), B)!.problems.filter((p) => p.code === 'type_mismatch');

  it('shows as an error on the input it feeds', () => {
    const store = createTestStore({ ...createDoc(), edges: [sizeToPath] });
    expect(clash(store)).toEqual([
      expect.objectContaining({
        severity: 'error',
        param: 'path',
        message: expect.stringContaining('Output "size" is int but input "path" takes str'),
      }),
    ]);
    expect(selectProblems(store.getState()).map((p) => p.code)).toContain('type_mismatch');
  });

  it('goes when the source tool declares an output that fits, though the node itself is unchanged', () => {
    const store = createTestStore({ ...createDoc(), edges: [sizeToPath] });
    expect(clash(store)).toHaveLength(1);
    const target = store.getState().doc.nodes[1];
    const sizeAsText = {
      ...fetchTool,
      outputSchema: { type: 'object', properties: { path: { type: 'string' }, size: { type: 'string' } } },
    };
    store.getState().addToolNode(sizeAsText, { x: 0, y: 300 });
    expect(store.getState().doc.nodes[1]).toBe(target);
    expect(clash(store)).toEqual([]);
  });
});

describe('disconnect', () => {
  it('restores the arg the input had before it was connected', () => {
    const store = createTestStore();
    const connected = connectNow(store, toPath);
    if (!connected.ok) throw new Error(connected.error);
    store.getState().disconnect(connected.value);
    expect(pathOf(store, B, 'path')).toMatchObject({ value: '/tmp/x.cif', origin: 'arg' });
  });
});

describe('before the commands have loaded', () => {
  it('applies the edits asked meanwhile once they arrive, in order, with undo behind them', async () => {
    // A fresh copy of the store's modules: the commands are not loaded in it yet.
    vi.resetModules();
    const fresh = await import('./store');
    const { loadEditorCommands: loadFresh } = await import('./load-commands');
    const store = fresh.createEditorStore({
      meta: { id: 'wf_1', name: 'Test', version: 1, readOnly: false },
      doc: createDoc(),
    });
    const before = store.getState().doc;
    store.getState().commitPositions({ [A]: { x: 5, y: 6 } });
    expect(store.getState().connect(toPath)).toBeUndefined();
    store.getState().undo();
    expect(store.getState().doc).toBe(before);

    await loadFresh();
    const doc = store.getState().doc;
    expect(doc.nodes.find((n) => n.id === A)?.position).toEqual({ x: 5, y: 6 });
    expect(doc.edges).toHaveLength(0);
    expect(getHistoryStore(store).getState().pastStates).toHaveLength(1);
    store.getState().redo();
    expect(store.getState().doc.edges).toHaveLength(1);
  });
});

describe('undo and redo', () => {
  it('step back and forth through connect and disconnect, rebuilding the canvas edges', () => {
    const store = createTestStore();
    const connected = connectNow(store, toPath);
    if (!connected.ok) throw new Error(connected.error);
    store.getState().disconnect(connected.value);
    store.getState().undo();
    expect(pathOf(store, B, 'path').origin).toBe('edge');
    expect(store.getState().flowEdges).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().doc.edges).toHaveLength(0);
    expect(store.getState().flowEdges).toHaveLength(0);
    store.getState().redo();
    expect(store.getState().flowEdges).toHaveLength(1);
    store.getState().redo();
    expect(pathOf(store, B, 'path').value).toBe('/tmp/x.cif');
  });

  it('keeps selection, measurement and drag frames out of history', () => {
    const store = createTestStore();
    store.getState().onNodesChange([
      { type: 'dimensions', id: A, dimensions: { width: 300, height: 200 } },
      { type: 'select', id: A, selected: true },
      { type: 'position', id: A, position: { x: 50, y: 60 }, dragging: true },
    ]);
    expect(getHistoryStore(store).getState().pastStates).toHaveLength(0);
    expect(store.getState().selectedNodeIds).toEqual([A]);
    store.getState().commitPositions({ [A]: { x: 50, y: 60 } });
    expect(getHistoryStore(store).getState().pastStates).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().doc.nodes[0].position).toEqual({ x: 0, y: 0 });
    expect(store.getState().flowNodes[0].position).toEqual({ x: 0, y: 0 });
  });

  it('makes a burst of typing in one field a single step', () => {
    const store = createTestStore();
    for (const value of ['h', 'ht', 'htt', 'http']) store.getState().setArg(A, 'url', value);
    store.getState().setArg(A, 'retries', 5);
    expect(getHistoryStore(store).getState().pastStates).toHaveLength(2);
    store.getState().undo();
    store.getState().undo();
    expect(store.getState().doc.nodes[0].args.url).toBe('https://example.org/a.cif');
  });
});

describe('AI edits', () => {
  // runPlan loads the layout engine before applying a plan; so do these tests.
  beforeAll(async () => {
    await loadAutoLayout();
  });
  it('show streamed states without recording them, and record the applied change as one step', () => {
    const store = createTestStore();
    const original = store.getState().doc;
    store.getState().beginAiEdit();
    const streamed = { ...original, task: 'streaming' };
    store.getState().setDoc(streamed);
    expect(store.getState().doc).toBe(streamed);
    const final = { ...original, task: 'final', nodes: original.nodes.map((n) => ({ ...n, args: {} })) };
    store.getState().applyAiChange(final);
    store.getState().endAiEdit();
    expect(store.getState().doc.task).toBe('final');
    expect(getHistoryStore(store).getState().pastStates).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().doc).toBe(original);
  });

  it('lock the canvas against user edits until the edit ends', () => {
    const store = createTestStore();
    store.getState().beginAiEdit();
    store.getState().setArg(A, 'url', 'changed');
    const refused = connectNow(store, toPath);
    expect(refused.ok).toBe(false);
    expect(store.getState().doc.nodes[0].args.url).toBe('https://example.org/a.cif');
    store.getState().endAiEdit();
    store.getState().setArg(A, 'url', 'changed');
    expect(store.getState().doc.nodes[0].args.url).toBe('changed');
  });

  it('keep a cancelled edit’s streamed state as one undoable step', () => {
    const store = createTestStore();
    const original = store.getState().doc;
    store.getState().beginAiEdit();
    store.getState().setDoc({ ...original, task: 'partial' });
    store.getState().endAiEdit();
    expect(getHistoryStore(store).getState().pastStates).toHaveLength(1);
    store.getState().undo();
    expect(store.getState().doc).toBe(original);
  });

  it('lay out the applied change left to right', () => {
    const store = createTestStore();
    const doc = createDoc();
    const wired = {
      ...doc,
      nodes: doc.nodes.map((n) => ({ ...n, position: { x: 0, y: 0 } })),
      edges: [{ id: asEdgeId('e'), source: A, sourceOutput: 'path', target: B, targetInput: 'path' }],
    };
    store.getState().applyAiChange(wired);
    const [fetch, analyse] = store.getState().doc.nodes;
    expect(analyse.position.x).toBeGreaterThan(fetch.position.x);
  });
});

describe('adding and removing', () => {
  it('adds a node with the declaration snapshotted and selects it', () => {
    const store = createTestStore({ task: '', nodes: [], edges: [], tools: {} });
    const id = store.getState().addToolNode(fetchTool, { x: 10, y: 20 }, { url: 'u' });
    expect(id).toBe('step_1');
    expect(store.getState().doc.tools.fetch_file.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(store.getState().selectedNodeIds).toEqual(['step_1']);
  });

  it('removes nodes and edges together as one step', () => {
    const store = createTestStore();
    const connected = connectNow(store, toPath);
    if (!connected.ok) throw new Error(connected.error);
    store.getState().removeElements([A], [connected.value]);
    expect(store.getState().doc.nodes.map((n) => n.id)).toEqual([B]);
    expect(store.getState().flowNodes.map((n) => n.id)).toEqual([B]);
    store.getState().undo();
    expect(store.getState().doc.nodes).toHaveLength(2);
    expect(store.getState().doc.edges).toHaveLength(1);
  });
});

describe('copy, paste and duplicate', () => {
  it('paste copies with new ids and the edges among them, even after the originals are deleted', () => {
    const store = createTestStore();
    store.getState().connect(toPath);
    store.getState().selectNodes([A, B]);
    store.getState().copySelection();
    store.getState().removeNodes([A, B]);
    store.getState().paste();
    const { doc, selectedNodeIds } = store.getState();
    expect(doc.nodes.map((n) => n.id)).toEqual(['fetch_copy_1', 'analyse_copy_1']);
    expect(doc.edges).toEqual([
      expect.objectContaining({ source: 'fetch_copy_1', target: 'analyse_copy_1' }),
    ]);
    expect(Object.keys(doc.tools).sort()).toEqual(['analyse', 'fetch_file']);
    expect(selectedNodeIds).toEqual(['fetch_copy_1', 'analyse_copy_1']);
  });

  it('duplicate offsets the copies from the originals', () => {
    const store = createTestStore();
    store.getState().selectNodes([A]);
    store.getState().duplicateSelection();
    const copy = store.getState().doc.nodes[2];
    expect(copy).toMatchObject({
      id: 'fetch_copy_1',
      position: { x: 40, y: 40 },
      args: { url: 'https://example.org/a.cif' },
    });
  });
});

describe('layout', () => {
  it('leaves no two nodes overlapping, using measured heights', async () => {
    const doc = createDoc();
    const many: WorkflowDocument = {
      ...doc,
      nodes: Array.from({ length: 12 }, (_, i) => ({
        ...doc.nodes[i % 2],
        id: asNodeId(`n${i}`),
        position: { x: 0, y: 0 },
      })),
    };
    const store = createTestStore(many);
    store.getState().onNodesChange(
      many.nodes.map((n, i) => ({
        type: 'dimensions' as const,
        id: n.id,
        dimensions: { width: 300, height: 100 + i * 30 },
      })),
    );
    await store.getState().layout();
    const state = store.getState();
    const boxes = getNodeBoxes(state.doc, state.flowNodes).map((b, i) => ({
      ...b,
      ...state.doc.nodes[i].position,
    }));
    expect(boxes[5].height).toBe(250);
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) expect(isOverlapping(boxes[i], boxes[j])).toBe(false);
    }
    expect(state.fitRequest).toBe(1);
  });
});

describe('selectors', () => {
  it('check node values against the schema once value checks are enabled, not before', async () => {
    const store = createTestStore();
    store.getState().setArg(A, 'retries', 'three');
    const invalid = (s: ReturnType<EditorStore['getState']>) =>
      selectProblems(s).filter((p) => p.code === 'invalid_value');
    // The first render (on the server and in the browser alike) has no value checks yet.
    expect(store.getState().valuesChecked).toBe(false);
    expect(invalid(store.getState())).toEqual([]);
    expect(selectExport(store.getState()).nodes[0].problems ?? []).toEqual([]);
    await store.getState().enableValueChecks();
    expect(store.getState().valuesChecked).toBe(true);
    expect(invalid(store.getState()).map((p) => [p.nodeId, p.param])).toEqual([[A, 'retries']]);
    expect(selectNodeView(store.getState(), A)!.counts.invalid).toBe(1);
    expect(JSON.stringify(selectExport(store.getState()).nodes[0].problems)).toContain('retries');
    // Turning checks on is not an edit: nothing to undo, the document is the same object.
    expect(getHistoryStore(store).getState().pastStates).toHaveLength(1);
  });

  it('show the value problems found on the server until the document changes, then check values', async () => {
    const doc = createDoc();
    const opened: WorkflowDocument = {
      ...doc,
      nodes: doc.nodes.map((n) => (n.id === A ? { ...n, args: { ...n.args, retries: 'three' } } : n)),
    };
    const valueProblems = getValueProblems(opened);
    expect(Object.keys(valueProblems)).toEqual([A]);
    const store = createEditorStore({
      meta: { id: 'wf_1', name: 'Test', version: 1, readOnly: false },
      doc: opened,
      valueProblems,
    });
    const invalid = () =>
      selectProblems(store.getState())
        .filter((p) => p.code === 'invalid_value')
        .map((p) => [p.nodeId, p.param]);
    expect(store.getState().valuesChecked).toBe(false);
    expect(invalid()).toEqual([[A, 'retries']]);
    expect(JSON.stringify(selectExport(store.getState()))).toBe(
      JSON.stringify(exportWorkflow(opened, { id: 'wf_1', name: 'Test' })),
    );
    // An edit elsewhere keeps A's known problems and starts loading the compiler.
    store.getState().setArg(B, 'threshold', 'high');
    expect(invalid()).toEqual([[A, 'retries']]);
    await store.getState().enableValueChecks();
    expect(invalid()).toEqual([
      [A, 'retries'],
      [B, 'threshold'],
    ]);
  });

  it('keep the view of a node that did not change when another one is edited', () => {
    const store = createTestStore();
    const before = selectNodeView(store.getState(), B);
    store.getState().setArg(A, 'retries', 9);
    expect(selectNodeView(store.getState(), B)).toBe(before);
    expect(selectNodeView(store.getState(), A)!.input_parameters[1]).toMatchObject({
      value: 9,
      origin: 'arg',
    });
  });

  it('give a node a new view when an edge starts feeding it', () => {
    const store = createTestStore();
    const before = selectNodeView(store.getState(), B);
    store.getState().connect(toPath);
    expect(selectNodeView(store.getState(), B)).not.toBe(before);
  });

  it('flag a node built from a declaration its snapshot no longer matches', () => {
    const doc = createDoc();
    doc.nodes[0] = { ...doc.nodes[0], toolHash: 'older' };
    const view = selectNodeView(createTestStore(doc).getState(), A)!;
    expect(view.drift.status).toBe('changed');
    expect(view.problems.some((p) => p.code === 'schema_drift')).toBe(true);
  });

  it('list every problem with its node and parameter', () => {
    const store = createTestStore();
    store.getState().resetArg(A, 'url');
    store.getState().setArg(B, 'bogus', 1);
    const problems = selectProblems(store.getState());
    expect(problems).toContainEqual(
      expect.objectContaining({ nodeId: A, param: 'url', severity: 'error', code: 'missing_required' }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({ nodeId: B, param: 'bogus', severity: 'warning' }),
    );
    expect(selectProblems(store.getState())).toBe(problems);
  });

  it('memoise the export on the document and follow edits', () => {
    const store = createTestStore();
    const first = selectExport(store.getState());
    expect(selectExport(store.getState())).toBe(first);
    expect(first).toMatchObject({ format: 'toolflow.workflow', id: 'wf_1', name: 'Test' });
    store.getState().connect(toPath);
    const next = selectExport(store.getState());
    expect(next.edges).toHaveLength(1);
    expect(next.nodes[1].input_parameters[0]).toMatchObject({ name: 'path', value: '', origin: 'edge' });
  });
});

describe('read-only editors', () => {
  it('refuse edits and say why', () => {
    const store = createTestStore(createDoc(), true);
    store.getState().setArg(A, 'url', 'x');
    expect(store.getState().doc.nodes[0].args.url).toBe('https://example.org/a.cif');
    expect(connectNow(store, toPath)).toEqual({
      ok: false,
      error: expect.stringMatching(/read-only/),
    });
  });
});

describe('getInitialViewport', () => {
  it('frames every node inside the canvas, zoomed out for a wide graph', () => {
    const doc = createDoc();
    const viewport = getInitialViewport(doc, [], 1000, 600);
    const boxes = getNodeBoxes(doc, []);
    doc.nodes.forEach((node, i) => {
      const left = node.position.x * viewport.zoom + viewport.x;
      const right = (node.position.x + boxes[i].width) * viewport.zoom + viewport.x;
      const bottom = (node.position.y + boxes[i].height) * viewport.zoom + viewport.y;
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(1000);
      expect(bottom).toBeLessThanOrEqual(600);
    });
    expect(viewport.zoom).toBeLessThanOrEqual(1.1);
  });

  it('opens a phone-wide canvas on the first steps at a readable zoom, rather than fitting it all', () => {
    const doc = createDoc();
    const viewport = getInitialViewport(doc, [], 390, 600);
    expect(viewport.zoom).toBe(NARROW_MIN_ZOOM);
    const boxes = getNodeBoxes(doc, []);
    const left = doc.nodes[0].position.x * viewport.zoom + viewport.x;
    const right = (doc.nodes[1].position.x + boxes[1].width) * viewport.zoom + viewport.x;
    const top = doc.nodes[0].position.y * viewport.zoom + viewport.y;
    // The first step at the left edge, on screen; the graph goes on to the right.
    expect(left).toBe(16);
    expect(right).toBeGreaterThan(390);
    expect(top).toBeGreaterThan(0);
    // A graph that fits readably is fitted as on a wide screen.
    const one = { ...doc, nodes: doc.nodes.slice(0, 1) };
    expect(getInitialViewport(one, [], 390, 600).zoom).toBeGreaterThan(NARROW_MIN_ZOOM);
  });
});

describe('the narrow screen lock', () => {
  it('refuses edits while the screen is narrow, and takes them again once it is wide', () => {
    const store = createTestStore();
    store.getState().setNarrow(true);
    store.getState().renameNode(A, 'On a phone');
    expect(store.getState().doc.nodes[0].label).toBeUndefined();
    store.getState().setNarrow(false);
    store.getState().renameNode(A, 'At a desk');
    expect(store.getState().doc.nodes[0].label).toBe('At a desk');
  });
});
