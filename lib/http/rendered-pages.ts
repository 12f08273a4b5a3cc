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

/**
 * Where the proxy asks for a rendered copy it keeps (docs/design.md §10.10), or a problem to
 * refuse to start with. `TOOLFLOW_PUBLIC_URL`, when set, is the origin the deployment is served
 * at (through the reverse proxy or load balancer, where any instance can answer: they share the
 * secret the request is marked with); otherwise this process on the loopback address, at the
 * `PORT` that `next start` sets. Never the request's own `Host`: a client chooses that, and the
 * copy fetched from it would be served to every later visitor of the link.
 */
export function getRenderedPagesOrigin(env: NodeJS.ProcessEnv): { origin?: string; problem?: string } {
  const configured = env.TOOLFLOW_PUBLIC_URL?.trim();
  if (configured) {
    let url: URL | undefined;
    try {
      url = new URL(configured);
    } catch {
      // said below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
      return {
        problem: `TOOLFLOW_PUBLIC_URL must be the http:// or https:// address browsers use (e.g. https://toolflow.example.com), not "${configured}".`,
      };
    return { origin: url.origin };
  }
  const port = Number(env.PORT);
  return Number.isInteger(port) && port > 0 && port < 65_536 ? { origin: `http://127.0.0.1:${port}` } : {};
}
