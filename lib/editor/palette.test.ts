import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../tools/types';
import { findFreeSpot, parsePaletteDrag, searchPalette, type PaletteToolkit } from './palette';

const tool = (name: string, description: string, params: string[] = []): ToolDeclaration => ({
  name,
  description,
  inputSchema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])) },
});

const materials: PaletteToolkit = {
  id: 'tk_m',
  name: 'Materials',
  tools: [
    tool('calculate_phonons', 'Phonon dispersion of a relaxed structure', ['input_structure']),
    tool('optimize_structure', 'Geometry optimisation with a DPA model', ['input_structure', 'model_path']),
  ],
};
const git: PaletteToolkit = { id: 'tk_g', name: 'Git', tools: [tool('git_status', 'Working tree status')] };

describe('searchPalette', () => {
  it('lists every toolkit with all its tools in declaration order for an empty query', () => {
    const groups = searchPalette([materials, git], '  ');
    expect(groups.map((g) => [g.toolkit.id, g.tools.map((t) => t.name)])).toEqual([
      ['tk_m', ['calculate_phonons', 'optimize_structure']],
      ['tk_g', ['git_status']],
    ]);
  });

  it('leaves out toolkits without a match', () => {
    expect(searchPalette([materials, git], 'status').map((g) => g.toolkit.id)).toEqual(['tk_g']);
  });

  it('reads underscores as spaces and ranks name matches above description matches', () => {
    const groups = searchPalette([materials], 'structure');
    // optimize_structure names it; calculate_phonons only describes it.
    expect(groups[0].tools.map((t) => t.name)).toEqual(['optimize_structure', 'calculate_phonons']);
    expect(searchPalette([materials], 'optimize structure')[0].tools.map((t) => t.name)).toEqual([
      'optimize_structure',
    ]);
  });

  it('needs every word of the query, in any field, case-insensitively', () => {
    expect(searchPalette([materials], 'DPA model_path')[0].tools.map((t) => t.name)).toEqual([
      'optimize_structure',
    ]);
    expect(searchPalette([materials], 'dpa phonon')).toEqual([]);
  });
});

describe('parsePaletteDrag', () => {
  it('reads back what the palette put on the drag', () => {
    expect(parsePaletteDrag(JSON.stringify({ toolkitId: 'tk_m', tool: 'git_status' }))).toEqual({
      toolkitId: 'tk_m',
      tool: 'git_status',
    });
  });

  it('ignores anything else dropped on the canvas', () => {
    expect(parsePaletteDrag('hello')).toBeUndefined();
    expect(parsePaletteDrag('{"tool": 3}')).toBeUndefined();
  });
});

describe('findFreeSpot', () => {
  const size = { width: 200, height: 100 };

  it('keeps the wanted place when it is free', () => {
    expect(findFreeSpot({ x: 0, y: 0 }, size, [{ x: 500, y: 0, width: 200, height: 100 }])).toEqual({
      x: 0,
      y: 0,
    });
  });

  it('moves below every node in the way', () => {
    const boxes = [
      { x: 0, y: 0, width: 260, height: 180 },
      { x: 50, y: 200, width: 260, height: 150 },
    ];
    const spot = findFreeSpot({ x: 20, y: 20 }, size, boxes);
    expect(spot).toEqual({ x: 20, y: 374 });
  });
});
