'use client';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  Panel,
  ReactFlow,
  useConnection,
  useReactFlow,
  useStore,
  type IsValidConnection,
  type OnConnect,
  type OnConnectEnd,
  type OnDelete,
  type ReactFlowState,
  type Viewport,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import {
  toDomainConnection,
  toDomainConnectionFromHandles,
  type ToolFlowEdge,
  type ToolFlowNode,
} from '@/lib/editor/adapters';
import {
  selectAiEditing,
  selectCanEdit,
  selectConnectRefusal,
  selectFitRequest,
  selectFlowEdges,
  selectFlowNodes,
  selectFocusRequest,
} from '@/lib/editor/selectors';
import { getConnectionRefusal } from '@/lib/editor/store';
import {
  FIT_MAX_ZOOM,
  FIT_PADDING,
  MIN_ZOOM,
  getInitialViewport,
  isNarrowCanvas,
} from '@/lib/editor/document-layout';
import type { EdgeId, NodeId } from '@/lib/workflow/types';
import { COMPACT_ZOOM, ToolNode } from '@/components/nodes/tool-node';
import { CanvasToolbar } from './canvas-toolbar';
import { useCanvasShortcuts } from './use-canvas-shortcuts';
import './canvas.css';

const nodeTypes = { tool: ToolNode };
const DELETE_KEYS = ['Backspace', 'Delete'];
const MULTI_SELECT_KEYS = ['Meta', 'Control'];
const FIT_VIEW_OPTIONS = { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM };
const MINIMAP_STYLE = { width: 168, height: 112 };
const DEFAULT_EDGE_OPTIONS = { interactionWidth: 16 };
const PRO_OPTIONS = { hideAttribution: true };
/** Zoomed in far enough for the full node look (see COMPACT_ZOOM). */
const selectZoomedIn = (s: ReactFlowState) => s.transform[2] >= COMPACT_ZOOM;

/** Centres the viewport on focused nodes and fits it after a layout, as the store asks. */
function ViewportController() {
  const flow = useReactFlow<ToolFlowNode, ToolFlowEdge>();
  const focus = useEditorStore(selectFocusRequest);
  const fit = useEditorStore(selectFitRequest);

  useEffect(() => {
    if (!focus) return;
    const node = flow.getInternalNode(focus.nodeId);
    if (!node) return;
    const { x, y } = node.internals.positionAbsolute;
    const width = node.measured.width ?? 300;
    const height = node.measured.height ?? 200;
    flow.setCenter(x + width / 2, y + height / 2, { zoom: Math.max(flow.getZoom(), 0.9), duration: 250 });
  }, [focus, flow]);

  useEffect(() => {
    if (fit === 0) return;
    // Let React Flow take the new positions in before measuring the graph's bounds.
    const frame = requestAnimationFrame(() =>
      requestAnimationFrame(() => void flow.fitView({ ...FIT_VIEW_OPTIONS, duration: 250 })),
    );
    return () => cancelAnimationFrame(frame);
  }, [fit, flow]);

  return null;
}

/** While a connection is dragged over a handle it cannot take, says why (before the drop). */
function ConnectionHint() {
  const store = useEditorStoreApi();
  const hovered = useConnection((c) =>
    c.inProgress && c.toHandle && c.isValid === false ? { from: c.fromHandle, to: c.toHandle } : null,
  );
  const connection = hovered ? toDomainConnectionFromHandles(hovered.from, hovered.to) : undefined;
  const reason = connection
    ? getConnectionRefusal(store.getState().doc, connection)
    : hovered
      ? 'An output connects to an input: drop on a handle of the other kind.'
      : null;
  if (!reason) return null;
  return (
    <div className="canvas-status canvas-status--hint" role="status" data-testid="connect-hint">
      {reason}
    </div>
  );
}

/** The reason the last connection was refused, until it is dismissed or a connection succeeds. */
function ConnectRefusal() {
  const store = useEditorStoreApi();
  const reason = useEditorStore(selectConnectRefusal);
  if (!reason) return null;
  return (
    <div className="canvas-status canvas-status--refused" role="alert" data-testid="connect-refused">
      <span className="canvas-status__label">Not connected.</span> {reason}
      <button
        type="button"
        className="canvas-status__close"
        aria-label="Dismiss"
        data-testid="connect-refused-dismiss"
        onClick={() => store.getState().setConnectRefusal(null)}
      >
        ×
      </button>
    </div>
  );
}

function AiLock() {
  const aiEditing = useEditorStore(selectAiEditing);
  if (!aiEditing) return null;
  return (
    <div className="canvas-lock" role="status" data-testid="canvas-locked">
      <span className="canvas-lock__pulse" aria-hidden />
      The model is editing this workflow — the canvas is read-only until it finishes.
    </div>
  );
}

