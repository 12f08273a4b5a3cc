/**
 * A ModelPort for unit tests of the loop: each turn replays a list of ModelEvents (or a function
 * of the request), and every request is kept for assertions. Without HTTP; the SDK path is
 * tested in lib/llm against the scripted server.
 */
import type { ConversationToolCall, ModelEvent, ModelPort, ModelTurnRequest, ToolProtocol } from '../types';

export type TurnScript =
  ModelEvent[] | ((request: ModelTurnRequest) => ModelEvent[] | AsyncIterable<ModelEvent>);

export interface RecordingPort extends ModelPort {
  requests: ModelTurnRequest[];
}

/** A port answering its N-th request with `turns[N-1]` (a text reply "Done." once they run out). */
export function createScriptedPort(
  turns: TurnScript[],
  opts: { protocol?: ToolProtocol } = {},
): RecordingPort {
  const requests: ModelTurnRequest[] = [];
  return {
    planner: 'scripted',
    model: 'test-model',
    ...(opts.protocol ? { protocol: opts.protocol } : {}),
    requests,
    async *turn(request) {
      requests.push(request);
      // Each request takes the next script (a retried turn, e.g. the text fallback, takes one too).
      const script = turns[requests.length - 1];
      const events =
        script === undefined
          ? [text('Done.'), end()]
          : typeof script === 'function'
            ? script(request)
            : script;
      for await (const event of events as AsyncIterable<ModelEvent>) yield event;
    },
  };
}

/** A complete native tool call event. */
export function call(name: string, args: unknown, callId = `c_${name}`): ModelEvent {
  const call: ConversationToolCall = {
    callId,
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  };
  return { type: 'tool_call', call };
}

/** A piece of reply text. */
export const text = (value: string): ModelEvent => ({ type: 'text_delta', text: value });
/** The end of a turn. */
export const end = (): ModelEvent => ({ type: 'turn_end', finishReason: 'stop' });
