/**
 * Runs before every page request (not the API, not static build assets; see `config`).
 *
 * A server that cannot work says so: in production without a usable `TOOLFLOW_SECRET` (which
 * `npm start` refuses, but `next start` or a platform may start anyway), every page gets 503
 * with the reason and how to fix it, instead of a page that fails on its first call with
 * "Something went wrong"; every API route, health included, answers the same in JSON
 * (withErrors, lib/http/errors.ts).
 *
 * Otherwise it gives every browser its anonymous owner identity on its first page visit
 * (lib/http/owner.ts), so the page rendering that request, and every API call after it, already
 * act for the same owner (otherwise two tabs opened before the first save would each mint a
 * different owner); that answer is `private, no-store`, whatever the page. API routes issue the
 * cookie themselves for clients that never load a page (every API answer is private:
 * next.config.js).
 */
import { createHmac } from 'node:crypto';
import { NextResponse, type NextRequest } from 'next/server';
import {
  createOwnerId,
  getOwnerSecret,
  getOwnerSetCookie,
  isSecureRequest,
  OWNER_COOKIE,
  signOwnerCookie,
  verifyOwnerCookie,
} from '@/lib/http/owner';
import { getOidcConfigProblem } from '@/lib/http/oidc-config';
import { getSecretConfigProblem, MISCONFIGURED_HEADERS } from '@/lib/http/secret-config';
import { getPrisma } from '@/lib/db/client';
import { getLiveShare } from '@/lib/db/shares';
import {
  createRenderedPageCache,
  getRenderedPagesOrigin,
  type RenderedPageCache,
} from '@/lib/http/rendered-pages';

/** Paths that are not pages: files need no owner (the API does not reach here; see `config`). */
const NOT_A_PAGE = /^\/(?:_next\/|favicon\.ico$)|\.[a-zA-Z0-9]+$/;
/** A share link's page, and the rendered copies of shared versions (asked for only by this proxy). */
const SHARE_PAGE = /^\/s\/([^/]+)\/?$/;
const SHARED_VERSION_PAGE = /^\/s\/v(?:\/|$)/;
/**
 * Marks this proxy's own request for a rendered copy (fetchRendered); a request without the mark
 * (one from outside) is refused. The value is derived from TOOLFLOW_SECRET, so no client can send
 * it and every instance of a deployment accepts another's (a copy asked for through
 * TOOLFLOW_PUBLIC_URL may be answered by any of them).
 */
const CHECKED_HEADER = 'x-toolflow-share-checked';
let checkedValue: string | undefined;
function getCheckedValue(): string {
  return (checkedValue ??= createHmac('sha256', getOwnerSecret())
    .update('toolflow rendered share copy')
    .digest('hex'));
}
/**
 * Rendered share pages by `/s/v/<token hash>/<version>`, answered by this proxy after the link's
 * check (serveRendered). 32 MB: a 50-node page is ~50 KB, so ~600 of them.
 * Kept on globalThis so every copy of this module in the process shares one (like the client).
 */
const RENDERED_KEY = Symbol.for('toolflow.renderedSharePages');
const renderedPages: RenderedPageCache = ((globalThis as Record<symbol, RenderedPageCache | undefined>)[
  RENDERED_KEY
] ??= createRenderedPageCache(32 * 1024 * 1024));
/** The page's headers repeated when the proxy answers from memory; Next adds its configured ones. */
const RENDERED_HEADERS = ['content-type', 'link'];
/** What a page that issues the owner cookie may be kept as: by nobody. */
const PRIVATE = 'private, no-store';
/** Says a share page came from the proxy's memory (tests and anyone reading headers). */
const SERVED_FROM_MEMORY_HEADER = 'x-toolflow-share-copy';
/** How long a share page's first request waits for its copy before rendering the page itself. */
const FILL_WAIT_MS = 5_000;
/** The answer to a rendered copy's address asked for from outside. */
const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Not found · Toolflow</title>' +
  '<main><h1>Not found</h1><p>There is nothing at this address.</p></main></html>';
/** Requests for the page's RSC payload (client navigation, prefetch) rather than its HTML. */
const RSC_REQUEST_HEADERS = [
  'rsc',
  'next-router-prefetch',
  'next-router-state-tree',
  'next-router-segment-prefetch',
];

export function proxy(request: NextRequest): Response | Promise<Response> {
  const problem = getSecretConfigProblem(process.env) ?? getOidcConfigProblem(process.env);
  if (problem) return getMisconfiguredResponse(problem);
  const { pathname } = request.nextUrl;
  if (NOT_A_PAGE.test(pathname)) return NextResponse.next();
  if (SHARED_VERSION_PAGE.test(pathname)) {
    // A rendered copy is not an address of its own: only this proxy's marked fill may ask for it.
    return request.headers.get(CHECKED_HEADER) === getCheckedValue() ? NextResponse.next() : getNotFound();
  }
  if (SHARE_PAGE.test(pathname)) {
    return getSharedCopy(request)
      .then((copy) => serveRendered(request, copy))
      .then((served) => served ?? withOwner(request));
  }
  return withOwner(request);
}

/** On to the page asked for, giving a browser without a valid owner cookie its owner. */
function withOwner(request: NextRequest): NextResponse {
  if (hasOwner(request)) return NextResponse.next();
  const ownerId = createOwnerId();
  // The page renders from the request: give it the cookie too, so `cookies()` sees the new owner.
  const headers = new Headers(request.headers);
  const others = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c && !c.startsWith(`${OWNER_COOKIE}=`));
  headers.set('cookie', [...others, `${OWNER_COOKIE}=${signOwnerCookie(ownerId)}`].join('; '));
  const response = NextResponse.next({ request: { headers } });
  issueOwner(response.headers, ownerId, request);
  return response;
}

