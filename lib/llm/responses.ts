import 'server-only';
/**
 * The Responses API: the request body for one planner turn (instructions + input items), and
 * reading the reply — streamed events accumulated per output item, or the whole response — as
 * ModelEvents.
 */
import type OpenAI from 'openai';
import { renderResponsesTool } from '../tools/formats/openai-responses';
import type { ToolAliases } from '../tools/aliases';
import type { ModelEvent, ModelTurnRequest } from '../planner/types';

export type ResponsesRequestBody = Omit<OpenAI.Responses.ResponseCreateParamsNonStreaming, 'stream'>;

/** The Responses body for a turn (without `stream`); native tools only under `native`. */
export function createResponsesRequest(
  request: ModelTurnRequest,
  model: string,
  aliases: ToolAliases,
): ResponsesRequestBody {
  const input: OpenAI.Responses.ResponseInputItem[] = [];
  for (const message of request.messages) {
    switch (message.role) {
      case 'user':
        input.push({ role: 'user', content: message.content });
        break;
      case 'assistant':
        if (message.content !== '') input.push({ role: 'assistant', content: message.content });
        for (const call of message.toolCalls) {
          input.push({
            type: 'function_call',
            call_id: call.callId,
            name: aliases.toAlias(call.name),
            arguments: call.arguments,
          });
        }
        break;
      case 'tool':
        input.push({ type: 'function_call_output', call_id: message.callId, output: message.content });
        break;
    }
  }
  // Nothing is stored server-side: every turn sends the whole conversation.
  const body: ResponsesRequestBody = { model, instructions: request.system, input, store: false };
  if (request.protocol === 'text' || request.tools.length === 0) return body;
  return {
    ...body,
    tools: request.tools.map((tool) =>
      renderResponsesTool(tool, { name: aliases.toAlias(tool.name) }),
    ) as OpenAI.Responses.FunctionTool[],
    tool_choice: 'auto',
    parallel_tool_calls: true,
  };
}

interface PendingItem {
  callId: string;
  name: string;
  arguments: string;
  emitted: boolean;
}

/**
 * Accumulates streamed Responses events per output item (keyed by `output_index`, which every
 * event carries): a function call is emitted at `response.function_call_arguments.done` (or its
 * `output_item.done`, whichever comes first), with the arguments the server says are final.
 */
export function createResponsesStreamReader(aliases: ToolAliases): {
  push(event: OpenAI.Responses.ResponseStreamEvent): ModelEvent[];
  finish(): ModelEvent[];
} {
  const items = new Map<number, PendingItem>();
  let ended = false;
  let status: string | undefined;

  const emit = (item: PendingItem, finalArguments?: string): ModelEvent[] => {
    if (item.emitted) return [];
    item.emitted = true;
    if (finalArguments !== undefined) item.arguments = finalArguments;
    return [
      {
        type: 'tool_call',
        call: {
          callId: item.callId,
          name: aliases.fromAlias(item.name) ?? item.name,
          arguments: item.arguments,
        },
      },
    ];
  };

  return {
    push(event) {
      switch (event.type) {
        case 'response.output_item.added':
          if (event.item.type === 'function_call') {
            items.set(event.output_index, {
              callId: event.item.call_id,
              name: event.item.name,
              arguments: event.item.arguments ?? '',
              emitted: false,
            });
          }
          return [];
        case 'response.function_call_arguments.delta': {
          const item = items.get(event.output_index);
          if (!item || item.emitted) return [];
          item.arguments += event.delta;
          return [
            {
              type: 'tool_call_delta',
              key: `responses:${event.output_index}`,
              name: item.name,
              argumentsDelta: event.delta,
            },
          ];
        }
        case 'response.function_call_arguments.done': {
          const item = items.get(event.output_index);
          return item ? emit(item, event.arguments) : [];
        }
        case 'response.output_item.done': {
          if (event.item.type !== 'function_call') return [];
          const item = items.get(event.output_index) ?? {
            callId: event.item.call_id,
            name: event.item.name,
            arguments: '',
            emitted: false,
          };
          items.set(event.output_index, item);
          return emit(item, event.item.arguments);
        }
        case 'response.output_text.delta':
          return event.delta === '' ? [] : [{ type: 'text_delta', text: event.delta }];
        case 'response.completed':
          status = event.response.status ?? 'completed';
          return [];
        case 'response.incomplete': {
          status = 'incomplete';
          const reason = event.response.incomplete_details?.reason;
          return [
            {
              type: 'notice',
              message: `The model stopped before finishing its reply${reason ? ` (${reason})` : ''}; the last call may be cut off.`,
            },
          ];
        }
        case 'response.failed': {
          const detail = event.response.error?.message ?? 'no reason given';
          return [
            {
              type: 'error',
              kind: 'bad_response',
              message: `The model endpoint reported a failed response: ${detail}.`,
            },
          ];
        }
        case 'error':
          return [
            {
              type: 'error',
              kind: 'bad_response',
              message: `The model endpoint reported an error mid-stream: ${event.message}.`,
            },
          ];
        default:
          return [];
      }
    },
    finish() {
      if (ended) return [];
      ended = true;
      const events: ModelEvent[] = [];
      for (const item of items.values()) events.push(...emit(item));
      events.push({ type: 'turn_end', ...(status ? { finishReason: status } : {}) });
      return events;
    },
  };
}

/** The events of a whole (non-streamed) Response. */
export function readResponse(response: OpenAI.Responses.Response, aliases: ToolAliases): ModelEvent[] {
  const events: ModelEvent[] = [];
  if (response.status === 'failed') {
    return [
      {
        type: 'error',
        kind: 'bad_response',
        message: `The model endpoint reported a failed response: ${response.error?.message ?? 'no reason given'}.`,
      },
    ];
  }
  for (const item of response.output ?? []) {
    if (item.type === 'message') {
      for (const part of item.content)
        if (part.type === 'output_text' && part.text !== '')
          events.push({ type: 'text_delta', text: part.text });
    } else if (item.type === 'function_call') {
      events.push({
        type: 'tool_call',
        call: {
          callId: item.call_id,
          name: aliases.fromAlias(item.name) ?? item.name,
          arguments: item.arguments ?? '',
        },
      });
    }
  }
  events.push({ type: 'turn_end', ...(response.status ? { finishReason: response.status } : {}) });
  return events;
}
