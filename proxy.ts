/**
 * Gives every browser its anonymous owner identity on its first page visit (lib/http/owner.ts),
 * so the page rendering that request, and every API call after it, already act for the same
 * owner (otherwise two tabs opened before the first save would each mint a different owner).
 * API routes issue the cookie themselves for clients that never load a page.
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

export function proxy(request: NextRequest) {
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

export const config = {
  // Pages only: not the API (it answers for itself), not static files or Next's own assets.
  matcher: ['/((?!api/|_next/|favicon\\.ico|.*\\.[a-zA-Z0-9]+$).*)'],
};
