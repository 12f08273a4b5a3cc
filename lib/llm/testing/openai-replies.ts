/**
 * The bodies the scripted server sends, shaped as OpenAI's APIs send them: a Chat Completion and
 * its stream chunks, a Response and its stream events. Text and arguments are split into deltas
 * of `chunk_size` characters, so clients see streams as the real API cuts them.
 */
import type { ScriptedCall, ScriptedTurn } from './scenario';

/** A tool call as sent: its id and argument text settled. */
export interface Call {
  id: string;
  name: string;
  arguments: string;
}

/** The argument text of a scripted call: verbatim when given raw (malformed on purpose), else JSON. */
export function getArgumentText(call: ScriptedCall): string {
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

const getChunkSize = (turn: ScriptedTurn) => Math.max(1, turn.chunk_size ?? 12);

/** A non-streamed Chat Completion holding the turn's text and calls. */
export function buildChatCompletion(id: string, model: string, turn: ScriptedTurn, calls: Call[]): unknown {
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

/** The chunks of a streamed Chat Completion: role, text deltas, call deltas, finish reason. */
export function buildChatChunks(id: string, model: string, turn: ScriptedTurn, calls: Call[]): unknown[] {
  const size = getChunkSize(turn);
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

type Event = Record<string, unknown>;
/** Add an event to the stream; it is given the next sequence number. */
type PushEvent = (event: Event) => void;

/**
 * A Response holding the turn's text and calls, and the events that stream it (each with its
 * sequence number). `newId` numbers the response and each output item.
 */
export function buildResponse(
  newId: (prefix: string) => string,
  model: string,
  request: Record<string, unknown>,
  turn: ScriptedTurn,
  calls: Call[],
): { response: Event; events: Event[] } {
  const size = getChunkSize(turn);
  const base = getResponseBase(newId('resp'), model, request);
  const output: Event[] = [];
  const events: Event[] = [];
  let sequence = 0;
  const push: PushEvent = (event) => events.push({ ...event, sequence_number: sequence++ });
  push({ type: 'response.created', response: { ...base, status: 'in_progress', output: [], usage: null } });
  push({
    type: 'response.in_progress',
    response: { ...base, status: 'in_progress', output: [], usage: null },
  });
  if (turn.text) output.push(pushMessage(push, newId('msg'), output.length, turn.text, size));
  for (const call of calls) output.push(pushFunctionCall(push, newId('fc'), output.length, call, size));
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

/** The fields of a Response that do not change while it streams, echoing the request. */
function getResponseBase(id: string, model: string, request: Record<string, unknown>): Event {
  return {
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
}

/** Stream a message output item holding `text`; returns the finished item. */
function pushMessage(push: PushEvent, item_id: string, output_index: number, text: string, size: number) {
  const done = {
    id: item_id,
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
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
  for (const delta of split(text, size))
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
    text,
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
  return done;
}

/** Stream a function-call output item for `call`; returns the finished item. */
function pushFunctionCall(push: PushEvent, item_id: string, output_index: number, call: Call, size: number) {
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
  return done;
}
