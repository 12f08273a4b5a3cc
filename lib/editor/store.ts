/**
 * One store per editor (zustand's Next.js guide: no global stores), made by
 * `createEditorStore(initial)` and provided by context. The document is the domain model and
 * the only thing undo history holds; React Flow's node and edge objects live beside it for what
 * React Flow itself tracks (selection, measurement, in-flight drag positions), which never
 * enters history (otherwise Undo undoes a measurement, docs/design.md §10.7).
 *
 * Every document action is a one-liner over a pure command from lib/workflow/commands and says
 * whether it is undoable (excalidraw's `captureUpdate`). The commands load on demand
 * (load-commands.ts): an action asked for before they arrive is applied once they do, in the
 * order asked, and undo and redo wait behind it.
 */
import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand';
import { temporal, type TemporalState } from 'zundo';
import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from '@xyflow/react';
import { err, ok, type Issue, type Result } from '../result';
import type { ToolDeclaration } from '../tools/types';
import type { NodeClipboard } from '../workflow/commands';
import { createEdgeId } from '../workflow/graph';
import type { EdgeId, NodeId, NodeIssue, WorkflowDocument, XY } from '../workflow/types';
import {
  toFlowEdges,
  toFlowNodes,
  type DomainConnection,
  type ToolFlowEdge,
  type ToolFlowNode,
} from './adapters';
import { loadValueChecks } from '#value-checks';
import { getLoadedAutoLayout, loadAutoLayout } from './load-auto-layout';
import { getLoadedEditorCommands, loadEditorCommands, type EditorCommands } from './load-commands';

/** What undo history holds: the document only. */
export type HistoryStore = StoreApi<TemporalState<{ doc: WorkflowDocument }>>;

export type SaveState = 'saved' | 'dirty' | 'saving' | 'conflict' | 'offline' | 'error';

export interface EditorMeta {
  id: string;
  name: string;
  version: number;
  readOnly: boolean;
}

export interface EditorState {
  meta: EditorMeta;
  doc: WorkflowDocument;
  /** React Flow's view of the nodes: positions while dragging, selection, measured sizes. */
  flowNodes: ToolFlowNode[];
  /** React Flow's view of the edges (selection). */
  flowEdges: ToolFlowEdge[];
  /** Selected node ids in document order; the same array until the selection changes. */
  selectedNodeIds: NodeId[];
  /** True while the model edits the document: the canvas is read-only meanwhile. */
  aiEditing: boolean;
  /**
   * True while the editor is on a screen too narrow for its panels (a phone): the canvas is
   * shown to look at, and edits wait for a wider screen. Saving, sharing and running go on.
   */
  narrow: boolean;
  /** Why the last connection attempt was refused; cleared by the next successful one. */
  connectRefusal: string | null;
  /** The last node asked to be brought into view (the canvas centres on it); `seq` makes repeats count. */
  focusRequest: { nodeId: NodeId; seq: number } | null;
  /** Bumped when the canvas should fit the whole graph into view (after a layout). */
  fitRequest: number;
  clipboard: NodeClipboard | null;
  /**
   * Whether node values are checked against their tools' input schemas. False until
   * `enableValueChecks` has loaded the value checks (with Ajv, on demand in the browser),
   * on the server's render too, so the first client render matches it. Meanwhile
   * `knownValueProblems` (from the server) stand in for the check of unchanged nodes.
   */
  valuesChecked: boolean;
  knownValueProblems: KnownValueProblems | null;
  saveState: SaveState;
  saveError: string | null;

  // ---- document edits (undoable unless said otherwise) ----
  setArg(nodeId: NodeId, name: string, value: unknown): void;
  resetArg(nodeId: NodeId, name: string): void;
  /**
   * Adds a node for `decl` (snapshotting it into `doc.tools`) and selects it. Returns its id, or
   * undefined when refused or when the commands are still loading (it is added once they arrive).
   */
  addToolNode(decl: ToolDeclaration, position: XY, args?: Record<string, unknown>): NodeId | undefined;
  removeNodes(ids: readonly NodeId[]): void;
  /** Removes nodes and edges as one step (Delete / Backspace). */
  removeElements(nodeIds: readonly NodeId[], edgeIds: readonly EdgeId[]): void;
  /** Removes the selected nodes and edges as one step. */
  deleteSelection(): void;
  /**
   * Wires an output to an input; refused (with the reason, also kept in `connectRefusal`) when it
   * cannot be. Undefined while the commands are still loading: the outcome lands once they arrive.
   */
  connect(connection: DomainConnection): Result<EdgeId, string> | undefined;
  disconnect(edgeId: EdgeId): void;
  renameNode(id: NodeId, label: string): void;
  /** Commits dragged positions into the document: one undo step per drag. */
  commitPositions(positions: Record<string, XY>): void;
  /** Replaces the document. Undoable, except while the model edits (streamed states). */
  setDoc(doc: WorkflowDocument): void;
  /**
   * Auto-layout (dagre, left to right), one undo step, then fit the view. Resolves once done:
   * the layout engine loads on first use.
   */
  layout(): Promise<void>;
  copySelection(): void;
  /** Pastes the clipboard with new ids, offset from the originals, and selects the copies. */
  paste(): void;
  /** Duplicates the selected nodes (and the edges among them) with new ids. */
  duplicateSelection(): void;

