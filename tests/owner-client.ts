/**
 * A browser-like caller for route-handler tests: it keeps the owner cookie the API issues, so
 * "Alice" and "Bob" are two different owners, as two browsers would be.
 */
import { jsonRequest } from './db';

// Route handlers are typed per route; this is the shape they all share.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (request: Request, context: { params: Promise<any> }) => Promise<Response>;

export interface OwnerClient {
  /** The `Cookie` header value this caller sends (undefined until the API issued one). */
  readonly cookie: string | undefined;
  /** Calls a route handler as this owner; keeps any owner cookie the response sets. */
  send(
    handler: Handler,
    method: string,
    url: string,
    body?: unknown,
    params?: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

/** A new caller with no cookie yet. */
export function createOwnerClient(): OwnerClient {
  let cookie: string | undefined;
  return {
    get cookie() {
      return cookie;
    },
    async send(handler, method, url, body, params = {}, headers = {}) {
      const request = jsonRequest(url, method, body, { ...(cookie ? { cookie } : {}), ...headers });
      const response = await handler(request, { params: Promise.resolve(params) });
      const set = response.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0];
      return response;
    },
  };
}
