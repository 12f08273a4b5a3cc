import 'server-only';
/**
 * The only way Toolflow fetches a user-given MCP URL. Refuses schemes other than http(s),
 * credentials in the URL, and any host that is or resolves to a non-public address (every
 * address DNS returns is checked, then the connection is pinned to those addresses so a second
 * lookup cannot change the answer); follows redirects itself and re-checks every hop; caps the
 * bytes read. It builds each request from the transport's own headers only, so nothing from
 * the user's browser request (cookies, authorization) can ever be forwarded.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { type LookupFunction } from 'node:net';
import { err, ok, type Result } from '../result';
import { describeAddressKind, getAddressKind, isIpLiteral, type AddressKind } from './ip-ranges';

/** Resolves a host name to every address it has (injectable for tests). */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

export interface UrlGuardOptions {
  /** `TOOLFLOW_MCP_ALLOW_PRIVATE=1`: allow loopback and private addresses (tests, local dev). */
  allowPrivate: boolean;
  /** Host names (or IP literals) allowed whatever they resolve to: one internal MCP server
   * without opening every private address (`TOOLFLOW_MCP_ALLOW_HOSTS=mcp.internal,10.0.0.5`). */
  allowHosts?: readonly string[];
  resolve?: ResolveHost;
}

export interface UrlRefusal {
  code: 'bad_url' | 'bad_scheme' | 'credentials_in_url' | 'blocked_host' | 'blocked_address' | 'dns_failed';
  message: string;
  url: string;
  address?: string;
  kind?: AddressKind;
}

/** A URL that passed the guard, with the addresses the connection must use. */
export interface CheckedUrl {
  url: URL;
  addresses: LookupAddress[];
}

/** Host names that name this machine or a metadata service whatever DNS says. */
const BLOCKED_HOSTNAMES = ['localhost', 'metadata.google.internal', 'metadata.goog', 'instance-data'];

const WHAT_TO_DO =
  'Use the public http(s) address of the MCP server; an administrator can allow private addresses with TOOLFLOW_MCP_ALLOW_PRIVATE=1.';

/** True when the environment allows private MCP addresses (`TOOLFLOW_MCP_ALLOW_PRIVATE=1`). */
export function isPrivateAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return env.TOOLFLOW_MCP_ALLOW_PRIVATE === '1' || env.TOOLFLOW_MCP_ALLOW_PRIVATE === 'true';
}

/** The host names `TOOLFLOW_MCP_ALLOW_HOSTS` allows (comma-separated, case-insensitive). */
export function getAllowedHosts(env: Record<string, string | undefined> = process.env): string[] {
  return (env.TOOLFLOW_MCP_ALLOW_HOSTS ?? '')
    .split(',')
    .map((host) =>
      host
        .trim()
        .replace(/^\[|\]$/g, '')
        .toLowerCase(),
    )
    .filter(Boolean);
}

const defaultResolve: ResolveHost = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/**
 * Check one URL before any byte is sent to it. Resolves the host and checks every address, so a
 * public-looking name that points at 127.0.0.1 is refused like the literal.
 */
export async function checkMcpUrl(
  input: string | URL,
  options: UrlGuardOptions,
): Promise<Result<CheckedUrl, UrlRefusal>> {
  const text = String(input);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return err({
      code: 'bad_url',
      url: text,
      message: `"${text}" is not a valid URL. Give a full address such as https://mcp.example.com/mcp.`,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return err({
      code: 'bad_scheme',
      url: text,
      message: `${url.protocol} URLs are not allowed for MCP servers; only http: and https: are.`,
    });
  }
  if (url.username || url.password) {
    return err({
      code: 'credentials_in_url',
      url: text,
      message:
        'The MCP URL contains a user name or password; Toolflow never sends credentials to MCP servers. Remove the "user:password@" part.',
    });
  }
  const hostname = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const allowed = options.allowPrivate || (options.allowHosts ?? []).includes(hostname);
  if (isIpLiteral(hostname)) {
    const family = hostname.includes(':') ? 6 : 4;
    const refusal = allowed ? undefined : refuseAddress(text, hostname);
    return refusal ? err(refusal) : ok({ url, addresses: [{ address: hostname, family }] });
  }
  if (!allowed && (BLOCKED_HOSTNAMES.includes(hostname) || hostname.endsWith('.localhost'))) {
    return err({
      code: 'blocked_host',
      url: text,
      message: `The host "${hostname}" names this server or a metadata service, so it is refused. ${WHAT_TO_DO}`,
    });
  }
  let addresses: LookupAddress[];
  try {
    addresses = await (options.resolve ?? defaultResolve)(hostname);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return err({
      code: 'dns_failed',
      url: text,
      message: `The host "${hostname}" could not be resolved (${reason}). Check the spelling of the MCP URL.`,
    });
  }
  if (addresses.length === 0) {
    return err({
      code: 'dns_failed',
      url: text,
      message: `The host "${hostname}" has no addresses. Check the spelling of the MCP URL.`,
    });
  }
  for (const { address } of addresses) {
    const refusal = allowed ? undefined : refuseAddress(text, address, hostname);
    if (refusal) return err(refusal);
  }
  return ok({ url, addresses });
}

function refuseAddress(url: string, address: string, hostname?: string): UrlRefusal | undefined {
  const kind = getAddressKind(address);
  if (kind === 'public') return undefined;
  const where = hostname
    ? `"${hostname}" resolves to ${address}, ${describeAddressKind(kind)}`
    : `${address} is ${describeAddressKind(kind)}`;
  return {
    code: 'blocked_address',
    url,
    address,
    kind,
    message: `The MCP URL is refused: ${where}. ${WHAT_TO_DO}`,
  };
}

/** Thrown by the guarded fetch; the MCP client turns it into an error value with the step. */
export class UrlRefusedError extends Error {
  constructor(readonly refusal: UrlRefusal) {
    super(refusal.message);
    this.name = 'UrlRefusedError';
  }
}

/** Thrown (as a stream error) when a response is larger than the cap. */
export class ResponseTooLargeError extends Error {
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`The response from ${url} is larger than ${maxBytes} bytes, the limit for MCP servers.`);
    this.name = 'ResponseTooLargeError';
  }
}

