/**
 * Better Auth's endpoints (lib/http/auth.ts): sign-up, sign-in, sign-out, the session, password
 * and session management, under /api/auth/*. Before Better Auth sees a request, a state-changing
 * one must come from our own pages (lib/http/csrf.ts), and a sign-in or sign-up counts against
 * the app's rate limiter by client address, so a password cannot be guessed at speed from one
 * place.
 */
import { toNextJsHandler } from 'better-auth/next-js';
import { getAuth } from '@/lib/http/auth';
import { readJson } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { withErrors } from '@/lib/http/errors';
import { createRateLimiter, enforceRateLimit, getClientAddress } from '@/lib/http/rate-limit';

export const dynamic = 'force-dynamic';

/** Sign-ins and sign-ups per client address: enough for a team behind one address. */
const signIns = createRateLimiter({
  name: 'sign-ins',
  limit: Number(process.env.TOOLFLOW_SIGN_IN_LIMIT ?? 30),
  windowMs: 60_000,
});

const SIGN_IN_PATH = /\/api\/auth\/sign-(in|up)\//;

async function handle(request: Request): Promise<Response> {
  const auth = await getAuth();
  const { GET, POST } = toNextJsHandler(auth);
  return request.method === 'GET' ? GET(request) : POST(request);
}

export const GET = withErrors(async (request: Request) => handle(request));

export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  if (SIGN_IN_PATH.test(new URL(request.url).pathname))
    await enforceRateLimit(signIns, `addr:${getClientAddress(request)}`, 'sign-in attempts');
  // The body passes the same size, nesting and media-type limits as every route's (lib/http/body.ts)
  // before Better Auth reads it.
  const body = await readJson(request);
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  return handle(new Request(request.url, { method: 'POST', headers, body: JSON.stringify(body) }));
});
