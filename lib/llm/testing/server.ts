/**
 * A scripted server that speaks the OpenAI protocol over real HTTP on 127.0.0.1: Chat
 * Completions and Responses, streamed (SSE) and not, answering from a Scenario and logging every
 * request body and every reply, so tests (and Playwright, and a person via `npm run mock-llm`)
 * exercise the real SDK path. No `server-only`: it runs from a plain `tsx` script too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { buildChatChunks, buildChatCompletion, buildResponse, getArgumentText } from './openai-replies';
import type { Scenario, ScriptedTurn } from './scenario';

/** A request as received. */
export interface LoggedRequest {
  method: string;
  path: string;
  api: 'chat' | 'responses' | 'other';
  /** The parsed JSON body (or the raw text when it was not JSON). */
  body: unknown;
  authorization?: string;
  /** Index of the scenario turn that answered it (-1 for `after` or unrouted). */
  turn: number;
}

/** A reply as sent: a JSON body, or the SSE events of a stream. */
export interface LoggedReply {
  api: 'chat' | 'responses' | 'other';
  status: number;
  stream: boolean;
  body?: unknown;
  events?: { event?: string; data: unknown }[];
}

export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** What to give the SDK / OPENAI_BASE_URL: `<url>/v1`. */
  baseURL: string;
  requests: LoggedRequest[];
  replies: LoggedReply[];
  /** Replace the scenario and start again from its first turn (logs are kept). */
  setScenario(scenario: Scenario): void;
  close(): Promise<void>;
}

export interface ScriptedServerOptions {
  port?: number;
  /** Called with one line per request (the CLI prints it). */
  log?: (line: string) => void;
}

/** What the handlers share: the scenario and where it stands, and the logs. */
interface ServerState {
  scenario: Scenario;
  /** Index of the next turn to answer with. */
  next: number;
  requests: LoggedRequest[];
  replies: LoggedReply[];
  /** A fresh id with `prefix`, numbered across the server's life (`chatcmpl_0001`). */
  newId: (prefix: string) => string;
  log?: (line: string) => void;
}

/** Start the server on 127.0.0.1 (a random free port unless `port` is given). */
export async function startScriptedServer(
  scenario: Scenario,
  opts: ScriptedServerOptions = {},
): Promise<ScriptedServer> {
  let counter = 0;
  const state: ServerState = {
    scenario,
    next: 0,
    requests: [],
    replies: [],
    newId: (prefix) => `${prefix}_${String(++counter).padStart(4, '0')}`,
    log: opts.log,
  };
  const sockets = new Set<Socket>();

  const server: Server = createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, {
          error: {
            message: `Scripted server bug: ${String(error)}`,
            type: 'server_error',
            param: null,
            code: null,
          },
        });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseURL: `${url}/v1`,
    requests: state.requests,
    replies: state.replies,
    setScenario(scenario: Scenario) {
      state.scenario = scenario;
      state.next = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Log one request and answer it: from the scenario's next turn, or as an error. */
async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const logged = await readRequest(req);
  state.requests.push(logged);
  state.log?.(`${logged.method} ${logged.path}`);
  const { api, path } = logged;
  if (api === 'other') {
    if (req.method === 'GET' && path.endsWith('/models')) {
      sendJson(res, 200, {
        object: 'list',
        data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'toolflow' }],
      });
      return;
    }
    replyError(state, res, 'other', {
      status: 404,
      message: `The scripted server answers POST /v1/chat/completions and POST /v1/responses, not ${req.method} ${path}.`,
    });
    return;
  }
  if (typeof logged.body !== 'object' || logged.body === null) {
    replyError(state, res, api, { status: 400, message: 'The request body is not a JSON object.' });
    return;
  }
  const request = logged.body as Record<string, unknown>;
  const turn = takeTurn(state, logged, api, request);
  if (turn.delay_ms) {
    const closed = await waitUnlessClosed(turn.delay_ms, res);
    if (closed) return;
  }
  if (turn.error) {
    replyError(state, res, api, turn.error);
    return;
  }
  await answerTurn(state, res, api, request, turn);
}

/** The request as logged: path without trailing slashes, which API it calls, its body parsed. */
async function readRequest(req: IncomingMessage): Promise<LoggedRequest> {
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.replace(/\/+$/, '');
  const text = await readBody(req);
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Logged as text; answered by the caller.
  }
  const api =
    req.method === 'POST' && path.endsWith('/chat/completions')
      ? 'chat'
      : req.method === 'POST' && path.endsWith('/responses')
        ? 'responses'
        : 'other';
  return {
    method: req.method ?? 'GET',
    path,
    api,
    body,
    turn: -1,
    ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
  };
}

