/**
 * Gzip for the API's answers in one call per answer (scripts/web-process.ts puts it in front of
 * Next). Next compresses every answer through a streaming compressor that it flushes after each
 * chunk; for a JSON body that is complete when it is written, setting up that stream cost more
 * than compressing the bytes (about 10 % of the server's CPU in the load test, BENCHMARKS.md,
 * issue 15's sixth and seventh passes). Here an API answer with a JSON or text body is held until
 * it ends and compressed with one `gzipSync` at a cheap level; an answer that streams (any other
 * content type, such as the plan's and a test-run's `application/x-ndjson`) is passed through as
 * it is written, uncompressed. Pages and static files are left to Next, which still compresses
 * them.
 */
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/**
 * zlib's level for the API's answers. Measured on load-test documents of 13–67 KB of JSON
 * (`gzipSync`, Node 20): level 2 takes 0.04–0.07 ms and level 6 (zlib's and Next's default)
 * 0.06–0.33 ms, four times as long from 50 KB on, for output 8–18 % smaller. Answers are made
 * per request, so the cheap level wins; static files stay with Next at its level.
 */
export const GZIP_LEVEL = 2;

/** Bodies shorter than this go out as they are: gzip's header alone is 18 bytes. */
export const MIN_COMPRESSED_BYTES = 1024;

/** The paths whose answers this module compresses (and Next must not). */
export function isApiPath(url: string | undefined): boolean {
  return url !== undefined && (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?'));
}

/**
 * Whether an Accept-Encoding header accepts gzip (RFC 9110 §12.5.3): `gzip` or `x-gzip` with a
 * non-zero weight, or else `*` with one. `gzip;q=0` refuses it even when `*` is listed.
 */
export function isGzipAccepted(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  let named: boolean | undefined;
  let any: boolean | undefined;
  for (const part of text.split(',')) {
    const [token = '', ...params] = part.split(';');
    const coding = token.trim().toLowerCase();
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    let weight = 1;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=');
      if (key.trim().toLowerCase() === 'q') weight = Number(value.trim());
    }
    const accepted = Number.isFinite(weight) && weight > 0;
    if (coding === '*') any = accepted;
    else named = (named ?? false) || accepted;
  }
  return named ?? any ?? false;
}

/** Whether an answer with these headers is held and sent in one piece (and maybe compressed). */
export function isWholeBody(
  status: number,
  contentType: string | undefined,
  contentEncoding: string | undefined,
  cacheControl: string | undefined,
): boolean {
  if (status < 200 || status === 204 || status === 304) return false;
  if (contentEncoding !== undefined && contentEncoding !== '' && contentEncoding !== 'identity') return false;
  if (cacheControl !== undefined && /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cacheControl)) return false;
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json') || type === 'text/plain';
}

function headerText(value: number | string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (typeof chunk === 'string') {
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  }
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('A response body chunk must be a string, Buffer or Uint8Array.');
}

function addVary(res: ServerResponse): void {
  const vary = headerText(res.getHeader('vary') as string | string[] | undefined);
  if (vary === undefined || vary.trim() === '') {
    res.setHeader('Vary', 'Accept-Encoding');
    return;
  }
  const fields = vary.split(',').map((field) => field.trim().toLowerCase());
  if (!fields.includes('accept-encoding') && !fields.includes('*')) {
    res.setHeader('Vary', `${vary}, Accept-Encoding`);
  }
}

function setHeaders(res: ServerResponse, headers: OutgoingHttpHeaders | OutgoingHttpHeader[]): void {
  if (Array.isArray(headers)) {
    // writeHead's flat form: [name, value, name, value, …].
    for (let i = 0; i + 1 < headers.length; i += 2)
      res.appendHeader(String(headers[i]), headers[i + 1] as string);
    return;
  }
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) res.setHeader(name, value);
  }
}

/** Drops what an answer has held so far (see compressApiResponse). */
export type DiscardHeldBody = () => void;

const NOTHING_HELD: DiscardHeldBody = () => {};

