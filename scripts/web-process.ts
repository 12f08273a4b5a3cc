/**
 * One web process of `npm start` (scripts/serve.ts forks as many as it decides): the production
 * build served by Next's own request handler, as `next start` serves it, with one thing in front:
 * the API's JSON answers are gzip'd in one call each (lib/server/compress.ts) instead of through
 * Next's per-answer streaming compressor. Pages and static files are Next's, compression included.
 *
 * Takes `next start`'s options: -p/--port (default PORT, else 3000), -H/--hostname and
 * --keepAliveTimeout.
 */
import http from 'node:http';
import { parseArgs } from 'node:util';
import next from 'next';
import { compressApiResponse } from '../lib/server/compress';

function fail(message: string): never {
  console.error(`toolflow: ${message}`);
  process.exit(1);
}

function parsePositive(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) fail(`${name} must be a positive whole number, not "${raw}".`);
  return value;
}

let parsed;
try {
  parsed = parseArgs({
    options: {
      port: { type: 'string', short: 'p' },
      hostname: { type: 'string', short: 'H' },
      keepAliveTimeout: { type: 'string' },
    },
    allowPositionals: false,
  }).values;
} catch (error) {
  fail(`${(error as Error).message} (it takes -p/--port, -H/--hostname and --keepAliveTimeout).`);
}
const port = parsePositive('--port', parsed.port ?? process.env.PORT) ?? 3000;
if (port > 65_535) fail(`--port must be at most 65535, not ${port}.`);
const hostname = parsed.hostname;
const keepAliveTimeout = parsePositive('--keepAliveTimeout', parsed.keepAliveTimeout);

(process.env as Record<string, string>).NODE_ENV = 'production';
// What `ps` shows (and e2e/serve.spec.ts looks for), as `next start` names its process next-server.
process.title = 'toolflow-web';
// Where this process listens, as `next start` records it (start-server.js): proxy.ts asks its own
// process for a share page's rendered copy at this origin.
const shownHost = !hostname || hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname;
const origin = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
process.env.PORT = String(port);
process.env.__NEXT_PRIVATE_ORIGIN = origin;
const app = next({ dev: false, dir: process.cwd(), hostname: hostname ?? 'localhost', port });
try {
  await app.prepare();
} catch (error) {
  fail(`Next could not start: ${(error as Error).message}`);
}
const handle = app.getRequestHandler();

const server = http.createServer((req, res) => {
  const discardHeld = compressApiResponse(req, res);
  // As `next start` does: an error that escapes Next's own handling still gets an answer, alone
  // (not after whatever part of the failed answer was held).
  handle(req, res).catch((error: unknown) => {
    console.error(`toolflow: failed to handle ${req.method} ${req.url}:`, error);
    if (!res.headersSent) {
      discardHeld();
      res.statusCode = 500;
      res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.end('Internal Server Error');
    } else {
      res.destroy(error as Error);
    }
  });
});
if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
server.on('error', (error) => fail(`cannot listen on ${hostname ?? '*'}:${port}: ${error.message}`));
server.listen(port, hostname, () => {
  console.log(`toolflow: web process ${process.pid} ready on ${origin}`);
});

// Stop taking connections, let the answers in flight finish, then go (as `next start` does).
let closing = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    server.close(() => void app.close().finally(() => process.exit(0)));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  });
}
