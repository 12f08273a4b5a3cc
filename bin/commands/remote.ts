/**
 * What the commands that talk to a Toolflow server share (`push`, `pull`): the server's address
 * and an API token from TOOLFLOW_URL and TOOLFLOW_TOKEN (docs/design.md §13.5), one request at a
 * time with the token as `Authorization: Bearer`, and every way that can fail said in plain words
 * on stderr: no address, a server that does not answer, a refused token, no access, no such
 * workflow.
 */
import type { CliIo } from '../io';

export interface Remote {
  /** The server's address without a trailing slash. */
  url: string;
  token: string;
}

export const REMOTE_HELP = `Environment:
  TOOLFLOW_URL    the Toolflow server, e.g. https://toolflow.example.com
  TOOLFLOW_TOKEN  an API token made on your account page (<server>/account); it acts in
                  the workspace it was made for, with your role there
`;

/** TOOLFLOW_URL and TOOLFLOW_TOKEN, or null after saying which is missing or wrong. */
export function readRemote(io: CliIo): Remote | null {
  const env = io.env ?? process.env;
  const raw = env.TOOLFLOW_URL?.trim();
  if (!raw) {
    io.stderr(
      'toolflow: TOOLFLOW_URL is not set. Set it to your Toolflow server, e.g. TOOLFLOW_URL=http://127.0.0.1:3000\n',
    );
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    io.stderr(`toolflow: TOOLFLOW_URL "${raw}" is not an http:// or https:// address.\n`);
    return null;
  }
  const base = url.href.replace(/\/+$/, '');
  const token = env.TOOLFLOW_TOKEN?.trim();
  if (!token) {
    io.stderr(
      `toolflow: TOOLFLOW_TOKEN is not set. Make an API token on your account page (${base}/account) and set TOOLFLOW_TOKEN to it.\n`,
    );
    return null;
  }
  return { url: base, token };
}

/** A server answer the command goes on with. */
export interface RemoteAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The answer's `message` when it is a JSON error body. */
  message: string | undefined;
}

function readMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : undefined;
  } catch {
    return undefined;
  }
}

/** Why a request never got an answer, in words (connection refused, unknown host, …). */
function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused: is the server running?';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no such host';
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'the connection timed out';
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Sends one request. Answers of the statuses in `expected` (and 2xx) are returned for the command
 * to read; every other status, and no answer at all, is said on stderr and gives null.
 */
export async function callRemote(
  io: CliIo,
  remote: Remote,
  request: { method: 'GET' | 'PUT'; path: string; body?: unknown; expected?: number[] },
): Promise<RemoteAnswer | null> {
  const send = io.fetch ?? fetch;
  let response: Response;
  try {
    response = await send(remote.url + request.path, {
      method: request.method,
      headers: {
        authorization: `Bearer ${remote.token}`,
        accept: 'application/json',
        ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      redirect: 'manual',
    });
  } catch (error) {
    io.stderr(
      `toolflow: cannot reach the Toolflow server at ${remote.url} (${describeNetworkError(error)}). Check TOOLFLOW_URL.\n`,
    );
    return null;
  }
  const text = await response.text();
  const answer = { status: response.status, headers: response.headers, text, message: readMessage(text) };
  if ((response.status >= 200 && response.status < 300) || request.expected?.includes(response.status))
    return answer;
  io.stderr(`toolflow: ${describeRefusal(remote, answer)}\n`);
  return null;
}

function describeRefusal(remote: Remote, answer: RemoteAnswer): string {
  const said = answer.message ? ` The server said: ${answer.message}` : '';
  switch (answer.status) {
    case 401:
      return `the server refused the token (401).${said} Make a new token at ${remote.url}/account and set TOOLFLOW_TOKEN to it.`;
    case 403:
      return `no access (403).${said}`;
    case 404:
      return `not found (404).${said}`;
    case 429:
      return `too many requests (429).${said}${answer.headers.get('retry-after') ? ` Retry after ${answer.headers.get('retry-after')} s.` : ''}`;
    default:
      if (answer.status >= 300 && answer.status < 400)
        return `the server answered with a redirect (${answer.status}) to ${answer.headers.get('location') ?? 'elsewhere'}: is TOOLFLOW_URL the server's address, with the right http or https?`;
      return `the server answered ${answer.status}.${said || ` ${answer.text.slice(0, 200)}`}`;
  }
}

/** A workflow id as it goes in a URL path (ids are `wf_…`; anything else is escaped, not trusted). */
export function workflowPath(id: string): string {
  return `/api/workflows/${encodeURIComponent(id)}`;
}
