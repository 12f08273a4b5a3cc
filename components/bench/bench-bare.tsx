'use client';
import { useState } from 'react';
import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  useNodesState,
  type Edge,
  type Node,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { FIT_MAX_ZOOM, FIT_PADDING } from '@/lib/editor/document-layout';
import { generateWorkflow } from '@/lib/bench/generate-workflow';
import { BenchProbe } from './bench-probe';

function createBareGraph(n: number): { nodes: Node[]; edges: Edge[] } {
  const doc = generateWorkflow(n);
  return {
    nodes: doc.nodes.map((node) => ({ id: node.id, position: node.position, data: { label: node.tool } })),
    edges: doc.edges.map((e) => ({ id: e.id, source: e.source, target: e.target })),
  };
}

function BareFlow({ n }: { n: number }) {
  const [graph] = useState(() => createBareGraph(n));
  const [nodes, , onNodesChange] = useNodesState(graph.nodes);
  const [edges, , onEdgesChange] = useEdgesState(graph.edges);
  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      fitView
      fitViewOptions={{ padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM }}
      minZoom={0.05}
      proOptions={{ hideAttribution: true }}
    >
      <Background variant={BackgroundVariant.Dots} gap={18} size={1.2} />
      <MiniMap pannable zoomable />
      <Controls />
      <BenchProbe />
    </ReactFlow>
  );
}

/**
 * The same generated graph in plain React Flow: default nodes, React Flow's own state hooks, the
 * same background, minimap and controls, none of our store or node components. The benchmark
 * divides our figures by these.
 */
export function BenchBare({ n }: { n: number }) {
  return (
    <ReactFlowProvider>
      <div className="bench-page" data-testid="bench-bare" style={{ height: '100vh' }}>
        <BareFlow n={n} />
      </div>
    </ReactFlowProvider>
  );
}
