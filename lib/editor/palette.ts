/**
 * The tool palette's search: tools grouped by toolkit, filtered by a query where every word
 * must appear in the tool's name, title, description or parameter names. Names rank first, so
 * typing a tool's name puts it on top of its group.
 */
import { getObjectProperties, isJsonObject } from '../tools/json-schema';
import type { ToolDeclaration } from '../tools/types';

/** A toolkit as the palette sees it. */
export interface PaletteToolkit {
  id: string;
  name: string;
  tools: readonly ToolDeclaration[];
}

export interface PaletteGroup {
  toolkit: PaletteToolkit;
  tools: ToolDeclaration[];
}

interface SearchText {
  name: string;
  rest: string;
}

const searchTexts = new WeakMap<ToolDeclaration, SearchText>();

function getSearchText(tool: ToolDeclaration): SearchText {
  let text = searchTexts.get(tool);
  if (!text) {
    const schema = isJsonObject(tool.inputSchema) ? tool.inputSchema : {};
    const params = getObjectProperties(schema, schema).properties.map((p) => p.name);
    text = {
      // Underscores read as spaces, so "optimize structure" finds optimize_structure.
      name: `${tool.name} ${tool.name.replace(/[_\-.]/g, ' ')} ${tool.title ?? ''}`.toLowerCase(),
      rest: `${tool.description} ${params.join(' ')}`.toLowerCase(),
    };
    searchTexts.set(tool, text);
  }
  return text;
}

/** Lower-cased words of a query; empty for a blank query. */
export function getQueryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** 2 when every word is in the name, 1 when every word is somewhere, 0 when one is missing. */
export function scoreTool(tool: ToolDeclaration, words: readonly string[]): number {
  if (words.length === 0) return 1;
  const { name, rest } = getSearchText(tool);
  let inName = true;
  for (const word of words) {
    if (name.includes(word)) continue;
    inName = false;
    if (!rest.includes(word)) return 0;
  }
  return inName ? 2 : 1;
}

/**
 * The palette's groups for a query: toolkits in the given order, each with its matching tools
 * (name matches first, then declaration order); toolkits with no match are left out.
 */
export function searchPalette(toolkits: readonly PaletteToolkit[], query: string): PaletteGroup[] {
  const words = getQueryWords(query);
  const groups: PaletteGroup[] = [];
  for (const toolkit of toolkits) {
    const scored = toolkit.tools
      .map((tool, index) => ({ tool, index, score: scoreTool(tool, words) }))
      .filter((t) => t.score > 0)
      .sort((a, b) => b.score - a.score || a.index - b.index);
    if (scored.length > 0) groups.push({ toolkit, tools: scored.map((t) => t.tool) });
  }
  return groups;
}

/** The MIME type a palette drag carries: the toolkit id and tool name, as JSON. */
export const PALETTE_DRAG_TYPE = 'application/x-toolflow-tool';

/** What a palette drag carries, read back on drop. */
export interface PaletteDragData {
  toolkitId: string;
  tool: string;
}

/** Reads a palette drag's payload; undefined for anything else dropped on the canvas. */
export function parsePaletteDrag(text: string): PaletteDragData | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (isJsonObject(value) && typeof value.toolkitId === 'string' && typeof value.tool === 'string') {
      return { toolkitId: value.toolkitId, tool: value.tool };
    }
  } catch {
    // Not ours: another app's drag.
  }
  return undefined;
}

/** A node's box on the canvas, in flow coordinates. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where a node of `size` can go near `start` without covering another node: `start` itself when
 * free, else the first free place going down below the nodes in the way (a node added from the
 * palette by keyboard lands in the middle of the view, where something often already is).
 */
export function findFreeSpot(
  start: { x: number; y: number },
  size: { width: number; height: number },
  boxes: readonly Box[],
  gap = 24,
): { x: number; y: number } {
  const spot = { x: start.x, y: start.y };
  for (let tries = 0; tries < 200; tries++) {
    const hit = boxes.find(
      (b) =>
        spot.x < b.x + b.width + gap &&
        spot.x + size.width + gap > b.x &&
        spot.y < b.y + b.height + gap &&
        spot.y + size.height + gap > b.y,
    );
    if (!hit) return spot;
    spot.y = hit.y + hit.height + gap;
  }
  return spot;
}
