/**
 * Runs before every request (static build assets aside).
 *
 * A server that cannot work says so: in production without a usable `TOOLFLOW_SECRET` (which
 * `npm start` refuses, but `next start` or a platform may start anyway), every request, health
 * included, gets 503 with the reason and how to fix it, instead of a page that fails on its
 * first call with "Something went wrong".
 *
 * Otherwise it gives every browser its anonymous owner identity on its first page visit
 * (lib/http/owner.ts), so the page rendering that request, and every API call after it, already
 * act for the same owner (otherwise two tabs opened before the first save would each mint a
 * different owner). API routes issue the cookie themselves for clients that never load a page.
 */
import { NextResponse, type NextRequest } from 'next/server';
import {
  createOwnerId,
  getOwnerSetCookie,
  isSecureRequest,
  OWNER_COOKIE,
  signOwnerCookie,
  verifyOwnerCookie,
} from '@/lib/http/owner';
import { getSecretConfigProblem } from '@/lib/http/secret-config';

/** Paths that are not pages: the API answers for itself, files need no owner. */
const NOT_A_PAGE = /^\/(?:api\/|_next\/|favicon\.ico$)|\.[a-zA-Z0-9]+$/;

export function proxy(request: NextRequest) {
  const problem = getSecretConfigProblem(process.env);
  if (problem) return getMisconfiguredResponse(request, problem);
  if (NOT_A_PAGE.test(request.nextUrl.pathname)) return NextResponse.next();
  if (verifyOwnerCookie(request.cookies.get(OWNER_COOKIE)?.value)) return NextResponse.next();
  const ownerId = createOwnerId();
  // The page renders from the request: give it the cookie too, so `cookies()` sees the new owner.
  const headers = new Headers(request.headers);
  const others = (request.headers.get('cookie') ?? '')
    .split(';')
    .map((c) => c.trim())
    .filter((c) => c && !c.startsWith(`${OWNER_COOKIE}=`));
  headers.set('cookie', [...others, `${OWNER_COOKIE}=${signOwnerCookie(ownerId)}`].join('; '));
  const response = NextResponse.next({ request: { headers } });
  response.headers.append('set-cookie', getOwnerSetCookie(ownerId, isSecureRequest(request)));
  return response;
}

/** 503 with the reason: JSON for the API (health says "not ready"), plain text for a browser. */
function getMisconfiguredResponse(request: NextRequest, problem: string): Response {
  const headers = { 'cache-control': 'no-store', 'retry-after': '60' };
  if (request.nextUrl.pathname.startsWith('/api/')) {
    return Response.json(
      { ok: false, ready: false, code: 'unavailable:configuration', message: problem },
      { status: 503, headers },
    );
  }
  return new Response(`Toolflow is not configured and cannot serve requests.\n\n${problem}\n`, {
    status: 503,
    headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
  });
}

export const config = {
  // Everything but the build's static chunks and images, which carry no data.
  matcher: ['/((?!_next/static/|_next/image).*)'],
};
