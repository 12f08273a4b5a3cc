/**
 * The box a tool node takes on the canvas, before React Flow has measured it. The numbers match
 * components/nodes/tool-node.css (fixed row heights), so auto-layout of freshly planned nodes
 * leaves no overlaps even before their first paint.
 */
export const NODE_WIDTH = 300;
/** Title row, source line and the border. */
export const NODE_HEADER_HEIGHT = 52;
/** Badge strip under the header, present when the node has something to flag. */
export const NODE_BADGES_HEIGHT = 26;
/** One input or output row. */
export const NODE_ROW_HEIGHT = 28;
/** Padding of the inputs block and of the outputs block (top + bottom), and their divider. */
export const NODE_SECTION_PADDING = 8;

/** Estimated height of a node with the given number of inputs and outputs. */
export function getEstimatedNodeHeight(inputs: number, outputs: number, hasBadges: boolean): number {
  const inputsBlock = inputs > 0 ? inputs * NODE_ROW_HEIGHT + NODE_SECTION_PADDING : 0;
  const outputsBlock = outputs * NODE_ROW_HEIGHT + NODE_SECTION_PADDING + 1;
  return NODE_HEADER_HEIGHT + (hasBadges ? NODE_BADGES_HEIGHT : 0) + inputsBlock + outputsBlock;
}