/** The React Flow canvas for the editor's document. `children` render inside React Flow. */
export function WorkflowCanvas({ children }: { children?: ReactNode }) {
  const store = useEditorStoreApi();
  const nodes = useEditorStore(selectFlowNodes);
  const edges = useEditorStore(selectFlowEdges);
  const canEdit = useEditorStore(selectCanEdit);
  const zoomedIn = useStore(selectZoomedIn);
  useCanvasShortcuts();
  // Made once: a drag frame re-renders this component with new nodes, and these parts (which
  // read their own state) need not re-render with it.
  const overlays = useMemo(
    () => (
      <>
        <Background variant={BackgroundVariant.Dots} gap={18} size={1.2} color="#c8cbd2" />
        <MiniMap
          style={MINIMAP_STYLE}
          pannable
          zoomable
          nodeColor="#c5cad6"
          maskColor="rgba(240, 241, 245, 0.7)"
          ariaLabel="Minimap"
        />
        <Controls showInteractive={false} />
        <Panel position="top-left">
          <CanvasToolbar />
        </Panel>
        <Panel position="top-center">
          <AiLock />
        </Panel>
        <Panel position="bottom-center">
          <ConnectionHint />
          <ConnectRefusal />
        </Panel>
        <ViewportController />
      </>
    ),
    [],
  );
  // React Flow mounts once the canvas knows its size, at the viewport that fits the graph, so a
  // big graph is drawn once at the zoom it is seen at (not at zoom 1 first, then fitted).
  const containerRef = useRef<HTMLDivElement>(null);
  const [initial, setInitial] = useState<{ viewport: Viewport; fit: boolean } | null>(null);
  useLayoutEffect(() => {
    const box = containerRef.current?.getBoundingClientRect();
    const { doc, flowNodes } = store.getState();
    const width = box?.width ?? 0;
    // A phone's canvas keeps the readable view it opens at (getInitialViewport), not a fit.
    setInitial({
      viewport: getInitialViewport(doc, flowNodes, width, box?.height ?? 0),
      fit: !isNarrowCanvas(width),
    });
  }, [store]);

  const isValidConnection: IsValidConnection<ToolFlowEdge> = useCallback(
    (c) => {
      const connection = toDomainConnection(c);
      return !!connection && getConnectionRefusal(store.getState().doc, connection) === null;
    },
    [store],
  );

  const onConnect: OnConnect = useCallback(
    (c) => {
      const connection = toDomainConnection(c);
      if (connection) store.getState().connect(connection);
    },
    [store],
  );

  // A drop on a handle that cannot take the edge: record why, so the user sees it after the drop.
  const onConnectEnd: OnConnectEnd = useCallback(
    (_event, state) => {
      if (!state.toHandle || state.isValid !== false || !state.fromHandle) return;
      const connection = toDomainConnectionFromHandles(state.fromHandle, state.toHandle);
      if (connection) store.getState().connect(connection);
      else
        store
          .getState()
          .setConnectRefusal('An output connects to an input: drop on a handle of the other kind.');
    },
    [store],
  );

  const onDelete: OnDelete<ToolFlowNode, ToolFlowEdge> = useCallback(
    ({ nodes: gone, edges: cut }) =>
      store.getState().removeElements(
        gone.map((n) => n.id as NodeId),
        cut.map((e) => e.id as EdgeId),
      ),
    [store],
  );

  return (
    <div ref={containerRef} className={`canvas${canEdit ? '' : ' canvas--locked'}`} data-testid="canvas">
      {initial && (
        <ReactFlow<ToolFlowNode, ToolFlowEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          onNodesChange={store.getState().onNodesChange}
          onEdgesChange={store.getState().onEdgesChange}
          onConnect={onConnect}
          onConnectEnd={onConnectEnd}
          onDelete={onDelete}
          isValidConnection={isValidConnection}
          nodesDraggable={canEdit}
          nodesConnectable={canEdit}
          edgesReconnectable={false}
          deleteKeyCode={canEdit ? DELETE_KEYS : null}
          multiSelectionKeyCode={MULTI_SELECT_KEYS}
          selectionKeyCode="Shift"
          defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
          defaultViewport={initial.viewport}
          fitView={initial.fit}
          fitViewOptions={FIT_VIEW_OPTIONS}
          minZoom={MIN_ZOOM}
          // Zoomed in on a big graph, only the nodes on screen are mounted. Zoomed out, all are,
          // in their cheap compact look: mounting and unmounting nodes as they cross the edge of
          // the screen stalls a pan over a big overview (bare React Flow mounts them all).
          onlyRenderVisibleElements={zoomedIn}
          maxZoom={2}
          proOptions={PRO_OPTIONS}
        >
          {overlays}
          {children}
        </ReactFlow>
      )}
    </div>
  );
}
