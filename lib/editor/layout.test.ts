import { describe, expect, it } from 'vitest';
import { getLayoutPositions, isOverlapping } from './layout';

describe('getLayoutPositions', () => {
  const boxes = [
    { id: 'c', width: 300, height: 400 },
    { id: 'a', width: 300, height: 120 },
    { id: 'b', width: 300, height: 260 },
    { id: 'd', width: 300, height: 90 },
  ];
  const edges = [
    { source: 'a', target: 'b' },
    { source: 'b', target: 'c' },
    { source: 'a', target: 'd' },
  ];

  it('puts every node to the right of the nodes feeding it', () => {
    const p = getLayoutPositions(boxes, edges);
    expect(p.a.x).toBeLessThan(p.b.x);
    expect(p.b.x).toBeLessThan(p.c.x);
    expect(p.a.x).toBeLessThan(p.d.x);
  });

  it('never overlaps boxes of different heights', () => {
    const p = getLayoutPositions(boxes, edges);
    const placed = boxes.map((b) => ({ ...b, ...p[b.id] }));
    for (let i = 0; i < placed.length; i++) {
      for (let j = i + 1; j < placed.length; j++) expect(isOverlapping(placed[i], placed[j])).toBe(false);
    }
  });

  it('ignores edges to nodes it was not given, and self-loops', () => {
    const p = getLayoutPositions(boxes.slice(0, 2), [...edges, { source: 'a', target: 'a' }]);
    expect(Object.keys(p).sort()).toEqual(['a', 'c']);
  });
});

describe('isOverlapping', () => {
  it('does not count boxes that only touch', () => {
    const a = { id: 'a', x: 0, y: 0, width: 10, height: 10 };
    expect(isOverlapping(a, { ...a, id: 'b', x: 10 })).toBe(false);
    expect(isOverlapping(a, { ...a, id: 'b', x: 9 })).toBe(true);
  });
});
