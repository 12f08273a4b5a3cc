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
/** A share link's page, and the rendered copies of shared versions (reached only by rewrite). */
const SHARE_PAGE = /^\/s\/([^/]+)\/?$/;
const SHARED_VERSION_PAGE = /^\/s\/v(?:\/|$)/;
/**
 * Marks a request this proxy rewrote to a rendered copy after checking its link: Next runs the
 * proxy again for the rewritten path, where a request without the mark (one from outside) is
 * refused. The value is derived from TOOLFLOW_SECRET, so no client can send it and every
 * instance of a deployment accepts another's (a copy asked for through TOOLFLOW_PUBLIC_URL may
 * be answered by any of them).
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
/** Requests for the page's RSC payload (client navigation, prefetch) rather than its HTML. */
const RSC_REQUEST_HEADERS = [
  'rsc',
  'next-router-prefetch',
  'next-router-state-tree',
  'next-router-segment-prefetch',
];

export function proxy(request: NextRequest): Response | Promise<Response> {
  const problem = getSecretConfigProblem(process.env);
  if (problem) return getMisconfiguredResponse(problem);
  const { pathname } = request.nextUrl;
  if (NOT_A_PAGE.test(pathname)) return NextResponse.next();
  if (SHARE_PAGE.test(pathname) || SHARED_VERSION_PAGE.test(pathname)) {
    return getShareTarget(request).then(
      (target) => serveRendered(request, target) ?? withOwner(request, target),
    );
  }
  return withOwner(request, undefined);
}

/** On to the page (or `target`), giving a browser without a valid owner cookie its owner. */
function withOwner(request: NextRequest, target: URL | undefined): NextResponse {
  if (hasOwner(request)) return forward(request, target);
  const ownerId = createOwnerId();
  // The page renders from the request: give it the cookie too, so `cookies()` sees the new owner.
  const headers = new Headers(request.headers);
  const others = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c && !c.startsWith(`${OWNER_COOKIE}=`));
  headers.set('cookie', [...others, `${OWNER_COOKIE}=${signOwnerCookie(ownerId)}`].join('; '));
  const response = forward(request, target, headers);
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
 * The rendered copy `target` names, answered from this process's memory, or undefined to let Next
 * serve it (the first request for a version, RSC requests, development). A first request also
 * starts filling the memory: this process asks for the copy Next rendered, over HTTP (its own
 * loopback address, or TOOLFLOW_PUBLIC_URL when set: fetchRendered). What comes back is the same
 * page Next serves: the link was checked just before (getShareTarget), and next.config's headers
 * and the owner cookie are added as for any page.
 */
function serveRendered(request: NextRequest, target: URL | undefined): Response | undefined {
  if (!target || !SHARED_VERSION_PAGE.test(target.pathname)) return undefined;
  if (process.env.NODE_ENV !== 'production') return undefined;
  if (RSC_REQUEST_HEADERS.some((name) => request.headers.has(name))) return undefined;
  const key = target.pathname;
  const page = renderedPages.get(key);
  if (!page) {
    void renderedPages.fill(key, () => fetchRendered(key));
    return undefined;
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
 * Where a page request goes: a live share link to the rendered copy of its workflow's current
 * version, `/s/v/<token hash>/<version>`, which Next renders once and then serves from its cache.
 * The check is one indexed row per request (getLiveShare), so a revoked or expired link is refused
 * on the very next request. A link that is not live, or a database that cannot answer, goes on to
 * the page itself (app/s/[token]), which answers 404 or the error. The rendered copies are not
 * reachable from outside: asked for directly, they answer the share page's 404.
 */
async function getShareTarget(request: NextRequest): Promise<URL | undefined> {
  const { pathname } = request.nextUrl;
  // Asked for from outside, the rendered copies answer the share page's 404.
  if (SHARED_VERSION_PAGE.test(pathname)) {
    return request.headers.get(CHECKED_HEADER) === getCheckedValue() ? undefined : samePath(request, '/s/-');
  }
  const token = SHARE_PAGE.exec(pathname)?.[1];
  if (!token || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
  let live;
  try {
    live = await getLiveShare(await getPrisma(), token);
  } catch {
    return undefined;
  }
  // A "can edit" link is never the read-only copy: its page asks the holder to sign in and opens
  // the editor (app/s/[token], docs/design.md §13.4).
  if (!live || live.share.role !== 'viewer') return undefined;
  return samePath(request, `/s/v/${live.tokenHash}/${live.version}`);
}

/** `pathname` on this request's own origin, as Next's rewrites expect it (nextUrl, not `request.url`). */
function samePath(request: NextRequest, pathname: string): URL {
  const url = request.nextUrl.clone();
  url.pathname = pathname;
  url.search = '';
  return url;
}

/** On to `target` (a rewrite) or to the page asked for, with the request's headers replaced if given. */
function forward(request: NextRequest, target: URL | undefined, headers?: Headers): NextResponse {
  if (!target) return NextResponse.next(headers ? { request: { headers } } : undefined);
  const marked = new Headers(headers ?? request.headers);
  if (SHARED_VERSION_PAGE.test(target.pathname)) marked.set(CHECKED_HEADER, getCheckedValue());
  return NextResponse.rewrite(target, { request: { headers: marked } });
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
