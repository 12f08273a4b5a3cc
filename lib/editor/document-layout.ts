/**
 * Node boxes and the opening viewport of a document: real node sizes where React Flow measured
 * them, estimated from the parameter count for nodes not painted yet (a planner's fresh nodes).
 * The auto-layout itself (dagre) is in auto-layout.ts, loaded on demand (load-auto-layout.ts).
 */
import { getViewportForBounds, type Viewport } from '@xyflow/react';
import { getInputPorts, getOutputPorts } from '../workflow/graph';
import type { WorkflowDocument } from '../workflow/types';
import type { ToolFlowNode } from './adapters';
import type { LayoutBox } from './layout';
import { NODE_WIDTH, getEstimatedNodeHeight } from './node-metrics';

/** The box of every node: measured when known, else estimated (assuming a badge strip, to be safe). */
export function getNodeBoxes(doc: WorkflowDocument, flowNodes: readonly ToolFlowNode[]): LayoutBox[] {
  const measured = new Map(flowNodes.map((n) => [n.id, n.measured]));
  return doc.nodes.map((node) => {
    const size = measured.get(node.id);
    if (size?.width && size.height) return { id: node.id, width: size.width, height: size.height };
    const height = getEstimatedNodeHeight(
      getInputPorts(doc, node).length,
      getOutputPorts(doc, node).length,
      true,
    );
    return { id: node.id, width: NODE_WIDTH, height };
  });
}

/** How the canvas frames the whole graph (fit view): clear of the toolbar above, and of the zoom controls and the minimap below. */
export const FIT_PADDING = { top: '76px', right: '48px', bottom: '132px', left: '64px' } as const;
export const FIT_MAX_ZOOM = 1.1;
export const MIN_ZOOM = 0.05;
/** A canvas narrower than this is a phone's: it opens at a zoom where steps can be read. */
export const NARROW_CANVAS_WIDTH = 600;
/** The zoom a phone's canvas opens at, at least: the steps' text readable, the rest a pan away. */
export const NARROW_MIN_ZOOM = 0.75;
/** Space left of the first step on a phone's canvas, in screen pixels. */
const NARROW_LEFT = 16;

/** Whether a canvas this wide opens at a readable zoom rather than fitting the whole graph. */
export function isNarrowCanvas(width: number): boolean {
  return width < NARROW_CANVAS_WIDTH;
}

/**
 * The viewport that fits the whole document into a `width` × `height` canvas, from the node
 * boxes we can estimate before anything is painted. Opening at this viewport (instead of at
 * zoom 1 and fitting after measuring) means a large graph is drawn once, at the zoom it is seen at.
 * A phone's canvas (isNarrowCanvas) that cannot show the whole graph readably opens at a
 * readable zoom on its first steps, the graph's left end, centred vertically; the rest is a pan
 * away.
 */
export function getInitialViewport(
  doc: WorkflowDocument,
  flowNodes: readonly ToolFlowNode[],
  width: number,
  height: number,
): Viewport {
  if (doc.nodes.length === 0 || width <= 0 || height <= 0) return { x: 0, y: 0, zoom: 1 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const boxes = getNodeBoxes(doc, flowNodes);
  doc.nodes.forEach((node, i) => {
    minX = Math.min(minX, node.position.x);
    minY = Math.min(minY, node.position.y);
    maxX = Math.max(maxX, node.position.x + boxes[i].width);
    maxY = Math.max(maxY, node.position.y + boxes[i].height);
  });
  const fit = getViewportForBounds(
    { x: minX, y: minY, width: maxX - minX, height: maxY - minY },
    width,
    height,
    MIN_ZOOM,
    FIT_MAX_ZOOM,
    FIT_PADDING,
  );
  if (!isNarrowCanvas(width) || fit.zoom >= NARROW_MIN_ZOOM) return fit;
  const zoom = NARROW_MIN_ZOOM;
  return {
    zoom,
    x: NARROW_LEFT - minX * zoom,
    y: Math.max(NARROW_LEFT, (height - (maxY - minY) * zoom) / 2) - minY * zoom,
  };
}
