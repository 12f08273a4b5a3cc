import { describe, expect, it } from 'vitest';
import { getCallerHeaders, setUpCaller, updateCookieJar, type Credentials, type SetupPost } from './callers';
import type { HttpReply } from './http';
import { getServerEnv, parseArgs } from './index';

const reply = (status: number, body: unknown, headers: HttpReply['headers'] = {}): HttpReply => ({
  status,
  headers,
  text: JSON.stringify(body),
});

/** A fake server: sign-up sets the session cookie, tokens answer a secret; every call is kept. */
function createServer(answers: { signUp?: HttpReply[] } = {}) {
  const calls: { path: string; body: unknown; headers: Record<string, string> }[] = [];
  const signUps = [...(answers.signUp ?? [])];
  const post: SetupPost = async (path, body, credentials) => {
    calls.push({ path, body, headers: getCallerHeaders(credentials) });
    if (path === '/api/auth/sign-up/email')
      return (
        signUps.shift() ??
        reply(
          200,
          { user: { id: 'u1' } },
          { 'set-cookie': ['toolflow.session_token=abc.sig; Path=/; HttpOnly'] },
        )
      );
    if (path === '/api/account/tokens') return reply(201, { token: { id: 't1' }, secret: 'tft_secret' });
    return reply(404, {});
  };
  return { post, calls };
}

describe('--callers', () => {
  it('is guests unless asked, and takes only the three kinds', () => {
    expect(parseArgs([]).callers).toBe('guests');
    expect(parseArgs(['--callers', 'accounts']).callers).toBe('accounts');
    expect(parseArgs(['--callers=tokens']).callers).toBe('tokens');
    expect(() => parseArgs(['--callers', 'robots'])).toThrow(/guests, accounts, tokens/);
  });

  it('lets the started server take every sign-up of the run, without touching a limit already set', () => {
    expect(getServerEnv({ callers: 'guests', owners: 40 }, {})).toEqual({});
    expect(getServerEnv({ callers: 'accounts', owners: 40 }, {})).toEqual({ TOOLFLOW_SIGN_IN_LIMIT: '50' });
    expect(getServerEnv({ callers: 'tokens', owners: 40 }, { TOOLFLOW_SIGN_IN_LIMIT: '5' })).toEqual({});
  });
});

describe('the cookie jar', () => {
  it('keeps, replaces and drops cookies as a browser does', () => {
    let jar = updateCookieJar('', ['toolflow_owner=o1.sig; Path=/; HttpOnly']);
    expect(jar).toBe('toolflow_owner=o1.sig');
    jar = updateCookieJar(jar, ['toolflow.session_token=s1; Path=/', 'toolflow_owner=o2; Path=/']);
    expect(jar).toBe('toolflow_owner=o2; toolflow.session_token=s1');
    expect(updateCookieJar(jar, ['toolflow_owner=; Max-Age=0'])).toBe('toolflow.session_token=s1');
    expect(updateCookieJar(jar, undefined)).toBe(jar);
  });

  it('sends a token instead of any cookie', () => {
    expect(getCallerHeaders({ cookie: 'a=1', bearer: 'tft_x' })).toEqual({ authorization: 'Bearer tft_x' });
    expect(getCallerHeaders({ cookie: 'a=1' })).toEqual({ cookie: 'a=1' });
    expect(getCallerHeaders({ cookie: '' })).toEqual({});
  });
});

describe('setting up a caller', () => {
  it('leaves a guest to its first request', async () => {
    const server = createServer();
    const credentials: Credentials = { cookie: '' };
    await setUpCaller('guests', 0, 'run', server.post, credentials);
    expect(server.calls).toEqual([]);
    expect(credentials).toEqual({ cookie: '' });
  });

  it('signs an account up and keeps its session cookie', async () => {
    const server = createServer();
    const credentials: Credentials = { cookie: '' };
    await setUpCaller('accounts', 3, 'run1', server.post, credentials);
    expect(server.calls.map((c) => c.path)).toEqual(['/api/auth/sign-up/email']);
    expect(server.calls[0].body).toMatchObject({ email: 'load-run1-3@example.test' });
    expect(credentials).toEqual({ cookie: 'toolflow.session_token=abc.sig' });
  });

  it("makes a token of the account's personal workspace and then sends no cookies", async () => {
    const server = createServer();
    const credentials: Credentials = { cookie: '' };
    await setUpCaller('tokens', 1, 'run', server.post, credentials);
    expect(server.calls[1]).toEqual({
      path: '/api/account/tokens',
      body: { name: 'load 1', workspaceId: 'own_personal_u1' },
      headers: { cookie: 'toolflow.session_token=abc.sig' },
    });
    expect(credentials).toEqual({ cookie: '', bearer: 'tft_secret' });
  });

  it('waits out a 429 on sign-up, and says what the server answered when it fails', async () => {
    const limited = reply(429, { code: 'rate_limited' }, { 'retry-after': '0' });
    const retried = createServer({ signUp: [limited] });
    const credentials: Credentials = { cookie: '' };
    await setUpCaller('accounts', 0, 'run', retried.post, credentials);
    expect(retried.calls).toHaveLength(2);
    expect(credentials.cookie).toContain('session_token=');

    const refused = createServer({ signUp: [reply(422, { code: 'USER_ALREADY_EXISTS' })] });
    await expect(setUpCaller('accounts', 0, 'run', refused.post, { cookie: '' })).rejects.toThrow(
      /sign-up answered 422.*USER_ALREADY_EXISTS/,
    );
  });
});
