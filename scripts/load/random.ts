/** A small seeded PRNG (mulberry32), so a load run's documents and choices can be replayed. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, below). */
  int(below: number): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** A key of `weights` chosen with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
}

/** A generator seeded with `seed` (any 32-bit integer). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  return {
    next,
    int,
    between: (min, max) => min + int(max - min + 1),
    pick: (items) => items[int(items.length)],
    chance: (p) => next() < p,
    weighted(weights) {
      const keys = Object.keys(weights) as (keyof typeof weights)[];
      const total = keys.reduce((sum, k) => sum + weights[k], 0);
      let r = next() * total;
      for (const k of keys) {
        r -= weights[k];
        if (r < 0) return k;
      }
      return keys[keys.length - 1];
    },
  };
}
