/**
 * Rendered pages kept in this process's memory, by a key that names exactly what they show (a
 * share link's token hash and its workflow's version): the proxy answers a share page from here
 * after checking that the link is live, without running Next's page pipeline again (proxy.ts).
 *
 * Bounded by bytes, least recently used out first. A page is filled once per key however many
 * requests ask for it at the same time, and a failed fill leaves nothing behind, so the next
 * request tries again.
 */
import { createLruCache } from '../lru';

export interface RenderedPage {
  body: Uint8Array;
  /** The page's own headers worth repeating (content type, vary, link), as rendered. */
  headers: [string, string][];
}

export interface RenderedPageCache {
  get(key: string): RenderedPage | undefined;
  /** Starts filling `key` with `load`'s page unless it is there or already being filled. */
  fill(key: string, load: () => Promise<RenderedPage | null>): Promise<void>;
  /** Bytes held (the bodies). */
  size(): number;
}

export function createRenderedPageCache(maxBytes: number): RenderedPageCache {
  const pages = createLruCache<RenderedPage>({ maxCost: maxBytes, cost: (page) => page.body.byteLength });
  const filling = new Map<string, Promise<void>>();
  return {
    get: (key) => pages.get(key),
    fill(key, load) {
      const pending = filling.get(key);
      if (pending) return pending;
      if (pages.get(key)) return Promise.resolve();
      const done = load()
        .then((page) => {
          if (page) pages.set(key, page);
        })
        .catch(() => {
          // Not kept: the request that asked was served by Next itself, and the next one tries again.
        })
        .finally(() => filling.delete(key));
      filling.set(key, done);
      return done;
    },
    size: () => pages.cost(),
  };
}