/** The turn that answers `request` (the `after` turn once the scenario is used up); logs its index. */
function takeTurn(
  state: ServerState,
  logged: LoggedRequest,
  api: 'chat' | 'responses',
  request: Record<string, unknown>,
): ScriptedTurn {
  const { scenario } = state;
  if (scenario.restart_on_new_conversation && isNewConversation(api, request)) state.next = 0;
  const index = state.next < scenario.turns.length ? state.next++ : -1;
  logged.turn = index;
  return index >= 0 ? scenario.turns[index] : (scenario.after ?? { text: 'Done.' });
}

/** Send the turn's text and calls in the shape of `api`, streamed when the request asks. */
async function answerTurn(
  state: ServerState,
  res: ServerResponse,
  api: 'chat' | 'responses',
  request: Record<string, unknown>,
  turn: ScriptedTurn,
): Promise<void> {
  const { newId } = state;
  const model = typeof request.model === 'string' ? request.model : 'scripted-model';
  const calls = (turn.tool_calls ?? []).map((call, i) => ({
    id: call.id ?? `call_${state.requests.length}_${i + 1}`,
    name: call.name,
    arguments: getArgumentText(call),
  }));
  const stream = request.stream === true;
  if (api === 'chat') {
    if (stream) {
      const chunks = buildChatChunks(newId('chatcmpl'), model, turn, calls);
      await streamEvents(
        state,
        res,
        'chat',
        chunks.map((data) => ({ data })),
        turn,
        true,
      );
    } else sendLoggedJson(state, res, 'chat', buildChatCompletion(newId('chatcmpl'), model, turn, calls));
    return;
  }
  const built = buildResponse(newId, model, request, turn, calls);
  if (stream) {
    const events = built.events.map((data) => ({ event: data.type as string, data }));
    await streamEvents(state, res, 'responses', events, turn, false);
  } else sendLoggedJson(state, res, 'responses', built.response);
}

function sendLoggedJson(
  state: ServerState,
  res: ServerResponse,
  api: LoggedReply['api'],
  body: unknown,
): void {
  state.replies.push({ api, status: 200, stream: false, body });
  sendJson(res, 200, body);
}

function replyError(
  state: ServerState,
  res: ServerResponse,
  api: LoggedReply['api'],
  error: NonNullable<ScriptedTurn['error']>,
): void {
  const body = {
    error: {
      message: error.message,
      type: error.type ?? errorType(error.status),
      param: error.param ?? null,
      code: error.code ?? null,
    },
  };
  state.replies.push({ api, status: error.status, stream: false, body });
  const headers: Record<string, string> = {};
  if (error.retry_after_ms !== undefined) headers['retry-after-ms'] = String(error.retry_after_ms);
  sendJson(res, error.status, body, headers);
}

/**
 * Send `events` as Server-Sent Events, with the turn's pauses and stall; `done` ends the stream
 * with `[DONE]` (Chat Completions does, Responses does not).
 */
async function streamEvents(
  state: ServerState,
  res: ServerResponse,
  api: LoggedReply['api'],
  events: { event?: string; data: unknown }[],
  turn: ScriptedTurn,
  done: boolean,
): Promise<void> {
  const logged: LoggedReply = { api, status: 200, stream: true, events: [] };
  state.replies.push(logged);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const [i, event] of events.entries()) {
    if (turn.stall_after_chunks !== undefined && i >= turn.stall_after_chunks) {
      // Go quiet with the connection open, as a stuck upstream does; the client must time out.
      await new Promise<void>((resolve) => res.on('close', () => resolve()));
      return;
    }
    if (turn.chunk_delay_ms && i > 0 && (await waitUnlessClosed(turn.chunk_delay_ms, res))) return;
    if (res.destroyed) return;
    logged.events?.push(event);
    res.write(`${event.event ? `event: ${event.event}\n` : ''}data: ${JSON.stringify(event.data)}\n\n`);
  }
  if (done) res.write('data: [DONE]\n\n');
  res.end();
}

// ---- plumbing ----

function isNewConversation(api: 'chat' | 'responses', body: Record<string, unknown>): boolean {
  if (api === 'chat') {
    const messages = Array.isArray(body.messages) ? body.messages : [];
    return !messages.some(
      (m) =>
        typeof m === 'object' &&
        m !== null &&
        ['assistant', 'tool'].includes((m as { role?: string }).role ?? ''),
    );
  }
  const input = Array.isArray(body.input) ? body.input : [];
  return !input.some((item) => {
    const it = item as { role?: string; type?: string };
    return it.role === 'assistant' || it.type === 'function_call' || it.type === 'function_call_output';
  });
}

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 401) return 'authentication_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Wait `ms`; true when the client went away meanwhile (then nothing more should be sent). */
function waitUnlessClosed(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    res.once('close', onClose);
  });
}
