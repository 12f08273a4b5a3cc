/**
 * Auto-layout: dagre, left to right by data flow. Node boxes are their real measured sizes when
 * React Flow has measured them and an estimate from the parameter count otherwise (nodes made
 * by the planner are laid out before they are first painted), so tall nodes never overlap.
 */
import dagre from '@dagrejs/dagre';
import type { XY } from '../workflow/types';

/** A node box to place: top-left position is what comes back. */
export interface LayoutBox {
  id: string;
  width: number;
  height: number;
}

export interface LayoutOptions {
  /** Vertical gap between nodes of the same rank. */
  nodeGap?: number;
  /** Horizontal gap between ranks. */
  rankGap?: number;
}

/**
 * Top-left positions for every box, ranked left to right along the edges. Edges whose ends are
 * not among the boxes are ignored. Deterministic for equal input.
 */
export function getLayoutPositions(
  boxes: readonly LayoutBox[],
  edges: readonly { source: string; target: string }[],
  options: LayoutOptions = {},
): Record<string, XY> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({
    rankdir: 'LR',
    nodesep: options.nodeGap ?? 40,
    ranksep: options.rankGap ?? 90,
    marginx: 0,
    marginy: 0,
  });
  g.setDefaultEdgeLabel(() => ({}));
  const ids = new Set<string>();
  for (const box of boxes) {
    ids.add(box.id);
    g.setNode(box.id, { width: box.width, height: box.height });
  }
  for (const e of edges) {
    if (ids.has(e.source) && ids.has(e.target) && e.source !== e.target) g.setEdge(e.source, e.target);
  }
  dagre.layout(g);
  const positions: Record<string, XY> = {};
  for (const box of boxes) {
    const placed = g.node(box.id);
    // dagre gives centres; React Flow positions are top-left corners. Round so exports stay tidy.
    positions[box.id] = {
      x: Math.round(placed.x - box.width / 2),
      y: Math.round(placed.y - box.height / 2),
    };
  }
  return positions;
}

/** Whether two boxes at the given positions overlap (touching edges do not count). */
export function isOverlapping(a: LayoutBox & XY, b: LayoutBox & XY): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
