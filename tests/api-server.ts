/**
 * The app's route handlers behind a real HTTP server on a free local port, for tests of clients
 * that speak HTTP (the CLI's server commands): each request becomes the `Request` Next would hand
 * the handler, with the path's `[param]`s, and the handler's `Response` goes back on the wire.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

// Route handlers are typed per route; this is the shape they all share.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (request: Request, context: { params: Promise<any> }) => Promise<Response>;

/** A route as its folder names it (`/api/workflows/[id]/export`), with its handlers by method. */
export interface ServedRoute {
  path: string;
  handlers: Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>>;
}

function compile(route: ServedRoute) {
  const names: string[] = [];
  const source = route.path.replace(/\[(\w+)\]/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, names, pattern: new RegExp(`^${source}$`) };
}

async function readBody(message: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** Starts the server; `close` stops it and its open connections. */
export async function startApiServer(
  routes: ServedRoute[],
): Promise<{ url: string; close(): Promise<void> }> {
  const compiled = routes.map(compile);
  const server = createServer(async (message, reply) => {
    try {
      const url = new URL(message.url ?? '/', `http://${message.headers.host}`);
      const found = compiled
        .map((c) => ({ c, match: c.pattern.exec(url.pathname) }))
        .find((f) => f.match !== null);
      const handler = found?.c.route.handlers[message.method as keyof ServedRoute['handlers']];
      if (!found || !handler) {
        reply.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no such route"}');
        return;
      }
      const params = Object.fromEntries(
        found.c.names.map((name, i) => [name, decodeURIComponent(found.match![i + 1])]),
      );
      const headers = new Headers();
      for (const [name, value] of Object.entries(message.headers))
        if (typeof value === 'string') headers.set(name, value);
      const body =
        message.method === 'GET' || message.method === 'HEAD' ? undefined : await readBody(message);
      const request = new Request(url, { method: message.method, headers, body });
      const response = await handler(request, { params: Promise.resolve(params) });
      reply.writeHead(response.status, Object.fromEntries(response.headers));
      reply.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      reply.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
