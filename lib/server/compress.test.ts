import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MIN_COMPRESSED_BYTES,
  compressApiResponse,
  isApiPath,
  isGzipAccepted,
  isWholeBody,
} from './compress';

describe('isGzipAccepted', () => {
  it('accepts gzip and x-gzip, with or without a weight', () => {
    expect(isGzipAccepted('gzip')).toBe(true);
    expect(isGzipAccepted('gzip, deflate, br, zstd')).toBe(true);
    expect(isGzipAccepted('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(isGzipAccepted('x-gzip')).toBe(true);
    expect(isGzipAccepted(['deflate', 'gzip'])).toBe(true);
  });

  it('accepts a wildcard when gzip is not named', () => {
    expect(isGzipAccepted('*')).toBe(true);
    expect(isGzipAccepted('br, *;q=0.1')).toBe(true);
  });

  it('refuses gzip with weight zero, even with a wildcard', () => {
    expect(isGzipAccepted('gzip;q=0')).toBe(false);
    expect(isGzipAccepted('gzip; q=0.000, *')).toBe(false);
    expect(isGzipAccepted('*;q=0')).toBe(false);
  });

  it('refuses when gzip is not offered', () => {
    expect(isGzipAccepted(undefined)).toBe(false);
    expect(isGzipAccepted('')).toBe(false);
    expect(isGzipAccepted('identity')).toBe(false);
    expect(isGzipAccepted('br, deflate')).toBe(false);
    expect(isGzipAccepted('gzipped')).toBe(false);
  });
});

describe('isApiPath', () => {
  it('takes /api and what is under it, with or without a query', () => {
    expect(isApiPath('/api/workflows')).toBe(true);
    expect(isApiPath('/api/workflows/wf_1/export?format=json')).toBe(true);
    expect(isApiPath('/api?x=1')).toBe(true);
    expect(isApiPath('/api')).toBe(true);
  });

  it('leaves pages and static files alone', () => {
    expect(isApiPath('/')).toBe(false);
    expect(isApiPath('/apis')).toBe(false);
    expect(isApiPath('/w/wf_1')).toBe(false);
    expect(isApiPath('/_next/static/chunks/a.js')).toBe(false);
    expect(isApiPath(undefined)).toBe(false);
  });
});

describe('isWholeBody', () => {
  it('holds JSON and plain text answers', () => {
    expect(isWholeBody(200, 'application/json', undefined, undefined)).toBe(true);
    expect(isWholeBody(409, 'application/json; charset=utf-8', undefined, 'no-store')).toBe(true);
    expect(isWholeBody(200, 'application/problem+json', undefined, undefined)).toBe(true);
    expect(isWholeBody(503, 'text/plain; charset=utf-8', 'identity', undefined)).toBe(true);
  });

  it('passes streams, bodies already encoded, no-transform and answers without a body', () => {
    expect(isWholeBody(200, 'text/event-stream', undefined, undefined)).toBe(false);
    expect(isWholeBody(200, 'application/x-ndjson; charset=utf-8', undefined, undefined)).toBe(false);
    expect(isWholeBody(200, 'application/octet-stream', undefined, undefined)).toBe(false);
    expect(isWholeBody(200, undefined, undefined, undefined)).toBe(false);
    expect(isWholeBody(200, 'application/json', 'gzip', undefined)).toBe(false);
    expect(isWholeBody(200, 'application/json', undefined, 'private, no-transform')).toBe(false);
    expect(isWholeBody(204, 'application/json', undefined, undefined)).toBe(false);
    expect(isWholeBody(304, 'application/json', undefined, undefined)).toBe(false);
  });
});

/** Next's own compression middleware, which its router puts on every response after ours. */
const nextCompression = createRequire(import.meta.url)('next/dist/compiled/compression') as () => (
  req: IncomingMessage,
  res: ServerResponse,
  next: () => void,
) => void;

/** Writes as Next's pipe does: flush the headers, write each chunk, wait for 'drain' on backpressure. */
async function pipeLikeNext(res: ServerResponse, chunks: (string | Buffer)[]): Promise<void> {
  res.flushHeaders();
  for (const chunk of chunks) {
    if (!res.write(chunk)) await new Promise<void>((resolve) => res.once('drain', resolve));
  }
  res.end();
}

describe('compressApiResponse', () => {
  const big = JSON.stringify({
    nodes: Array.from({ length: 200 }, (_, i) => ({ id: `n${i}`, tool: 'read_file' })),
  });
  const seen: { acceptEncoding?: string } = {};
  const held = { discard: () => {} };
  // Each path answers the way one kind of Next response does.
  const answers: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    // A route handler: headers set one by one, headers flushed, the body in chunks, then end().
    '/api/chunks': (_req, res) => {
      res.statusCode = 200;
      res.setHeader('content-type', 'application/json');
      res.setHeader('vary', 'rsc');
      res.flushHeaders();
      res.write(big.slice(0, 100));
      res.write(Buffer.from(big.slice(100, 500)));
      res.end(new TextEncoder().encode(big.slice(500)));
    },
    '/api/write-head': (_req, res) => {
      res.writeHead(201, 'Made', { 'Content-Type': 'application/json', 'X-Id': 'wf_1' }).end(big);
    },
    '/api/small': (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    },
    // The plan and a test-run's events: one JSON line at a time.
    '/api/events': (_req, res) => {
      res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
      res.flushHeaders();
      res.write('{"n":1}\n');
      setTimeout(() => res.end('{"n":2}\n'), 20);
    },
    '/api/no-content': (_req, res) => {
      res.writeHead(204).end();
    },
    // A large binary answer (a run's image) and a large streamed line (a plan's document), each
    // more than the socket takes at once: the writer must get its 'drain'.
    '/api/image': (_req, res) => {
      res.setHeader('content-type', 'image/png');
      void pipeLikeNext(res, [Buffer.alloc(256 * 1024, 7)]);
    },
    '/api/big-lines': (_req, res) => {
      res.setHeader('content-type', 'application/x-ndjson; charset=utf-8');
      void pipeLikeNext(res, [`${JSON.stringify({ doc: big.repeat(20) })}\n`, '{"n":2}\n']);
    },
    // A handler that fails after writing part of its answer; the server answers 500 alone.
    '/api/fails': (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.write('{"partial":');
      setImmediate(() => {
        held.discard();
        res.statusCode = 500;
        res.setHeader('content-type', 'text/plain; charset=utf-8');
        res.end('Internal Server Error');
      });
    },
    '/page': (_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(big);
    },
  };
  let server: http.Server;
  let base: string;
  const compress = nextCompression();

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      held.discard = compressApiResponse(req, res);
      seen.acceptEncoding = req.headers['accept-encoding'];
      compress(req, res, () => {});
      answers[new URL(req.url ?? '/', 'http://x').pathname]!(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function get(path: string, acceptEncoding?: string, method = 'GET') {
    return new Promise<{
      status: number;
      reason: string | undefined;
      headers: http.IncomingHttpHeaders;
      body: Buffer;
      chunks: number;
    }>((resolve, reject) => {
      const req = http.request(
        `${base}${path}`,
        { method, agent: false, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (part: Buffer) => parts.push(part));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              reason: res.statusMessage,
              headers: res.headers,
              body: Buffer.concat(parts),
              chunks: parts.length,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it('gzips a route handler answer written in chunks, in one piece with its length', async () => {
    const res = await get('/api/chunks', 'gzip, deflate, br');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.headers.vary).toBe('rsc, Accept-Encoding');
    expect(gunzipSync(res.body).toString()).toBe(big);
  });

  it('hides Accept-Encoding from the handler, so Next does not compress the answer again', async () => {
    await get('/api/chunks', 'gzip');
    expect(seen.acceptEncoding).toBeUndefined();
    await get('/page', 'gzip');
    expect(seen.acceptEncoding).toBe('gzip');
  });

  it('keeps the status, reason and headers given to writeHead', async () => {
    const res = await get('/api/write-head', 'gzip');
    expect(res.status).toBe(201);
    expect(res.reason).toBe('Made');
    expect(res.headers['x-id']).toBe('wf_1');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toBe(big);
  });

  it('sends the body as it is when the client does not take gzip', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'gzip;q=0, br']) {
      const res = await get('/api/chunks', acceptEncoding);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toBe('rsc, Accept-Encoding');
      expect(Number(res.headers['content-length'])).toBe(big.length);
      expect(res.body.toString()).toBe(big);
    }
  });

  it(`leaves bodies under ${MIN_COMPRESSED_BYTES} bytes uncompressed`, async () => {
    const res = await get('/api/small', 'gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe('11');
    expect(res.body.toString()).toBe('{"ok":true}');
  });

  it('streams a line-by-line answer as it is written', async () => {
    const res = await get('/api/events', 'gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.body.toString()).toBe('{"n":1}\n{"n":2}\n');
    expect(res.chunks).toBe(2);
  });

  it('answers without a body and HEAD requests as the handler does', async () => {
    const empty = await get('/api/no-content', 'gzip');
    expect(empty.status).toBe(204);
    expect(empty.body.length).toBe(0);
    const head = await get('/api/chunks', 'gzip', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
  });

  it('drops what was held when the server answers an error instead', async () => {
    const res = await get('/api/fails', 'gzip');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body.toString()).toBe('Internal Server Error');
  });

  it('leaves answers outside the API to Next, which compresses them as a stream', async () => {
    const res = await get('/page', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(gunzipSync(res.body).toString()).toBe(big);
  });

  it("lets a large streamed or binary answer finish, under Next's compression middleware", async () => {
    const image = await get('/api/image', 'gzip');
    expect(image.status).toBe(200);
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body.equals(Buffer.alloc(256 * 1024, 7))).toBe(true);
    const lines = await get('/api/big-lines', 'gzip');
    expect(lines.headers['content-encoding']).toBeUndefined();
    expect(lines.body.toString()).toBe(`${JSON.stringify({ doc: big.repeat(20) })}\n{"n":2}\n`);
  });
});
