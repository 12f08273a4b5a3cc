import 'server-only';
/**
 * Accounts: Better Auth with its Prisma adapter on the app's own database (Postgres or PGlite),
 * e-mail and password, sessions stored in the database (docs/design.md §13). Better Auth hashes
 * the passwords and checks the sessions; nothing here does either by hand.
 *
 * Its secret is `BETTER_AUTH_SECRET` when set, else derived from the owner-cookie key
 * (`TOOLFLOW_SECRET`, or the key generated into the data directory outside production: owner.ts),
 * so a new install needs nothing more and production needs nothing new.
 *
 * Better Auth's own rate limiter is off: sign-in and sign-up count against the app's limiter
 * (lib/http/rate-limit.ts), shared by every instance (app/api/auth/[...all]/route.ts).
 */
import { createHmac } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { createAuthMiddleware } from 'better-auth/api';
import { getPrisma, type Db } from '../db/client';
import {
  claimGuestWorkspace,
  ensurePersonalWorkspace,
  ensureServerWorkspace,
  getPersonalWorkspaceId,
} from '../db/workspaces';
import { claimSampleSpace } from '../mcp/claim-samples';
import { getDataDir } from '../mcp/config';
import { getRequestHost } from './csrf';
import { getOidcPlugins } from './oidc';
import { getOwnerSecret, OWNER_COOKIE, readCookie, verifyOwnerCookie } from './owner';
import { isSignInRequired } from './sign-in';

/** The prefix of Better Auth's cookies: `toolflow.session_token` (`__Secure-` over HTTPS). */
export const AUTH_COOKIE_PREFIX = 'toolflow';
const SESSION_COOKIES = [
  `${AUTH_COOKIE_PREFIX}.session_token`,
  `__Secure-${AUTH_COOKIE_PREFIX}.session_token`,
];

/** Better Auth's secret: configured, or derived from the owner-cookie key. */
export function getAuthSecret(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.BETTER_AUTH_SECRET?.trim();
  if (configured) return configured;
  return createHmac('sha256', getOwnerSecret(env)).update('toolflow better-auth').digest('hex');
}

function createAuth(db: Db) {
  return betterAuth({
    appName: 'Toolflow',
    secret: getAuthSecret(),
    ...(process.env.BETTER_AUTH_URL?.trim() ? { baseURL: process.env.BETTER_AUTH_URL.trim() } : {}),
    basePath: '/api/auth',
    // The host the browser addressed, as the app's own same-origin check reads it (csrf.ts, which
    // every POST passes first): Next may hand Better Auth a request URL naming another host
    // (localhost for 127.0.0.1), which would make its own check refuse our own pages.
    trustedOrigins: (request) => {
      if (!request) return [];
      const host = getRequestHost(request);
      return [`http://${host}`, `https://${host}`];
    },
    database: prismaAdapter(db, { provider: 'postgresql' }),
    emailAndPassword: { enabled: true, minPasswordLength: 8, maxPasswordLength: 256, autoSignIn: true },
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: { cookiePrefix: AUTH_COOKIE_PREFIX },
    // Single sign-on, when configured (oidc.ts); its failures come back to the sign-in page.
    plugins: [...getOidcPlugins()],
    onAPIError: { errorURL: '/sign-in' },
    databaseHooks: {
      user: {
        create: {
          // Every account has a personal workspace from its first moment.
          after: async (user) => {
            await ensurePersonalWorkspace(db, user);
          },
        },
      },
    },
    hooks: {
      // Signing up or in from a browser that worked as a guest moves that work into the account.
      // On a server that requires signing in, the first account becomes the server's owner.
      after: createAuthMiddleware(async (ctx) => {
        const signedIn = ctx.context.newSession;
        // `/callback/:id` is single sign-on's return from the provider (oidc.ts).
        if (!signedIn || !/^\/(sign-(in|up)|callback)\//.test(ctx.path)) return;
        await ensurePersonalWorkspace(db, signedIn.user);
        if (isSignInRequired()) await ensureServerWorkspace(db);
        const guestId = verifyOwnerCookie(readCookie(ctx.headers?.get('cookie') ?? null, OWNER_COOKIE));
        if (guestId && (await claimGuestWorkspace(db, guestId, signedIn.user.id)) !== null)
          await claimGuestSamples(guestId, signedIn.user.id);
      }),
    },
  });
}

/**
 * The guest's sample data (its Memory graph and Files folder) follows its workspace into the
 * account's personal one (docs/design.md §13.2). A failure does not fail the sign-in: what was not
 * moved stays in the guest's folder, and the next sign-in from that browser moves it.
 */
async function claimGuestSamples(guestId: string, userId: string): Promise<void> {
  try {
    await claimSampleSpace(getDataDir(), guestId, getPersonalWorkspaceId(userId));
  } catch (error) {
    console.error(`Could not move guest ${guestId}'s sample data into its account:`, error);
  }
}

export type Auth = ReturnType<typeof createAuth>;

/** One Better Auth per database client (tests point the app at a database of their own). */
const auths: WeakMap<Db, Auth> = ((globalThis as Record<symbol, WeakMap<Db, Auth>>)[
  Symbol.for('toolflow.betterAuth')
] ??= new WeakMap());

/** The app's Better Auth, on the app's database. */
export async function getAuth(): Promise<Auth> {
  const db = await getPrisma();
  let auth = auths.get(db);
  if (!auth) {
    auth = createAuth(db);
    auths.set(db, auth);
  }
  return auth;
}

/** True when the request carries a session cookie at all; guests carry none and skip the lookup. */
export function hasSessionCookie(cookieHeader: string | null): boolean {
  return SESSION_COOKIES.some((name) => readCookie(cookieHeader, name) !== undefined);
}

/** The signed-in user of a request, or null (no cookie, an expired or revoked session). */
export async function getSessionUser(
  headers: Headers,
): Promise<{ id: string; email: string; name: string } | null> {
  if (!hasSessionCookie(headers.get('cookie'))) return null;
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  return session ? { id: session.user.id, email: session.user.email, name: session.user.name } : null;
}
