/**
 * One store per editor (zustand's Next.js guide: no global stores), made by
 * `createEditorStore(initial)` and provided by context. The document is the domain model;
 * React Flow's node objects live beside it only for what React Flow itself tracks (selection,
 * measurement, in-flight drag positions), which never enters undo history (STACK-NOTES).
 */
import { createStore } from 'zustand/vanilla';
import { temporal } from 'zundo';
import { applyNodeChanges, type Node, type NodeChange } from '@xyflow/react';
import type { WorkflowDocument, XY } from '../workflow/types';
import { toFlowNodes, type ToolFlowNode } from './adapters';

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
  saveState: SaveState;
  saveError: string | null;

  /** React Flow changes: applied to `flowNodes` only; never undoable by themselves. */
  onNodesChange(changes: NodeChange[]): void;
  /** Commits dragged positions into the document: one undo step per drag. */
  commitPositions(positions: Record<string, XY>): void;
  /** Replaces the document (an undoable change) and rebuilds the flow nodes. */
  setDoc(doc: WorkflowDocument): void;
  setSaveState(state: SaveState, error?: string | null): void;
  markSaved(version: number): void;
}

export interface EditorInit {
  meta: EditorMeta;
  doc: WorkflowDocument;
}

/** Creates the store for one editor. Nothing runs at import time. */
export function createEditorStore(init: EditorInit) {
  return createStore<EditorState>()(
    temporal(
      (set, get) => ({
        meta: init.meta,
        doc: init.doc,
        flowNodes: toFlowNodes(init.doc),
        saveState: 'saved',
        saveError: null,

        onNodesChange: (changes) =>
          set({ flowNodes: applyNodeChanges(changes, get().flowNodes as Node[]) as ToolFlowNode[] }),

        commitPositions: (positions) => {
          const doc = get().doc;
          const nodes = doc.nodes.map((n) => (positions[n.id] ? { ...n, position: positions[n.id] } : n));
          set({ doc: { ...doc, nodes }, saveState: 'dirty' });
        },

        setDoc: (doc) => set({ doc, flowNodes: toFlowNodes(doc, get().flowNodes), saveState: 'dirty' }),

        setSaveState: (saveState, saveError = null) => set({ saveState, saveError }),

        markSaved: (version) =>
          set((s) => ({
            meta: { ...s.meta, version },
            saveState: s.saveState === 'saving' ? 'saved' : s.saveState,
          })),
      }),
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
