import 'server-only';
/**
 * Chat Completions: the request body for one planner turn, and reading the reply — streamed
 * (tool-call deltas accumulated by `index`) or whole — as ModelEvents.
 */
import type OpenAI from 'openai';
import { renderChatTool } from '../tools/formats/openai-chat';
import type { ToolAliases } from '../tools/aliases';
import type { ModelEvent, ModelTurnRequest } from '../planner/types';

type ChatMessage = OpenAI.Chat.ChatCompletionMessageParam;
export type ChatRequestBody = Omit<OpenAI.Chat.ChatCompletionCreateParamsNonStreaming, 'stream'>;

/** The Chat Completions body for a turn (without `stream`); native tools only under `native`. */
export function createChatRequest(
  request: ModelTurnRequest,
  model: string,
  aliases: ToolAliases,
): ChatRequestBody {
  const messages: ChatMessage[] = [{ role: 'system', content: request.system }];
  for (const message of request.messages) {
    switch (message.role) {
      case 'user':
        messages.push({ role: 'user', content: message.content });
        break;
      case 'assistant':
        if (message.toolCalls.length === 0) {
          messages.push({ role: 'assistant', content: message.content });
        } else {
          messages.push({
            role: 'assistant',
            content: message.content === '' ? null : message.content,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.callId,
              type: 'function' as const,
              function: { name: aliases.toAlias(call.name), arguments: call.arguments },
            })),
          });
        }
        break;
      case 'tool':
        messages.push({ role: 'tool', tool_call_id: message.callId, content: message.content });
        break;
    }
  }
  if (request.protocol === 'text' || request.tools.length === 0) return { model, messages };
  return {
    model,
    messages,
    tools: request.tools.map((tool) =>
      renderChatTool(tool, { name: aliases.toAlias(tool.name) }),
    ) as OpenAI.Chat.ChatCompletionTool[],
    tool_choice: 'auto',
    parallel_tool_calls: true,
  };
}

interface PendingCall {
  index: number;
  id: string;
  name: string;
  arguments: string;
  emitted: boolean;
}

/**
 * Accumulates streamed chunks. A tool call's deltas are joined by `index` (parallel calls may
 * interleave); the call is emitted the moment its arguments form a whole JSON value (and every
 * earlier call has been emitted), so its step appears while later calls are still streaming.
 * Calls whose arguments never become valid JSON are emitted as they are at `finish_reason` or
 * the end of the stream.
 */
export function createChatStreamReader(aliases: ToolAliases): {
  push(chunk: OpenAI.Chat.ChatCompletionChunk): ModelEvent[];
  finish(): ModelEvent[];
} {
  const calls = new Map<number, PendingCall>();
  let finishReason: string | undefined;
  let ended = false;

  const emit = (call: PendingCall): ModelEvent => {
    call.emitted = true;
    const name = aliases.fromAlias(call.name) ?? call.name;
    return { type: 'tool_call', call: { callId: call.id, name, arguments: call.arguments } };
  };
  const ordered = () => [...calls.values()].sort((a, b) => a.index - b.index);
  /** Emit complete calls in index order; a complete call waits for an unfinished earlier one
   * so steps keep the model's call order. */
  const drain = (): ModelEvent[] => {
    const events: ModelEvent[] = [];
    for (const call of ordered()) {
      if (call.emitted) continue;
      if (call.name === '' || !isCompleteJson(call.arguments)) break;
      events.push(emit(call));
    }
    return events;
  };
  const flush = (): ModelEvent[] =>
    ordered()
      .filter((c) => !c.emitted)
      .map(emit);

  return {
    push(chunk) {
      const events: ModelEvent[] = [];
      const choice = chunk.choices?.[0];
      if (!choice) return events;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content !== '')
        events.push({ type: 'text_delta', text: delta.content });
      for (const part of delta.tool_calls ?? []) {
        let call = calls.get(part.index);
        if (!call) {
          call = { index: part.index, id: '', name: '', arguments: '', emitted: false };
          calls.set(part.index, call);
        }
        if (part.id) call.id = part.id;
        const name = part.function?.name;
        // Some servers repeat the full name in every delta; others send it once.
        if (name && name !== call.name) call.name += name;
        const piece = part.function?.arguments ?? '';
        if (call.emitted) continue;
        call.arguments += piece;
        events.push({
          type: 'tool_call_delta',
          key: `chat:${part.index}`,
          name: call.name,
          argumentsDelta: piece,
        });
        if (piece !== '') events.push(...drain());
      }
      if (choice.finish_reason) {
        finishReason = choice.finish_reason;
        events.push(...flush());
      }
      return events;
    },
    finish() {
      if (ended) return [];
      ended = true;
      const events = flush();
      events.push({ type: 'turn_end', ...(finishReason ? { finishReason } : {}) });
      return events;
    },
  };
}

/** The events of a whole (non-streamed) Chat Completion. */
export function readChatCompletion(
  completion: OpenAI.Chat.ChatCompletion,
  aliases: ToolAliases,
): ModelEvent[] {
  const choice = completion.choices?.[0];
  const events: ModelEvent[] = [];
  if (!choice)
    return [
      {
        type: 'error',
        kind: 'bad_response',
        message: 'The model endpoint returned a completion with no choices.',
      },
    ];
  const message = choice.message;
  if (typeof message?.content === 'string' && message.content !== '')
    events.push({ type: 'text_delta', text: message.content });
  for (const call of message?.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    events.push({
      type: 'tool_call',
      call: {
        callId: call.id,
        name: aliases.fromAlias(call.function.name) ?? call.function.name,
        arguments: call.function.arguments ?? '',
      },
    });
  }
  events.push({ type: 'turn_end', ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}) });
  return events;
}

/** True when the text is a whole JSON value (an object's closing brace has arrived). */
export function isCompleteJson(text: string): boolean {
  const trimmed = text.trim();
  // Cheap test first: most deltas do not end an object, so most never reach JSON.parse.
  if (!trimmed.endsWith('}')) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}