/**
 * Adds the new owner's cookie to a page's answer, and makes the answer private: a shared cache
 * that kept it would hand every later visitor this identity. Next keeps the Cache-Control it
 * finds on the answer, so even a prerendered page (`s-maxage=31536000` otherwise) goes out so.
 */
function issueOwner(headers: Headers, ownerId: string, request: NextRequest): void {
  headers.append('set-cookie', getOwnerSetCookie(ownerId, isSecureRequest(request)));
  headers.set('cache-control', PRIVATE);
}

function hasOwner(request: NextRequest): boolean {
  return verifyOwnerCookie(request.cookies.get(OWNER_COOKIE)?.value) !== null;
}

/**
 * The rendered copy of a live link's version (`/s/v/<token hash>/<version>`), answered from this
 * process's memory, or undefined to let the page itself (app/s/[token]) render the request: in
 * development, for RSC requests, and when the copy cannot be had. A copy not yet in memory is
 * asked for first, over HTTP (this process's loopback address, or TOOLFLOW_PUBLIC_URL when set:
 * fetchRendered), marked so that the proxy lets it through; Next renders it once and keeps it.
 * Never by a rewrite: with `next start --hostname 127.0.0.1`, Next takes a proxy's rewrite for an
 * external one (its URLs name the host `localhost`, its router `127.0.0.1`) and proxies it over
 * HTTP to itself, which fails on an idle keep-alive socket or behind a TLS-terminating proxy.
 * What comes back is the page Next serves; the link was checked just before (getSharedCopy), and
 * next.config's headers and the owner cookie are added as for any page.
 */
async function serveRendered(request: NextRequest, copy: string | undefined): Promise<Response | undefined> {
  if (!copy || process.env.NODE_ENV !== 'production') return undefined;
  if (RSC_REQUEST_HEADERS.some((name) => request.headers.has(name))) return undefined;
  let page = renderedPages.get(copy);
  if (!page) {
    // A slow render is not waited for long: the page renders this request itself meanwhile.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      renderedPages.fill(copy, () => fetchRendered(copy)),
      new Promise((resolve) => (timer = setTimeout(resolve, FILL_WAIT_MS))),
    ]);
    clearTimeout(timer);
    page = renderedPages.get(copy);
    if (!page) return undefined;
  }
  // Next compresses it for clients that ask (and says so in Vary), as it does every page.
  const headers = new Headers(page.headers);
  headers.set(SERVED_FROM_MEMORY_HEADER, 'memory');
  if (!hasOwner(request)) issueOwner(headers, createOwnerId(), request);
  const body = request.method === 'HEAD' ? null : page.body;
  return new Response(body as BodyInit | null, { status: 200, headers });
}

/**
 * Next's rendered copy at `pathname`, asked of the deployment (TOOLFLOW_PUBLIC_URL) or of this
 * process (getRenderedPagesOrigin), or null when it cannot be had as a plain 200 HTML page.
 */
async function fetchRendered(pathname: string) {
  const { origin } = getRenderedPagesOrigin(process.env);
  if (!origin) return null;
  const response = await fetch(new URL(pathname, origin), {
    headers: { [CHECKED_HEADER]: getCheckedValue(), 'accept-encoding': 'identity' },
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  const body = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html')) return null;
  const headers: [string, string][] = [];
  for (const name of RENDERED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers.push([name, value]);
  }
  return { body, headers };
}

/**
 * The path of the rendered copy of a live share link's current version,
 * `/s/v/<token hash>/<version>`, which Next renders once and then keeps. The check is one indexed
 * row per request (getLiveShare), so a revoked or expired link is refused on the very next
 * request. A link that is not live, or a database that cannot answer, goes on to the page itself
 * (app/s/[token]), which answers 404 or the error.
 */
async function getSharedCopy(request: NextRequest): Promise<string | undefined> {
  const token = SHARE_PAGE.exec(request.nextUrl.pathname)?.[1];
  if (!token || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
  try {
    const live = await getLiveShare(await getPrisma(), token);
    // A "can edit" link is never the read-only copy: its page asks the holder to sign in and opens
    // the editor (app/s/[token], docs/design.md §13.4).
    return live?.share.role === 'viewer' ? `/s/v/${live.tokenHash}/${live.version}` : undefined;
  } catch {
    return undefined;
  }
}

/** What a rendered copy asked for from outside answers: nothing is there. */
function getNotFound(): Response {
  return new Response(NOT_FOUND_PAGE, {
    status: 404,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': PRIVATE },
  });
}

/** 503 with the reason, as plain text for a browser (the API's own routes answer in JSON). */
function getMisconfiguredResponse(problem: string): Response {
  return new Response(`Toolflow is not configured and cannot serve requests.\n\n${problem}\n`, {
    status: 503,
    headers: { ...MISCONFIGURED_HEADERS, 'content-type': 'text/plain; charset=utf-8' },
  });
}

export const config = {
  // Pages only: not the build's static chunks and images, which carry no data, and not the API,
  // whose routes give owners their cookie and answer a misconfigured server's 503 themselves
  // (withErrors). Running this proxy cost an API request about 1 ms of CPU (a bare JSON route:
  // 341 → 501 req/s without it, side by side; BENCHMARKS.md).
  matcher: ['/((?!_next/static/|_next/image|api/).*)'],
};