/**
 * Takes over compression of an API request's answer: removes its Accept-Encoding (so Next does
 * not compress it again) and makes `res` hold a JSON or text body until it ends, then send it in
 * one piece with a Content-Length, gzip'd when the request accepted gzip and the body is at least
 * MIN_COMPRESSED_BYTES. Call before handing the request to Next; does nothing for other paths.
 * Returns a function that drops what has been held, for a server that answers an error instead
 * after the handler failed part way (the error's body then goes out alone).
 */
export function compressApiResponse(req: IncomingMessage, res: ServerResponse): DiscardHeldBody {
  if (!isApiPath(req.url) || req.method === 'HEAD') return NOTHING_HELD;
  const gzip = isGzipAccepted(req.headers['accept-encoding']);
  delete req.headers['accept-encoding'];

  type Method = (this: ServerResponse, ...args: unknown[]) => unknown;
  const write = res.write as Method;
  const end = res.end as Method;
  const writeHead = res.writeHead as Method;
  const flushHeaders = res.flushHeaders as Method;
  // open: nothing written yet; hold: collecting the body; pass: everything goes straight
  // through; sent: the held body went out, anything later goes straight through. The wrappers
  // stay in place in every mode: Next's compression middleware wraps them in turn (it holds
  // back 'drain' listeners until its header hook runs), and putting the originals back would
  // unhook it and leave a streamed answer waiting for a 'drain' that never comes.
  type Mode = 'open' | 'hold' | 'pass' | 'sent';
  let mode: Mode = 'open';
  const chunks: Buffer[] = [];

  // Decided once, when the answer first writes, ends or sends its headers: by then Next has set
  // the status and every header.
  const decide = (): Mode => {
    if (mode !== 'open') return mode;
    const hold = isWholeBody(
      res.statusCode,
      headerText(res.getHeader('content-type') as string | undefined),
      headerText(res.getHeader('content-encoding') as string | undefined),
      headerText(res.getHeader('cache-control') as string | string[] | undefined),
    );
    mode = hold ? 'hold' : 'pass';
    return mode;
  };

  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (mode === 'pass' || mode === 'sent') return writeHead.apply(this, args);
    const [status, reasonOrHeaders, maybeHeaders] = args;
    this.statusCode = status as number;
    if (typeof reasonOrHeaders === 'string') this.statusMessage = reasonOrHeaders;
    const headers = typeof reasonOrHeaders === 'string' ? maybeHeaders : reasonOrHeaders;
    if (headers && typeof headers === 'object') setHeaders(this, headers as OutgoingHttpHeaders);
    // Held: the head goes out with the body, from end().
    return decide() === 'pass' ? writeHead.call(this, this.statusCode, this.statusMessage) : this;
  } as ServerResponse['writeHead'];

  res.flushHeaders = function (this: ServerResponse) {
    if (decide() !== 'hold') flushHeaders.call(this);
  };

  res.write = function (this: ServerResponse, ...args: unknown[]) {
    if (decide() !== 'hold') return write.apply(this, args);
    const [chunk, encoding, callback] = args;
    chunks.push(toBuffer(chunk, encoding));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  } as ServerResponse['write'];

  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (decide() !== 'hold') return end.apply(this, args);
    mode = 'sent';
    const [chunk, encoding, callback] = args;
    let done = callback;
    if (typeof chunk === 'function') done = chunk;
    else if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, encoding));
    if (typeof encoding === 'function') done = encoding;
    let body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    chunks.length = 0;
    addVary(this);
    if (gzip && body.length >= MIN_COMPRESSED_BYTES) {
      body = gzipSync(body, { level: GZIP_LEVEL });
      this.setHeader('Content-Encoding', 'gzip');
    }
    this.removeHeader('Transfer-Encoding');
    this.setHeader('Content-Length', body.length);
    return typeof done === 'function' ? end.call(this, body, done) : end.call(this, body);
  } as ServerResponse['end'];

  return () => {
    chunks.length = 0;
  };
}
