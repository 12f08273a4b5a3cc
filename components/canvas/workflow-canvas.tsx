'use client';
import { useMemo } from 'react';
import { Background, Controls, MiniMap, ReactFlow, type Node, type OnNodeDrag } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import { toFlowEdges } from '@/lib/editor/adapters';
import type { EditorState } from '@/lib/editor/store';
import { ToolNode } from '@/components/nodes/tool-node';

const nodeTypes = { tool: ToolNode };
const selectFlowNodes = (s: EditorState) => s.flowNodes;
const selectEdges = (s: EditorState) => s.doc.edges;
const selectReadOnly = (s: EditorState) => s.meta.readOnly;

/** The React Flow canvas for the editor's document. */
export function WorkflowCanvas() {
  const store = useEditorStoreApi();
  const nodes = useEditorStore(selectFlowNodes);
  const docEdges = useEditorStore(selectEdges);
  const readOnly = useEditorStore(selectReadOnly);
  const edges = useMemo(() => toFlowEdges(docEdges), [docEdges]);

  const onNodeDragStop: OnNodeDrag<Node> = (_event, _node, dragged) => {
    store.getState().commitPositions(Object.fromEntries(dragged.map((n) => [n.id, n.position])));
  };

  return (
    <div className="canvas" data-testid="canvas">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={store.getState().onNodesChange}
        onNodeDragStop={onNodeDragStop}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        fitView
        minZoom={0.1}
        proOptions={{ hideAttribution: true }}
      >
        <Background gap={16} />
        <MiniMap pannable zoomable />
        <Controls />
      </ReactFlow>
    </div>
  );
}
