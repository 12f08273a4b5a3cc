/**
 * A map that keeps what was used most recently within a budget: a total cost (bytes, nodes…)
 * and, if given, a number of entries. Adding past the budget drops the least recently used
 * entries first; a value that alone costs more than the whole budget is not kept.
 */
export interface LruCache<V> {
  /** The value, now the most recently used; undefined when not kept. */
  get(key: string): V | undefined;
  /** Keeps `value` under `key` (replacing what was there) as the most recently used. */
  set(key: string, value: V): void;
  /** The total cost of what is kept. */
  cost(): number;
}

export function createLruCache<V>(budget: {
  maxCost: number;
  maxEntries?: number;
  cost: (value: V) => number;
}): LruCache<V> {
  const entries = new Map<string, V>();
  let total = 0;
  const remove = (key: string) => {
    const value = entries.get(key);
    if (value === undefined) return;
    entries.delete(key);
    total -= budget.cost(value);
  };
  return {
    get(key) {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      remove(key);
      const cost = budget.cost(value);
      if (cost > budget.maxCost) return;
      entries.set(key, value);
      total += cost;
      for (const oldest of entries.keys()) {
        if (total <= budget.maxCost && entries.size <= (budget.maxEntries ?? Infinity)) break;
        remove(oldest);
      }
    },
    cost: () => total,
  };
}
