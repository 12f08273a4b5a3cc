/**
 * The actions of an editor store (store.ts), in three groups over one shared core: the document
 * edits, the model's edits, and history and view state. The core holds what they share: the
 * queue of actions waiting for the commands to load, `commit` (the document and the React Flow
 * objects derived from it, in or out of history) and the typing that coalesces into one undo step.
 */
import type { StoreApi } from 'zustand';
import { applyEdgeChanges, applyNodeChanges } from '@xyflow/react';
import { err, ok, type Issue, type Result } from '../result';
import type { NodeClipboard } from '../workflow/commands';
import { createEdgeId } from '../workflow/graph';
import type { EdgeId, NodeId, WorkflowDocument, XY } from '../workflow/types';
import { toFlowEdges, toFlowNodes, type ToolFlowNode } from './adapters';
import { loadValueChecks } from '#value-checks';
import { getLoadedAutoLayout, loadAutoLayout } from './load-auto-layout';
import { getLoadedEditorCommands, loadEditorCommands, type EditorCommands } from './load-commands';
import type { EditorState, HistoryStore } from './store';

/** How far each paste lands from the previous one. */
const PASTE_OFFSET = 40;
/** Consecutive edits of one field within this window are one undo step (typing a value). */
const TYPING_COALESCE_MS = 1000;
export const NO_IDS: NodeId[] = [];

const isLocked = (s: EditorState) => s.meta.readOnly || s.aiEditing || s.narrow;
const LOCKED_REASON = 'The canvas is read-only while the model edits it; wait for it to finish or cancel it.';
const READ_ONLY_REASON = 'This workflow is read-only here; fork it to edit.';

export const getIssueText = (issues: readonly Issue[]) => issues.map((issue) => issue.message).join(' ');

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function getSelectedIds(flowNodes: readonly ToolFlowNode[], previous: NodeId[]): NodeId[] {
  const ids = flowNodes.filter((n) => n.selected).map((n) => n.id as NodeId);
  if (ids.length === 0) return NO_IDS;
  return sameIds(ids, previous) ? previous : ids;
}

type DocumentActions = Pick<
  EditorState,
  | 'setArg'
  | 'resetArg'
  | 'addToolNode'
  | 'removeNodes'
  | 'removeElements'
  | 'deleteSelection'
  | 'connect'
  | 'disconnect'
  | 'renameNode'
  | 'commitPositions'
  | 'setDoc'
  | 'layout'
  | 'copySelection'
  | 'paste'
  | 'duplicateSelection'
>;
type AiActions = Pick<EditorState, 'beginAiEdit' | 'applyAiChange' | 'endAiEdit'>;

/** What every action of one editor store shares. */
export interface EditorCore {
  get(): EditorState;
  set: StoreApi<EditorState>['setState'];
  /** The undo history (zundo's temporal store). */
  getHistory(): HistoryStore;
  /**
   * Runs `action` with the commands: at once when they are loaded and no earlier action waits
   * for them, else after those, once they arrive. Returns whether it ran at once.
   */
  withCommands(action: (commands: EditorCommands) => void): boolean;
  /** Runs `action` at once, or after the actions waiting for the commands, if any. */
  afterWaiting(action: () => void): void;
  /** Sets the document and the React Flow objects derived from it. */
  commit(doc: WorkflowDocument, undoable: boolean, selected?: ReadonlySet<string>): void;
  /** A user edit: refused while the canvas is locked; recorded in history. */
  edit(next: (doc: WorkflowDocument, commands: EditorCommands) => WorkflowDocument): void;
  /** The field typed into last and when; any other edit clears it. */
  lastTyping: { key: string; at: number } | null;
}

