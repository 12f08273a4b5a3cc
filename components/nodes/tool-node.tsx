'use client';
import { memo } from 'react';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { useEditorStore } from '@/lib/editor/context';
import { inputHandleId, outputHandleId, type ToolFlowNode } from '@/lib/editor/adapters';

/** A tool call on the canvas. Reads its own node by id, so a drag re-renders one node. */
export const ToolNode = memo(function ToolNode({ id }: NodeProps<ToolFlowNode>) {
  const node = useEditorStore((s) => s.doc.nodes.find((n) => n.id === id));
  if (!node) return null;
  const inputs = Object.keys(node.args);
  return (
    <div className="tool-node" data-testid={`node-${id}`}>
      <div className="tool-node__title">{node.label ?? node.tool}</div>
      <ul className="tool-node__ports">
        {inputs.map((name) => (
          <li key={name} className="tool-node__port">
            <Handle type="target" position={Position.Left} id={inputHandleId(name)} />
            <span>{name}</span>
          </li>
        ))}
      </ul>
      <Handle type="source" position={Position.Right} id={outputHandleId('result')} />
    </div>
  );
});
