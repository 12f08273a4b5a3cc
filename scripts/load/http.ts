/**
 * The load test's HTTP client: node:http with one keep-alive agent, which costs the load
 * generator about half the CPU per request of the global `fetch` (undici) on the same 2 cores
 * the server under test runs on. It asks for compressed answers as `fetch` and browsers do
 * (`accept-encoding: gzip, deflate`), so the server compresses as it would for them.
 */
import http from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';

export interface HttpReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A client for `baseUrl` with at most `sockets` connections open at once. */
export function createHttpClient(baseUrl: string, sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const base = new URL(baseUrl);
  return {
    /**
     * Sends one request; rejects on a network failure, and with a `TimeoutError` when the whole
     * exchange takes longer than `timeoutMs`.
     */
    send(
      method: string,
      path: string,
      headers: Record<string, string>,
      body: string | undefined,
      timeoutMs: number,
    ): Promise<HttpReply> {
      return new Promise((resolve, reject) => {
        const outgoing: http.OutgoingHttpHeaders = { 'accept-encoding': 'gzip, deflate', ...headers };
        const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
        if (payload) outgoing['content-length'] = payload.byteLength;
        const req = http.request(
          { host: base.hostname, port: base.port, path, method, headers: outgoing, agent },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', fail);
            res.on('end', () => {
              clearTimeout(timer);
              try {
                let data = Buffer.concat(chunks);
                const encoding = res.headers['content-encoding'];
                if (encoding === 'gzip') data = gunzipSync(data);
                else if (encoding === 'deflate') data = inflateSync(data);
                resolve({ status: res.statusCode ?? 0, headers: res.headers, text: data.toString('utf8') });
              } catch (error) {
                reject(error);
              }
            });
          },
        );
        const timer = setTimeout(() => {
          const error = new Error(`no complete answer within ${timeoutMs} ms`);
          error.name = 'TimeoutError';
          req.destroy(error);
        }, timeoutMs);
        function fail(error: Error) {
          clearTimeout(timer);
          reject(error);
        }
        req.on('error', fail);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}
