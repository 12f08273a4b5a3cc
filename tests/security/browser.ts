/**
 * A test browser for calling route handlers directly: it keeps every cookie it is given (the
 * owner cookie, Better Auth's session, the workspace), as a real browser would, so one object is
 * one caller of the access tables (docs/design.md §13.3).
 */
import { expect } from 'vitest';
import { POST as authPost } from '@/app/api/auth/[...all]/route';
import { jsonRequest } from '@/tests/db';

/** `bearer`: an API token sent as `Authorization: Bearer` with every request (docs/design.md §13.5). */
export function createBrowser(bearer?: string) {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  return {
    cookie,
    async send(
      handler: (request: Request, context: { params: Promise<never> }) => Promise<Response>,
      method: string,
      url: string,
      body?: unknown,
      params: Record<string, string> = {},
    ): Promise<Response> {
      const request = jsonRequest(url, method, body, {
        ...(jar.size ? { cookie: cookie() } : {}),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      });
      const response = await handler(request, { params: Promise.resolve(params) as Promise<never> });
      for (const set of response.headers.getSetCookie()) {
        const [pair] = set.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      return response;
    },
  };
}
export type Browser = ReturnType<typeof createBrowser>;

/** Signs `browser` up as a new account with e-mail `email` (and stays signed in). */
export async function signUp(browser: Browser, email: string): Promise<void> {
  const res = await browser.send((r) => authPost(r), 'POST', '/api/auth/sign-up/email', {
    email,
    password: 'a long password 1',
    name: email.split('@')[0],
  });
  expect(res.status).toBe(200);
}
