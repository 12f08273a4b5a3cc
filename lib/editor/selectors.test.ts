import { beforeAll, describe, expect, it } from 'vitest';
import { analyseTool, fetchTool } from '../workflow/__fixtures__/declarations';
import { asNodeId, type WorkflowDocument } from '../workflow/types';
import { loadEditorCommands } from './load-commands';
import { createNodeViewSelector, selectNodeView } from './selectors';
import { createEditorStore } from './store';

const A = asNodeId('fetch');
const B = asNodeId('analyse');

function createTestStore() {
  const doc: WorkflowDocument = {
    task: 'fetch then analyse',
    nodes: [
      { id: A, tool: 'fetch_file', position: { x: 0, y: 0 }, args: { url: 'https://example.org/a.cif' } },
      { id: B, tool: 'analyse', position: { x: 400, y: 0 }, args: { path: '/tmp/x.cif' } },
    ],
    edges: [],
    tools: {
      fetch_file: { declaration: fetchTool, hash: 'h-fetch' },
      analyse: { declaration: analyseTool, hash: 'h-analyse' },
    },
  };
  return createEditorStore({ meta: { id: 'wf_1', name: 'Test', version: 1, readOnly: false }, doc });
}

beforeAll(async () => {
  await loadEditorCommands();
});

describe('createNodeViewSelector', () => {
  it('gives the same view back while only React Flow state changes (a drag frame)', () => {
    const store = createTestStore();
    const select = createNodeViewSelector(B);
    const before = select(store.getState());
    store.getState().onNodesChange([{ type: 'position', id: B, position: { x: 420, y: 5 }, dragging: true }]);
    expect(store.getState().flowNodes.find((n) => n.id === B)?.position).toEqual({ x: 420, y: 5 });
    expect(select(store.getState())).toBe(before);
  });

  it('follows the document: an edited node gets a new view, as selectNodeView gives', () => {
    const store = createTestStore();
    const select = createNodeViewSelector(B);
    const before = select(store.getState());
    store.getState().setArg(B, 'path', '/tmp/y.cif');
    const after = select(store.getState());
    expect(after).not.toBe(before);
    expect(after).toBe(selectNodeView(store.getState(), B));
    expect(after?.input_parameters.find((p) => p.name === 'path')?.value).toBe('/tmp/y.cif');
  });

  it('follows the value checks: loading them changes the view', async () => {
    const store = createTestStore();
    const select = createNodeViewSelector(B);
    const before = select(store.getState());
    await store.getState().enableValueChecks();
    expect(store.getState().valuesChecked).toBe(true);
    expect(select(store.getState())).toBe(selectNodeView(store.getState(), B));
    expect(select(store.getState())).not.toBe(before);
  });

  it('is undefined once the node is deleted', () => {
    const store = createTestStore();
    const select = createNodeViewSelector(A);
    expect(select(store.getState())).toBeDefined();
    store.getState().removeElements([A], []);
    expect(select(store.getState())).toBeUndefined();
  });
});
