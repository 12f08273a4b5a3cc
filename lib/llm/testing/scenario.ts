/**
 * Scenario files for the scripted OpenAI-protocol server: what the "model" answers, turn by
 * turn (tool calls, malformed arguments, text, HTTP errors, delays). Read and checked here so a
 * typo in a hand-written scenario is an error with a JSON path, not a confusing test failure.
 * No `server-only`: the server also runs from a plain `tsx` script (`npm run mock-llm`).
 */
import { err, joinPointer, ok, type Issue, type Result } from '../../result';

/** One scripted tool call. */
export interface ScriptedCall {
  name: string;
  /** Arguments as JSON (serialised for the reply). */
  arguments?: unknown;
  /** Argument text sent verbatim instead (for malformed JSON). */
  raw_arguments?: string;
  /** Call id; `call_<turn>_<n>` when omitted. */
  id?: string;
}

/** One reply. Either `error`, or any of `text` and `tool_calls`; an empty turn is an empty reply. */
export interface ScriptedTurn {
  text?: string;
  tool_calls?: ScriptedCall[];
  error?: {
    status: number;
    message: string;
    type?: string;
    param?: string | null;
    code?: string | null;
    /** Sent as `retry-after-ms` (a header the SDK and Toolflow read). */
    retry_after_ms?: number;
  };
  /** Wait before answering (before the status line). */
  delay_ms?: number;
  /** Wait between streamed chunks. */
  chunk_delay_ms?: number;
  /** Characters per streamed text/arguments delta (default 12). */
  chunk_size?: number;
  /** Streaming: after this many chunks, stop sending and keep the connection open. */
  stall_after_chunks?: number;
  /** Chat streaming: interleave the deltas of parallel calls instead of one call after another. */
  interleave?: boolean;
}

export interface Scenario {
  name?: string;
  description?: string;
  turns: ScriptedTurn[];
  /** The reply once `turns` are used up (default: the text "Done." with no tool calls). */
  after?: ScriptedTurn;
  /** Start again from the first turn when a request opens a new conversation (no assistant
   * messages yet): handy for a person trying the app, wrong for tests that count turns. */
  restart_on_new_conversation?: boolean;
}

const TURN_KEYS = new Set([
  'text',
  'tool_calls',
  'error',
  'delay_ms',
  'chunk_delay_ms',
  'chunk_size',
  'stall_after_chunks',
  'interleave',
]);

/** Check untrusted JSON as a Scenario, with one issue per problem. */
export function parseScenario(json: unknown): Result<Scenario> {
  const issues: Issue[] = [];
  if (!isObject(json) || !Array.isArray(json.turns)) {
    return err([
      { path: '', code: 'bad_scenario', message: 'A scenario is an object with a "turns" array.' },
    ]);
  }
  json.turns.forEach((turn, i) => checkTurn(turn, joinPointer('/turns', i), issues));
  if (json.after !== undefined) checkTurn(json.after, '/after', issues);
  return issues.length > 0 ? err(issues) : ok(json as unknown as Scenario);
}

function checkTurn(turn: unknown, at: string, issues: Issue[]): void {
  if (!isObject(turn)) {
    issues.push({
      path: at,
      code: 'bad_scenario',
      message: 'A turn is an object: {text?, tool_calls?, error?, delay_ms?, …}.',
    });
    return;
  }
  for (const key of Object.keys(turn)) {
    if (!TURN_KEYS.has(key))
      issues.push({
        path: `${at}/${key}`,
        code: 'bad_scenario',
        message: `Unknown turn field "${key}"; fields: ${[...TURN_KEYS].join(', ')}.`,
      });
  }
  if (turn.text !== undefined && typeof turn.text !== 'string')
    issues.push({ path: `${at}/text`, code: 'bad_scenario', message: '"text" must be a string.' });
  for (const key of ['delay_ms', 'chunk_delay_ms', 'chunk_size', 'stall_after_chunks']) {
    const value = turn[key];
    if (value !== undefined && (typeof value !== 'number' || value < 0 || !Number.isFinite(value))) {
      issues.push({ path: `${at}/${key}`, code: 'bad_scenario', message: `"${key}" must be a number ≥ 0.` });
    }
  }
  if (turn.tool_calls !== undefined) {
    if (!Array.isArray(turn.tool_calls)) {
      issues.push({
        path: `${at}/tool_calls`,
        code: 'bad_scenario',
        message: '"tool_calls" must be an array of {name, arguments | raw_arguments}.',
      });
    } else {
      turn.tool_calls.forEach((call, j) => {
        const callAt = joinPointer(`${at}/tool_calls`, j);
        if (!isObject(call) || typeof call.name !== 'string' || call.name === '') {
          issues.push({ path: callAt, code: 'bad_scenario', message: 'A tool call needs a "name".' });
        } else if (call.raw_arguments !== undefined && typeof call.raw_arguments !== 'string') {
          issues.push({
            path: `${callAt}/raw_arguments`,
            code: 'bad_scenario',
            message: '"raw_arguments" must be a string.',
          });
        }
      });
    }
  }
  if (turn.error !== undefined) {
    const e = turn.error;
    if (
      !isObject(e) ||
      typeof e.status !== 'number' ||
      e.status < 400 ||
      e.status > 599 ||
      typeof e.message !== 'string'
    ) {
      issues.push({
        path: `${at}/error`,
        code: 'bad_scenario',
        message: '"error" needs "status" (400–599) and "message".',
      });
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