/** The queue of actions waiting for the commands to load, run in the order they were asked for. */
function createCommandQueue(): Pick<EditorCore, 'withCommands' | 'afterWaiting'> {
  const waiting: ((commands: EditorCommands) => void)[] = [];
  let fetching = false;
  const runWaiting = () => {
    fetching = true;
    loadEditorCommands().then(
      (commands) => {
        fetching = false;
        for (const action of waiting.splice(0)) action(commands);
      },
      () => {
        // Not loaded (offline): the actions keep waiting and the next one tries again.
        fetching = false;
      },
    );
  };
  return {
    withCommands: (action) => {
      const commands = getLoadedEditorCommands();
      if (commands && waiting.length === 0) {
        action(commands);
        return true;
      }
      waiting.push(action);
      if (!fetching) runWaiting();
      return false;
    },
    afterWaiting: (action) => {
      if (waiting.length === 0) action();
      else waiting.push(action);
    },
  };
}

export function createEditorCore(
  set: EditorCore['set'],
  get: EditorCore['get'],
  getHistory: EditorCore['getHistory'],
): EditorCore {
  const withoutHistory = (fn: () => void) => {
    const history = getHistory().getState();
    const tracking = history.isTracking;
    if (tracking) history.pause();
    try {
      fn();
    } finally {
      if (tracking) getHistory().getState().resume();
    }
  };

  const core: EditorCore = {
    get,
    set,
    getHistory,
    ...createCommandQueue(),
    lastTyping: null,
    commit: (doc, undoable, selected) => {
      const s = get();
      if (doc === s.doc && !selected) return;
      const flowNodes = toFlowNodes(doc, s.flowNodes, selected);
      const apply = () =>
        set({
          doc,
          flowNodes,
          flowEdges: toFlowEdges(doc.edges, s.flowEdges),
          selectedNodeIds: getSelectedIds(flowNodes, s.selectedNodeIds),
          saveState: doc === s.doc || s.meta.readOnly ? s.saveState : 'dirty',
        });
      if (undoable) apply();
      else withoutHistory(apply);
      // The server's value checks cover the document as it was opened; a change needs Ajv.
      if (doc !== s.doc && !get().valuesChecked) {
        get()
          .enableValueChecks()
          .catch(() => {
            // The chunk did not load (offline): changed values stay unchecked here; the
            // server checks them on save and export.
          });
      }
    },
    edit: (next) =>
      void core.withCommands((commands) => {
        if (isLocked(get())) return;
        core.lastTyping = null;
        core.commit(next(get().doc, commands), true);
      }),
  };
  return core;
}

