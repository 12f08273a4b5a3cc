/**
 * Who the simulated owners are (`--callers`), as docs/design.md §13.3 tells requests apart:
 * - `guests`: a browser with no account, known by the owner cookie its first request is issued;
 * - `accounts`: a browser signed up with e-mail and password, known by Better Auth's session
 *   cookie, which its jar keeps from the sign-up's answer;
 * - `tokens`: a script with an API token of that account's personal workspace (§13.5), sent as
 *   `Authorization: Bearer tft_…` and no cookies at all.
 * Sign-ups and tokens are made during the set-up, before the timed run.
 */
import type { HttpReply } from './http';

export const CALLERS = ['guests', 'accounts', 'tokens'] as const;
export type Callers = (typeof CALLERS)[number];

/** `raw` as a kind of caller; throws naming the ones there are. */
export function parseCallers(raw: string): Callers {
  if ((CALLERS as readonly string[]).includes(raw)) return raw as Callers;
  throw new Error(`--callers must be one of ${CALLERS.join(', ')}, not "${raw}"`);
}

/** What a caller sends to be known: its jar's cookies, or its token. */
export interface Credentials {
  /** The `cookie` header: `name=value` pairs joined by "; " (empty: none yet). */
  cookie: string;
  /** An API token's secret, sent instead of any cookie. */
  bearer?: string;
}

/** The headers that make a request the caller's. */
export function getCallerHeaders(credentials: Credentials): Record<string, string> {
  if (credentials.bearer) return { authorization: `Bearer ${credentials.bearer}` };
  return credentials.cookie ? { cookie: credentials.cookie } : {};
}

/**
 * The cookie header after an answer's `set-cookie` lines, as a browser's jar keeps it: a cookie
 * set again replaces its old value, one set empty or with `Max-Age=0` is dropped.
 */
export function updateCookieJar(cookie: string, setCookie: readonly string[] | undefined): string {
  if (!setCookie?.length) return cookie;
  const jar = new Map<string, string>();
  for (const pair of cookie.split('; ').filter(Boolean)) {
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
  for (const line of setCookie) {
    const [pair, ...attributes] = line.split(';');
    const at = pair.indexOf('=');
    if (at < 1) continue;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age\s*=\s*(0|-\d+)\s*$/i.test(a));
    if (!value || expired) jar.delete(name);
    else jar.set(name, value);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** Sends a POST with a JSON body as the caller and gives the answer (a request of the set-up). */
export type SetupPost = (path: string, body: unknown, credentials: Credentials) => Promise<HttpReply>;

/** Sign-up attempts when the server answers 429 (a server given with --server-url may limit them). */
const SIGN_UP_ATTEMPTS = 3;

/**
 * Makes owner `index` the kind of caller asked for: an account signed up (its session cookie in
 * `credentials`), or that account's API token with the cookies dropped. A guest needs nothing
 * here (its first request issues its cookie). Throws with what the server answered.
 */
export async function setUpCaller(
  callers: Callers,
  index: number,
  runId: string,
  post: SetupPost,
  credentials: Credentials,
): Promise<void> {
  if (callers === 'guests') return;
  const signUp = await postSignUp(post, index, runId, credentials);
  if (signUp.status !== 200)
    throw new Error(`sign-up answered ${signUp.status}: ${signUp.text.slice(0, 200)}`);
  credentials.cookie = updateCookieJar(credentials.cookie, toLines(signUp.headers['set-cookie']));
  if (!credentials.cookie.includes('session_token='))
    throw new Error('sign-up answered without a session cookie');
  if (callers === 'accounts') return;
  const userId = (JSON.parse(signUp.text) as { user?: { id?: string } }).user?.id;
  if (!userId) throw new Error(`sign-up answered without a user id: ${signUp.text.slice(0, 200)}`);
  // The personal workspace's id (lib/db/workspaces.ts, getPersonalWorkspaceId).
  const made = await post(
    '/api/account/tokens',
    { name: `load ${index}`, workspaceId: `own_personal_${userId}` },
    credentials,
  );
  if (made.status !== 201)
    throw new Error(`token creation answered ${made.status}: ${made.text.slice(0, 200)}`);
  credentials.bearer = (JSON.parse(made.text) as { secret: string }).secret;
  credentials.cookie = '';
}

/** POSTs the sign-up of owner `index`, waiting out a 429 (SIGN_UP_ATTEMPTS in all). */
async function postSignUp(
  post: SetupPost,
  index: number,
  runId: string,
  credentials: Credentials,
): Promise<HttpReply> {
  const body = {
    email: `load-${runId}-${index}@example.test`,
    password: `load-${runId}-pw`,
    name: `Load ${index}`,
  };
  for (let attempt = 1; ; attempt++) {
    const reply = await post('/api/auth/sign-up/email', body, credentials);
    if (reply.status !== 429 || attempt === SIGN_UP_ATTEMPTS) return reply;
    const seconds = Number(reply.headers['retry-after'] ?? 5);
    await new Promise((resolve) => setTimeout(resolve, Math.min(60, seconds) * 1000));
  }
}

function toLines(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  return Array.isArray(header) ? header : [header];
}
