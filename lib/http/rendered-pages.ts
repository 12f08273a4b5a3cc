/**
 * Rendered pages kept in this process's memory, by a key that names exactly what they show (a
 * share link's token hash and its workflow's version): the proxy answers a share page from here
 * after checking that the link is live, without running Next's page pipeline again (proxy.ts).
 *
 * Bounded by bytes, least recently used out first. A page is filled once per key however many
 * requests ask for it at the same time, and a failed fill leaves nothing behind, so the next
 * request tries again.
 */
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
  const pages = new Map<string, RenderedPage>();
  const filling = new Map<string, Promise<void>>();
  let bytes = 0;
  const cost = (page: RenderedPage) => page.body.byteLength;

  const put = (key: string, page: RenderedPage) => {
    if (cost(page) > maxBytes) return;
    const old = pages.get(key);
    if (old) {
      bytes -= cost(old);
      pages.delete(key);
    }
    pages.set(key, page);
    bytes += cost(page);
    for (const [oldest, evicted] of pages) {
      if (bytes <= maxBytes) break;
      pages.delete(oldest);
      bytes -= cost(evicted);
    }
  };

  return {
    get(key) {
      const page = pages.get(key);
      if (!page) return undefined;
      pages.delete(key);
      pages.set(key, page);
      return page;
    },
    fill(key, load) {
      const pending = filling.get(key);
      if (pending) return pending;
      if (pages.has(key)) return Promise.resolve();
      const done = load()
        .then((page) => {
          if (page) put(key, page);
        })
        .catch(() => {
          // Not kept: the request that asked was served by Next itself, and the next one tries again.
        })
        .finally(() => filling.delete(key));
      filling.set(key, done);
      return done;
    },
    size: () => bytes,
  };
}