/** The document edits: each a pure command applied through the core, undoable unless said. */
export function createDocumentActions(core: EditorCore): DocumentActions {
  const { get, set, withCommands, commit, edit } = core;
  let pasteCount = 0;

  const pasteClipboard = (commands: EditorCommands, clipboard: NodeClipboard, offset: number) => {
    if (isLocked(get())) return;
    const { doc, ids } = commands.pasteNodes(get().doc, clipboard, { x: offset, y: offset });
    core.lastTyping = null;
    commit(doc, true, new Set(ids));
  };

  return {
    setArg: (nodeId, name, value) => {
      // Typed now, so a keystroke's time counts, not the time the commands arrived.
      const at = Date.now();
      withCommands((commands) => {
        if (isLocked(get())) return;
        const key = `${nodeId}\u0000${name}`;
        const last = core.lastTyping;
        const coalesce = last?.key === key && at - last.at < TYPING_COALESCE_MS;
        core.lastTyping = { key, at };
        commit(commands.setArg(get().doc, nodeId, name, value), !coalesce);
      });
    },
    resetArg: (nodeId, name) => edit((doc, commands) => commands.resetArg(doc, nodeId, name)),

    addToolNode: (decl, position, args) => {
      let nodeId: NodeId | undefined;
      withCommands((commands) => {
        if (isLocked(get())) return;
        const doc = commands.addNode(get().doc, decl, position, args);
        nodeId = doc.nodes[doc.nodes.length - 1].id;
        core.lastTyping = null;
        commit(doc, true, new Set([nodeId]));
      });
      return nodeId;
    },
    removeNodes: (ids) => edit((doc, commands) => commands.removeNodes(doc, ids)),
    removeElements: (nodeIds, edgeIds) =>
      edit((doc, commands) => commands.removeNodes(edgeIds.reduce(commands.disconnect, doc), nodeIds)),

    deleteSelection: () => {
      const s = get();
      const edgeIds = s.flowEdges.filter((e) => e.selected).map((e) => e.id as EdgeId);
      s.removeElements(s.selectedNodeIds, edgeIds);
    },

    connect: (connection) => {
      let outcome: Result<EdgeId, string> | undefined;
      withCommands((commands) => {
        const s = get();
        if (isLocked(s)) {
          outcome = err(s.meta.readOnly ? READ_ONLY_REASON : LOCKED_REASON);
          return;
        }
        const result = commands.connect(s.doc, connection);
        if (!result.ok) {
          const reason = getIssueText(result.error);
          set({ connectRefusal: reason });
          outcome = err(reason);
          return;
        }
        core.lastTyping = null;
        commit(result.value, true);
        set({ connectRefusal: null });
        const { source, sourceOutput, target, targetInput } = connection;
        outcome = ok(createEdgeId(source, sourceOutput, target, targetInput));
      });
      return outcome;
    },
    disconnect: (edgeId) => edit((doc, commands) => commands.disconnect(doc, edgeId)),
    renameNode: (id, label) => edit((doc, commands) => commands.renameNode(doc, id, label)),
    commitPositions: (positions) => edit((doc, commands) => commands.moveNodes(doc, positions)),

    setDoc: (doc) => commit(doc, !get().aiEditing),

    layout: async () => {
      if (isLocked(get())) return;
      const { getLayoutDocument } = await loadAutoLayout();
      // Locked meanwhile (a plan started): the plan lays its result out itself.
      if (isLocked(get())) return;
      edit((doc) => getLayoutDocument(doc, get().flowNodes));
      set((s) => ({ fitRequest: s.fitRequest + 1 }));
    },

    copySelection: () =>
      void withCommands((commands) => {
        const s = get();
        if (s.selectedNodeIds.length === 0) return;
        pasteCount = 0;
        set({ clipboard: commands.copyNodes(s.doc, s.selectedNodeIds) });
      }),
    paste: () =>
      void withCommands((commands) => {
        const clipboard = get().clipboard;
        if (!clipboard) return;
        pasteCount += 1;
        pasteClipboard(commands, clipboard, PASTE_OFFSET * pasteCount);
      }),
    duplicateSelection: () =>
      void withCommands((commands) => {
        const s = get();
        if (s.selectedNodeIds.length === 0) return;
        pasteClipboard(commands, commands.copyNodes(s.doc, s.selectedNodeIds), PASTE_OFFSET);
      }),
  };
}

/** The model's edits: streamed states shown outside history, the whole change one undo step. */
export function createAiActions(core: EditorCore): AiActions {
  const { get, set, getHistory, commit } = core;
  /** The document as it was when the model started editing, until its change is recorded. */
  let aiBase: WorkflowDocument | null = null;

  const recordAiChange = () => {
    if (!aiBase) return;
    const base = aiBase;
    aiBase = null;
    if (base === get().doc) return;
    const history = getHistory().getState();
    getHistory().setState({ pastStates: [...history.pastStates, { doc: base }], futureStates: [] });
  };

  return {
    beginAiEdit: () => {
      if (get().meta.readOnly || get().aiEditing) return;
      aiBase = get().doc;
      set({ aiEditing: true, connectRefusal: null });
    },
    applyAiChange: (next) => {
      // runPlan loads the layout engine before it applies; should its chunk have failed to
      // load, the change lands where the planner placed it, still one undo step.
      const autoLayout = getLoadedAutoLayout();
      const laidOut = autoLayout ? autoLayout.getLayoutDocument(next, get().flowNodes) : next;
      if (!get().aiEditing) {
        commit(laidOut, true);
      } else {
        const base = aiBase ?? get().doc;
        commit(laidOut, false);
        aiBase = base;
        recordAiChange();
      }
      set((s) => ({ fitRequest: s.fitRequest + 1 }));
    },
    endAiEdit: () => {
      if (!get().aiEditing) return;
      recordAiChange();
      set({ aiEditing: false });
    },
  };
}