export interface GuardedFetchOptions extends UrlGuardOptions {
  /** Largest response body read, in bytes. */
  maxBytes: number;
  /** Longest wait for response headers, in milliseconds. */
  timeoutMs: number;
  /** Redirect hops followed (each re-checked). */
  maxRedirects?: number;
}

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Headers never sent to an MCP server, whoever set them. */
const STRIPPED_HEADERS = ['cookie', 'cookie2', 'authorization', 'proxy-authorization'];

/**
 * A `fetch` for the MCP SDK transports that applies the URL guard to every request and every
 * redirect hop, pins the connection to the checked addresses and caps the response size. This
 * is the connect-time check every MCP HTTP connection passes, whatever was checked before.
 */
export function createGuardedFetch(options: GuardedFetchOptions): FetchLike {
  const maxRedirects = options.maxRedirects ?? 5;
  // Each host is resolved once for the life of this fetch (one MCP session): every later
  // request to it checks and pins the same addresses. Resolving again would only give a
  // rebinding DNS server another answer to slip in; the addresses stay the checked ones.
  const resolve = options.resolve ?? defaultResolve;
  const resolved = new Map<string, Promise<LookupAddress[]>>();
  const guard: UrlGuardOptions = {
    ...options,
    resolve: (hostname) => {
      let addresses = resolved.get(hostname);
      if (!addresses) {
        addresses = resolve(hostname);
        resolved.set(hostname, addresses);
        addresses.catch(() => resolved.delete(hostname));
      }
      return addresses;
    },
  };
  return async function guardedFetch(input, init = {}) {
    let url = String(input);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = toBody(init.body);
    const headers = new Headers(init.headers);
    for (const name of STRIPPED_HEADERS) headers.delete(name);

    for (let hop = 0; ; hop++) {
      const checked = await checkMcpUrl(url, guard);
      if (!checked.ok) throw new UrlRefusedError(checked.error);
      const response = await sendOnce(
        checked.value,
        method,
        headers,
        body,
        init.signal ?? undefined,
        options,
      );
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || !location || init.redirect === 'manual')
        return response;
      await response.body?.cancel();
      if (init.redirect === 'error') throw new TypeError(`Redirect from ${url} refused (redirect: "error").`);
      if (hop >= maxRedirects)
        throw new TypeError(`Too many redirects (more than ${maxRedirects}) starting at ${String(input)}.`);
      const next = new URL(location, url);
      if (next.origin !== new URL(url).origin) headers.delete('mcp-session-id');
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      url = next.href;
    }
  };
}

function toBody(body: RequestInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  throw new TypeError('The MCP guarded fetch only sends string or byte bodies.');
}

function sendOnce(
  checked: CheckedUrl,
  method: string,
  headers: Headers,
  body: Buffer | undefined,
  signal: AbortSignal | undefined,
  options: GuardedFetchOptions,
): Promise<Response> {
  const { url, addresses } = checked;
  // The connection uses exactly the addresses that were checked.
  const pinnedLookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    const usable = lookupOptions.family
      ? addresses.filter((a) => a.family === lookupOptions.family)
      : addresses;
    const list = usable.length ? usable : addresses;
    if (lookupOptions.all) (callback as (e: null, a: LookupAddress[]) => void)(null, list);
    else callback(null, list[0].address, list[0].family);
  };
  const outgoing: Record<string, string> = {};
  headers.forEach((value, name) => (outgoing[name] = value));
  if (body) outgoing['content-length'] = String(body.length);

  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, { method, headers: outgoing, lookup: pinnedLookup, agent: false });
    const onAbort = () =>
      request.destroy(
        signal?.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'),
      );
    signal?.addEventListener('abort', onAbort, { once: true });
    const headerTimer = setTimeout(
      () => request.destroy(new Error(`No response from ${url.origin} within ${options.timeoutMs} ms.`)),
      options.timeoutMs,
    );
    request.on('error', (error) => {
      clearTimeout(headerTimer);
      signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    request.on('response', (incoming) => {
      clearTimeout(headerTimer);
      incoming.on('close', () => signal?.removeEventListener('abort', onAbort));
      const status = incoming.statusCode ?? 0;
      const responseHeaders = new Headers();
      for (let i = 0; i < incoming.rawHeaders.length; i += 2)
        responseHeaders.append(incoming.rawHeaders[i], incoming.rawHeaders[i + 1]);
      const declared = Number(incoming.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        incoming.destroy();
        return reject(new ResponseTooLargeError(url.href, options.maxBytes));
      }
      const noBody = status === 204 || status === 205 || status === 304 || method === 'HEAD';
      if (noBody) incoming.resume();
      const stream = noBody
        ? null
        : capBytes(Readable.toWeb(incoming) as ReadableStream<Uint8Array>, url.href, options.maxBytes);
      try {
        resolve(
          new Response(stream, { status, statusText: incoming.statusMessage, headers: responseHeaders }),
        );
      } catch (error) {
        incoming.destroy();
        reject(error);
      }
    });
    request.end(body);
  });
}

function capBytes(
  stream: ReadableStream<Uint8Array>,
  url: string,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  let seen = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new ResponseTooLargeError(url, maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
}