  // ---- the model's edits ----
  /** From now until endAiEdit: the canvas is read-only and setDoc shows states without recording them. */
  beginAiEdit(): void;
  /** The whole AI change as one undo step (from the document before beginAiEdit), then auto-layout. */
  applyAiChange(next: WorkflowDocument): void;
  /** Ends the AI edit. States streamed but never applied (a cancel) are kept as one undo step. */
  endAiEdit(): void;

  // ---- history ----
  undo(): void;
  redo(): void;

  // ---- view state (never undoable) ----
  selectNodes(ids: readonly NodeId[]): void;
  /** Selects a node and asks the canvas to centre on it. */
  focusNode(id: NodeId): void;
  /** React Flow changes: selection, measurement, drag positions. Removal goes through removeElements. */
  onNodesChange(changes: NodeChange<ToolFlowNode>[]): void;
  onEdgesChange(changes: EdgeChange<ToolFlowEdge>[]): void;
  setConnectRefusal(reason: string | null): void;
  setNarrow(narrow: boolean): void;
  /**
   * Loads the value checks (with Ajv), then checks node values: when the editor is mounted without
   * known value problems, else on the first change of the document.
   */
  enableValueChecks(): Promise<void>;
  setSaveState(state: SaveState, error?: string | null): void;
  markSaved(version: number): void;
}

export interface EditorInit {
  meta: EditorMeta;
  doc: WorkflowDocument;
  /**
   * The value-check problems of `doc`'s nodes, by node id, computed on the server
   * (getValueProblems in lib/workflow/export.ts). With them the editor shows them from its first
   * paint and loads the value checks (with Ajv) only once the document changes; without them it
   * loads it as soon as it is mounted.
   */
  valueProblems?: Record<string, NodeIssue[]>;
}

/** Value-check problems known for a document's nodes, valid while a node and its surroundings are unchanged. */
export interface KnownValueProblems {
  doc: WorkflowDocument;
  problems: Record<string, readonly NodeIssue[]>;
}

/** How far each paste lands from the previous one. */
const PASTE_OFFSET = 40;
/** Consecutive edits of one field within this window are one undo step (typing a value). */
const TYPING_COALESCE_MS = 1000;
const NO_IDS: NodeId[] = [];

const isLocked = (s: EditorState) => s.meta.readOnly || s.aiEditing || s.narrow;
const LOCKED_REASON = 'The canvas is read-only while the model edits it; wait for it to finish or cancel it.';
const READ_ONLY_REASON = 'This workflow is read-only here; fork it to edit.';

const getIssueText = (issues: readonly Issue[]) => issues.map((issue) => issue.message).join(' ');

/**
 * Why `connection` cannot be made in `doc`, or null when it can (for hover feedback while
 * dragging). Null until the commands have loaded: the drop itself is then checked by `connect`.
 */