/** Undo and redo, selection, React Flow's changes and save state: never undoable themselves. */
export function createViewActions(
  core: EditorCore,
): Pick<
  EditorState,
  | 'undo'
  | 'redo'
  | 'selectNodes'
  | 'focusNode'
  | 'onNodesChange'
  | 'onEdgesChange'
  | 'setConnectRefusal'
  | 'setNarrow'
  | 'setSaveState'
  | 'enableValueChecks'
  | 'markSaved'
> {
  const { get, set, getHistory, commit, edit } = core;

  /** Undo or redo, once every edit asked before it has applied. */
  const stepHistory = (direction: 'undo' | 'redo') =>
    core.afterWaiting(() => {
      if (isLocked(get())) return;
      core.lastTyping = null;
      getHistory().getState()[direction]();
      // The document changed under the flow objects: rebuild them.
      commit(get().doc, false, new Set(get().selectedNodeIds));
    });

  return {
    // Behind any edit still waiting for the commands, so Undo undoes the edit asked before it.
    undo: () => stepHistory('undo'),
    redo: () => stepHistory('redo'),

    selectNodes: (ids) => {
      const flowNodes = toFlowNodes(get().doc, get().flowNodes, new Set(ids));
      set((s) => ({
        flowNodes,
        flowEdges: s.flowEdges.some((e) => e.selected)
          ? s.flowEdges.map((e) => (e.selected ? { ...e, selected: false } : e))
          : s.flowEdges,
        selectedNodeIds: getSelectedIds(flowNodes, s.selectedNodeIds),
      }));
    },
    focusNode: (id) => {
      get().selectNodes([id]);
      set((s) => ({ focusRequest: { nodeId: id, seq: (s.focusRequest?.seq ?? 0) + 1 } }));
    },

    onNodesChange: (changes) => {
      // Removal is a document edit (removeElements, one undo step for nodes and edges).
      const kept = changes.filter((c) => c.type !== 'remove');
      if (kept.length === 0) return;
      const flowNodes = applyNodeChanges(kept, get().flowNodes);
      const selectionChanged = kept.some((c) => c.type === 'select');
      set((s) => ({
        flowNodes,
        selectedNodeIds: selectionChanged ? getSelectedIds(flowNodes, s.selectedNodeIds) : s.selectedNodeIds,
      }));
      // A settled position (drag end, arrow keys) goes into the document: one undo step.
      let settled: Record<string, XY> | null = null;
      for (const c of kept) {
        if (c.type === 'position' && c.dragging === false && c.position) {
          (settled ??= {})[c.id] = c.position;
        }
      }
      if (settled) edit((doc, commands) => commands.moveNodes(doc, settled));
    },
    onEdgesChange: (changes) => {
      const kept = changes.filter((c) => c.type === 'select');
      if (kept.length > 0) set({ flowEdges: applyEdgeChanges(kept, get().flowEdges) });
    },

    setConnectRefusal: (connectRefusal) => set({ connectRefusal }),
    setNarrow: (narrow) => set({ narrow }),
    setSaveState: (saveState, saveError = null) => set({ saveState, saveError }),
    enableValueChecks: async () => {
      if (get().valuesChecked) return;
      await loadValueChecks();
      set({ valuesChecked: true });
    },
    markSaved: (version) =>
      set((s) => ({
        meta: { ...s.meta, version },
        saveState: s.saveState === 'saving' ? 'saved' : s.saveState,
      })),
  };
}
