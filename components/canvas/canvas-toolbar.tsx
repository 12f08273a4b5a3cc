'use client';
import type { ReactNode } from 'react';
import { useReactFlow } from '@xyflow/react';
import { useEditorHistory, useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import {
  selectCanEdit,
  selectCanRedo,
  selectCanUndo,
  selectHasClipboard,
  selectNodeCount,
  selectSelectedNodeIds,
} from '@/lib/editor/selectors';
import { FIT_MAX_ZOOM, FIT_PADDING } from '@/lib/editor/document-layout';
import type { EditorState } from '@/lib/editor/store';

const selectHasSelectedEdge = (s: EditorState) => s.flowEdges.some((e) => e.selected);
/** Only looking: a share link, a run, or the editor on a phone. */
const selectViewOnly = (s: EditorState) => s.meta.readOnly || s.narrow;

function Icon({ d }: { d: string }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      <path d={d} />
    </svg>
  );
}

const ICONS = {
  undo: 'M9 14 4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3',
  redo: 'm15 14 5-5-5-5M20 9H9a5 5 0 0 0 0 10h3',
  layout: 'M3 5h6v5H3zM15 3h6v5h-6zM15 16h6v5h-6zM9 7.5h3v11h3M12 5.5h3',
  fit: 'M3 8V3h5M21 8V3h-5M3 16v5h5M21 16v5h-5',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  paste: 'M8 4h8v3H8zM16 5h3v16H5V5h3',
  duplicate: 'M8 8h12v12H8zM4 16V4h12M14 11v6M11 14h6',
  delete: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
};

function ToolButton(props: {
  testId: string;
  label: string;
  shortcut?: string;
  icon: keyof typeof ICONS;
  disabled?: boolean;
  onClick(): void;
  children?: ReactNode;
}) {
  const title = props.shortcut ? `${props.label} (${props.shortcut})` : props.label;
  return (
    <button
      type="button"
      className="canvas-toolbar__button"
      data-testid={props.testId}
      aria-label={props.label}
      title={title}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      <Icon d={ICONS[props.icon]} />
      {props.children}
    </button>
  );
}

/**
 * Undo/redo, layout and view, clipboard and delete: every canvas action, reachable by keyboard.
 * A read-only view (a share link, a phone) gets only what a viewer can use: fitting the view. While a
 * planner edits, the editing buttons stay, disabled, since they come back when it ends.
 */
export function CanvasToolbar() {
  const store = useEditorStoreApi();
  const flow = useReactFlow();
  const viewOnly = useEditorStore(selectViewOnly);
  const canEdit = useEditorStore(selectCanEdit);
  const canUndo = useEditorHistory(selectCanUndo);
  const canRedo = useEditorHistory(selectCanRedo);
  const selected = useEditorStore(selectSelectedNodeIds);
  const hasSelectedEdge = useEditorStore(selectHasSelectedEdge);
  const hasClipboard = useEditorStore(selectHasClipboard);
  const nodeCount = useEditorStore(selectNodeCount);
  // One label for both platforms: the server render cannot know which one the user has.
  const mod = 'Ctrl/⌘+';
  const s = () => store.getState();
  const fit = (
    <ToolButton
      testId="toolbar-fit"
      label="Fit view"
      icon="fit"
      disabled={nodeCount === 0}
      onClick={() => void flow.fitView({ padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM, duration: 250 })}
    />
  );
  if (viewOnly) {
    return (
      <div className="canvas-toolbar" role="toolbar" aria-label="Canvas" data-testid="canvas-toolbar">
        {fit}
      </div>
    );
  }
  return (
    <div className="canvas-toolbar" role="toolbar" aria-label="Canvas" data-testid="canvas-toolbar">
      <ToolButton
        testId="toolbar-undo"
        label="Undo"
        shortcut={`${mod}Z`}
        icon="undo"
        disabled={!canEdit || !canUndo}
        onClick={() => s().undo()}
      />
      <ToolButton
        testId="toolbar-redo"
        label="Redo"
        shortcut={`${mod}Shift+Z`}
        icon="redo"
        disabled={!canEdit || !canRedo}
        onClick={() => s().redo()}
      />
      <span className="canvas-toolbar__sep" aria-hidden />
      <ToolButton
        testId="toolbar-layout"
        label="Auto-layout"
        icon="layout"
        disabled={!canEdit || nodeCount === 0}
        onClick={() => void s().layout()}
      >
        <span className="canvas-toolbar__text">Auto-layout</span>
      </ToolButton>
      {fit}
      <span className="canvas-toolbar__sep" aria-hidden />
      <ToolButton
        testId="toolbar-copy"
        label="Copy"
        shortcut={`${mod}C`}
        icon="copy"
        disabled={selected.length === 0}
        onClick={() => s().copySelection()}
      />
      <ToolButton
        testId="toolbar-paste"
        label="Paste"
        shortcut={`${mod}V`}
        icon="paste"
        disabled={!canEdit || !hasClipboard}
        onClick={() => s().paste()}
      />
      <ToolButton
        testId="toolbar-duplicate"
        label="Duplicate"
        shortcut={`${mod}D`}
        icon="duplicate"
        disabled={!canEdit || selected.length === 0}
        onClick={() => s().duplicateSelection()}
      />
      <ToolButton
        testId="toolbar-delete"
        label="Delete"
        shortcut="Delete"
        icon="delete"
        disabled={!canEdit || (selected.length === 0 && !hasSelectedEdge)}
        onClick={() => s().deleteSelection()}
      />
      {selected.length > 0 && (
        <span className="canvas-toolbar__count" data-testid="selection-count">
          {selected.length} selected
        </span>
      )}
    </div>
  );
}