export function getConnectionRefusal(doc: WorkflowDocument, connection: DomainConnection): string | null {
  const commands = getLoadedEditorCommands();
  if (!commands) {
    void loadEditorCommands().catch(() => {});
    return null;
  }
  const result = commands.connect(doc, connection);
  return result.ok ? null : getIssueText(result.error);
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

function getSelectedIds(flowNodes: readonly ToolFlowNode[], previous: NodeId[]): NodeId[] {
  const ids = flowNodes.filter((n) => n.selected).map((n) => n.id as NodeId);
  if (ids.length === 0) return NO_IDS;
  return sameIds(ids, previous) ? previous : ids;
}

/** Creates the store for one editor. Nothing runs at import time. */
export function createEditorStore(init: EditorInit) {
  const store = createEditorState(init);
  // A refused connection's reason answers that drop only: the next action that changes the
  // document or the selection (another edit, a click on a step or the pane) dismisses it.
  store.subscribe((state, previous) => {
    if (
      state.connectRefusal !== null &&
      state.connectRefusal === previous.connectRefusal &&
      (state.doc !== previous.doc || state.selectedNodeIds !== previous.selectedNodeIds)
    )
      store.setState({ connectRefusal: null });
  });
  return store;
}

function createEditorState(init: EditorInit) {
  return createStore<EditorState>()(
    temporal(
      (set, get, api) => {
        /** The document as it was when the model started editing, until its change is recorded. */
        let aiBase: WorkflowDocument | null = null;
        let lastTyping: { key: string; at: number } | null = null;
        let pasteCount = 0;
        // zundo types its mutator as `unknown`; this is the temporal store it attaches.
        const getHistory = () => (api as unknown as { temporal: HistoryStore }).temporal;

        /** Actions waiting for the commands to load, in the order they were asked for. */
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
        /**
         * Runs `action` with the commands: at once when they are loaded and no earlier action
         * waits for them, else after those, once they arrive. Returns whether it ran at once.
         */
        const withCommands = (action: (commands: EditorCommands) => void): boolean => {
          const commands = getLoadedEditorCommands();
          if (commands && waiting.length === 0) {
            action(commands);
            return true;
          }
          waiting.push(action);
          if (!fetching) runWaiting();
          return false;
        };

        /** Runs `action` at once, or after the actions waiting for the commands, if any. */
        const afterWaiting = (action: () => void) => {
          if (waiting.length === 0) action();
          else waiting.push(action);
        };

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

        /** Sets the document and the React Flow objects derived from it. */
        const commit = (doc: WorkflowDocument, undoable: boolean, selected?: ReadonlySet<string>) => {
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
        };

        /** A user edit: refused while the canvas is locked; recorded in history. */
        const edit = (next: (doc: WorkflowDocument, commands: EditorCommands) => WorkflowDocument) =>
          void withCommands((commands) => {
            if (isLocked(get())) return;
            lastTyping = null;
            commit(next(get().doc, commands), true);
          });

        /** After undo/redo the document changed under the flow objects: rebuild them. */
        const syncFlow = () => commit(get().doc, false, new Set(get().selectedNodeIds));

        /** Undo or redo, once every edit asked before it has applied. */
        const stepHistory = (direction: 'undo' | 'redo') =>
          afterWaiting(() => {
            if (isLocked(get())) return;
            lastTyping = null;
            getHistory().getState()[direction]();
            syncFlow();
          });

        const recordAiChange = () => {
          if (!aiBase) return;
          const base = aiBase;
          aiBase = null;
          if (base === get().doc) return;
          const history = getHistory().getState();
          getHistory().setState({ pastStates: [...history.pastStates, { doc: base }], futureStates: [] });
        };

        const pasteClipboard = (commands: EditorCommands, clipboard: NodeClipboard, offset: number) => {
          if (isLocked(get())) return;
          const { doc, ids } = commands.pasteNodes(get().doc, clipboard, { x: offset, y: offset });
          lastTyping = null;
          commit(doc, true, new Set(ids));
        };

        return {
          meta: init.meta,
          doc: init.doc,
          flowNodes: toFlowNodes(init.doc),
          flowEdges: toFlowEdges(init.doc.edges),
          selectedNodeIds: NO_IDS,
          aiEditing: false,
          narrow: false,
          connectRefusal: null,
          focusRequest: null,
          fitRequest: 0,
          clipboard: null,
          valuesChecked: false,
          knownValueProblems: init.valueProblems ? { doc: init.doc, problems: init.valueProblems } : null,
          saveState: 'saved',
          saveError: null,

          setArg: (nodeId, name, value) => {
            // Typed now, so a keystroke's time counts, not the time the commands arrived.
            const at = Date.now();
            withCommands((commands) => {
              if (isLocked(get())) return;
              const key = `${nodeId}\u0000${name}`;
              const coalesce = lastTyping?.key === key && at - lastTyping.at < TYPING_COALESCE_MS;
              lastTyping = { key, at };
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
              lastTyping = null;
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
              lastTyping = null;
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
              selectedNodeIds: selectionChanged
                ? getSelectedIds(flowNodes, s.selectedNodeIds)
                : s.selectedNodeIds,
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
      },
      {
        // Only the document is history; selection, measurement and save state are not.
        partialize: (state) => ({ doc: state.doc }),
        equality: (a, b) => a.doc === b.doc,
        limit: 200,
      },
    ),
  );
}

export type EditorStore = ReturnType<typeof createEditorStore>;

/** The undo history of an editor store (canUndo / canRedo come from its past and future states). */
export function getHistoryStore(store: EditorStore): HistoryStore {
  return (store as unknown as { temporal: HistoryStore }).temporal;
}
