/**
 * One store per editor (zustand's Next.js guide: no global stores), made by
 * `createEditorStore(initial)` and provided by context. The document is the domain model and
 * the only thing undo history holds; React Flow's node and edge objects live beside it for what
 * React Flow itself tracks (selection, measurement, in-flight drag positions), which never
 * enters history (otherwise Undo undoes a measurement, docs/design.md §10.7).
 *
 * Every document action is a one-liner over a pure command from lib/workflow/commands and says
 * whether it is undoable (excalidraw's `captureUpdate`); the actions are in store-actions.ts. The commands load on demand
 * (load-commands.ts): an action asked for before they arrive is applied once they do, in the
 * order asked, and undo and redo wait behind it.
 */
import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand';
import { temporal, type TemporalState } from 'zundo';
import type { EdgeChange, NodeChange } from '@xyflow/react';
import type { Result } from '../result';
import type { ToolDeclaration } from '../tools/types';
import type { NodeClipboard } from '../workflow/commands';
import type { EdgeId, NodeId, NodeIssue, WorkflowDocument, XY } from '../workflow/types';
import {
  toFlowEdges,
  toFlowNodes,
  type DomainConnection,
  type ToolFlowEdge,
  type ToolFlowNode,
} from './adapters';
import { getLoadedEditorCommands, loadEditorCommands } from './load-commands';
import {
  NO_IDS,
  createAiActions,
  createDocumentActions,
  createEditorCore,
  createViewActions,
  getIssueText,
} from './store-actions';

/** What undo history holds: the document only. */
export type HistoryStore = StoreApi<TemporalState<{ doc: WorkflowDocument }>>;

export type SaveState = 'saved' | 'dirty' | 'saving' | 'conflict' | 'offline' | 'error';

export interface EditorMeta {
  id: string;
  name: string;
  version: number;
  readOnly: boolean;
  /**
   * Opened through a "can edit" share link (docs/design.md §13.4): editing, history and export
   * only; running, sharing, duplicating and deleting stay with the workflow's workspace.
   */
  viaLink?: boolean;
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
        // zundo types its mutator as `unknown`; this is the temporal store it attaches.
        const core = createEditorCore(
          set,
          get,
          () => (api as unknown as { temporal: HistoryStore }).temporal,
        );
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

          ...createDocumentActions(core),
          ...createAiActions(core),
          ...createViewActions(core),
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
