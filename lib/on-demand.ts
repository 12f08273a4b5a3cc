/**
 * A module (or anything else) loaded on demand, once: `load()` starts it on the first call and
 * every later call shares that promise; `get()` gives the value once it has arrived. A failed
 * load is forgotten, so the next `load()` tries again (a page that was offline for a moment).
 *
 *   const layout = onDemand(() => import('./auto-layout'));
 */
export interface OnDemand<T> {
  load(): Promise<T>;
  /** The value if it has finished loading, else undefined. */
  get(): T | undefined;
}

export function onDemand<T>(start: () => Promise<T>): OnDemand<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    load() {
      loading ??= start().then(
        (value) => (loaded = value),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    get: () => loaded,
  };
}
