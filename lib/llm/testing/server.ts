/**
 * A scripted server that speaks the OpenAI protocol over real HTTP on 127.0.0.1: Chat
 * Completions and Responses, streamed (SSE) and not, answering from a Scenario and logging every
 * request body and every reply, so tests (and Playwright, and a person via `npm run mock-llm`)
 * exercise the real SDK path. No `server-only`: it runs from a plain `tsx` script too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Scenario, ScriptedCall, ScriptedTurn } from './scenario';

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

/** Start the server on 127.0.0.1 (a random free port unless `port` is given). */
export async function startScriptedServer(
  scenario: Scenario,
  opts: ScriptedServerOptions = {},
): Promise<ScriptedServer> {
  let current = scenario;
  let next = 0;
  let counter = 0;
  const requests: LoggedRequest[] = [];
  const replies: LoggedReply[] = [];
  const sockets = new Set<Socket>();
  const newId = (prefix: string) => `${prefix}_${String(++counter).padStart(4, '0')}`;

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname.replace(/\/+$/, '');
    const text = await readBody(req);
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Logged as text; answered below.
    }
    const api =
      req.method === 'POST' && path.endsWith('/chat/completions')
        ? 'chat'
        : req.method === 'POST' && path.endsWith('/responses')
          ? 'responses'
          : 'other';
    const logged: LoggedRequest = {
      method: req.method ?? 'GET',
      path,
      api,
      body,
      turn: -1,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    };
    requests.push(logged);
    opts.log?.(`${logged.method} ${path}`);
    if (api === 'other') {
      if (req.method === 'GET' && path.endsWith('/models')) {
        sendJson(res, 200, {
          object: 'list',
          data: [{ id: 'scripted-model', object: 'model', created: 0, owned_by: 'toolflow' }],
        });
        return;
      }
      replyError(res, 'other', {
        status: 404,
        message: `The scripted server answers POST /v1/chat/completions and POST /v1/responses, not ${req.method} ${path}.`,
      });
      return;
    }
    if (typeof body !== 'object' || body === null) {
      replyError(res, api, { status: 400, message: 'The request body is not a JSON object.' });
      return;
    }
    const request = body as Record<string, unknown>;
    if (current.restart_on_new_conversation && isNewConversation(api, request)) next = 0;
    const index = next < current.turns.length ? next++ : -1;
    const turn: ScriptedTurn = index >= 0 ? current.turns[index] : (current.after ?? { text: 'Done.' });
    logged.turn = index;
    if (turn.delay_ms) {
      const closed = await waitUnlessClosed(turn.delay_ms, res);
      if (closed) return;
    }
    if (turn.error) {
      replyError(res, api, turn.error);
      return;
    }
    const model = typeof request.model === 'string' ? request.model : 'scripted-model';
    const calls = (turn.tool_calls ?? []).map((call, i) => ({
      id: call.id ?? `call_${requests.length}_${i + 1}`,
      name: call.name,
      arguments: getArgumentText(call),
    }));
    const stream = request.stream === true;
    if (api === 'chat') {
      if (stream)
        await streamEvents(
          res,
          'chat',
          buildChatChunks(newId('chatcmpl'), model, turn, calls).map((data) => ({ data })),
          turn,
          true,
        );
      else sendLoggedJson(res, 'chat', buildChatCompletion(newId('chatcmpl'), model, turn, calls));
    } else {
      const built = buildResponse(newId, model, request, turn, calls);
      if (stream)
        await streamEvents(
          res,
          'responses',
          built.events.map((data) => ({ event: data.type as string, data })),
          turn,
          false,
        );
      else sendLoggedJson(res, 'responses', built.response);
    }
  }

  function sendLoggedJson(res: ServerResponse, api: LoggedReply['api'], body: unknown): void {
    replies.push({ api, status: 200, stream: false, body });
    sendJson(res, 200, body);
  }

  function replyError(
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
    replies.push({ api, status: error.status, stream: false, body });
    const headers: Record<string, string> = {};
    if (error.retry_after_ms !== undefined) headers['retry-after-ms'] = String(error.retry_after_ms);
    sendJson(res, error.status, body, headers);
  }

  async function streamEvents(
    res: ServerResponse,
    api: LoggedReply['api'],
    events: { event?: string; data: unknown }[],
    turn: ScriptedTurn,
    done: boolean,
  ): Promise<void> {
    const logged: LoggedReply = { api, status: 200, stream: true, events: [] };
    replies.push(logged);
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
    requests,
    replies,
    setScenario(scenario: Scenario) {
      current = scenario;
      next = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---- replies ----

interface Call {
  id: string;
  name: string;
  arguments: string;
}

function getArgumentText(call: ScriptedCall): string {
  if (call.raw_arguments !== undefined) return call.raw_arguments;
  return JSON.stringify(call.arguments ?? {});
}

function split(text: string, size: number): string[] {
  if (text === '') return [''];
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

const now = () => Math.floor(Date.now() / 1000);

function buildChatCompletion(id: string, model: string, turn: ScriptedTurn, calls: Call[]): unknown {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: turn.text ?? null,
    refusal: null,
    annotations: [],
  };
  if (calls.length > 0) {
    message.tool_calls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id,
    object: 'chat.completion',
    created: now(),
    model,
    system_fingerprint: null,
    choices: [{ index: 0, message, logprobs: null, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

function buildChatChunks(id: string, model: string, turn: ScriptedTurn, calls: Call[]): unknown[] {
  const size = Math.max(1, turn.chunk_size ?? 12);
  const created = now();
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  if (turn.text) for (const piece of split(turn.text, size)) chunks.push(chunk({ content: piece }));
  // Each call: a head delta (id, type, name) then argument pieces; interleaved on request.
  const perCall = calls.map((call, index) => [
    { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
    ...split(call.arguments, size).map((piece) => ({ index, function: { arguments: piece } })),
  ]);
  if (turn.interleave) {
    const longest = Math.max(0, ...perCall.map((p) => p.length));
    for (let i = 0; i < longest; i++)
      for (const parts of perCall) if (parts[i]) chunks.push(chunk({ tool_calls: [parts[i]] }));
  } else {
    for (const parts of perCall) for (const part of parts) chunks.push(chunk({ tool_calls: [part] }));
  }
  chunks.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  return chunks;
}

function buildResponse(
  newId: (prefix: string) => string,
  model: string,
  request: Record<string, unknown>,
  turn: ScriptedTurn,
  calls: Call[],
): { response: Record<string, unknown>; events: Record<string, unknown>[] } {
  const size = Math.max(1, turn.chunk_size ?? 12);
  const id = newId('resp');
  const output: Record<string, unknown>[] = [];
  const events: Record<string, unknown>[] = [];
  let sequence = 0;
  const push = (event: Record<string, unknown>) => events.push({ ...event, sequence_number: sequence++ });
  const base = {
    id,
    object: 'response',
    created_at: now(),
    error: null,
    incomplete_details: null,
    instructions: typeof request.instructions === 'string' ? request.instructions : null,
    max_output_tokens: null,
    model,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: request.store !== false,
    temperature: 1,
    text: { format: { type: 'text' } },
    tool_choice: request.tool_choice ?? 'auto',
    tools: Array.isArray(request.tools) ? request.tools : [],
    top_p: 1,
    truncation: 'disabled',
    metadata: {},
  };
  push({ type: 'response.created', response: { ...base, status: 'in_progress', output: [], usage: null } });
  push({
    type: 'response.in_progress',
    response: { ...base, status: 'in_progress', output: [], usage: null },
  });

  if (turn.text) {
    const output_index = output.length;
    const item_id = newId('msg');
    const done = {
      id: item_id,
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }],
    };
    push({
      type: 'response.output_item.added',
      output_index,
      item: { ...done, status: 'in_progress', content: [] },
    });
    push({
      type: 'response.content_part.added',
      item_id,
      output_index,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
    });
    for (const delta of split(turn.text, size))
      push({
        type: 'response.output_text.delta',
        item_id,
        output_index,
        content_index: 0,
        delta,
        logprobs: [],
      });
    push({
      type: 'response.output_text.done',
      item_id,
      output_index,
      content_index: 0,
      text: turn.text,
      logprobs: [],
    });
    push({
      type: 'response.content_part.done',
      item_id,
      output_index,
      content_index: 0,
      part: done.content[0],
    });
    push({ type: 'response.output_item.done', output_index, item: done });
    output.push(done);
  }
  for (const call of calls) {
    const output_index = output.length;
    const item_id = newId('fc');
    const done = {
      id: item_id,
      type: 'function_call',
      status: 'completed',
      call_id: call.id,
      name: call.name,
      arguments: call.arguments,
    };
    push({
      type: 'response.output_item.added',
      output_index,
      item: { ...done, status: 'in_progress', arguments: '' },
    });
    for (const delta of split(call.arguments, size))
      push({ type: 'response.function_call_arguments.delta', item_id, output_index, delta });
    push({
      type: 'response.function_call_arguments.done',
      item_id,
      output_index,
      name: call.name,
      arguments: call.arguments,
    });
    push({ type: 'response.output_item.done', output_index, item: done });
    output.push(done);
  }
  const usage = {
    input_tokens: 0,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 0,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 0,
  };
  const response = { ...base, status: 'completed', output, usage };
  push({ type: 'response.completed', response });
  return { response, events };
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
