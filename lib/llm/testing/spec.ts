/**
 * Checking traffic against the official OpenAI schemas in `tests/fixtures/spec/openai` (JSON Schema
 * 2020-12 components of the OpenAPI spec): every request body the SDK sends and every reply the
 * scripted server gives. Used by tests; a problem is a readable line with a JSON path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { LoggedReply, LoggedRequest } from './server';

/** Where the schemas live; TOOLFLOW_OPENAI_SPEC_DIR overrides (e.g. in a different checkout). */
export function getSpecDir(): string {
  return (
    process.env.TOOLFLOW_OPENAI_SPEC_DIR ??
    fileURLToPath(new URL('../../../tests/fixtures/spec/openai/', import.meta.url))
  );
}

const SCHEMAS = [
  'ChatCompletionsToolFields',
  'ChatCompletionRequestAssistantMessage',
  'ChatCompletionRequestToolMessage',
  'ChatCompletionResponseMessage',
  'ChatCompletionMessageToolCall',
  'ChatCompletionStreamResponseDelta',
  'ResponsesToolFields',
  'FunctionToolCall',
  'FunctionCallOutputItemParam',
  'ResponseOutputItemAddedEvent',
  'ResponseFunctionCallArgumentsDeltaEvent',
  'ResponseFunctionCallArgumentsDoneEvent',
] as const;
type SchemaName = (typeof SCHEMAS)[number];

let validators: Map<SchemaName, ValidateFunction> | undefined;

function getValidator(name: SchemaName): ValidateFunction {
  if (!validators) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // The OpenAI spec uses these formats as annotations only.
    for (const format of ['unixtime', 'double', 'int64', 'float']) ajv.addFormat(format, true);
    ajv.addFormat('uri', true);
    // Built aside and kept only when every schema compiled, so a missing file fails every
    // check with its name instead of leaving a half-filled table behind.
    const compiled = new Map<SchemaName, ValidateFunction>();
    for (const schema of SCHEMAS) {
      const file = `${getSpecDir()}/${schema}.json`;
      if (!existsSync(file)) {
        throw new Error(
          `OpenAI spec schema missing: ${file}. The schemas live in tests/fixtures/spec/openai (see its README); TOOLFLOW_OPENAI_SPEC_DIR points elsewhere.`,
        );
      }
      compiled.set(schema, ajv.compile(JSON.parse(readFileSync(file, 'utf8')) as object));
    }
    validators = compiled;
  }
  return validators.get(name) as ValidateFunction;
}

function check(name: SchemaName, value: unknown, where: string, problems: string[]): void {
  const validate = getValidator(name);
  if (validate(value)) return;
  for (const error of validate.errors ?? []) {
    problems.push(
      `${where}${error.instancePath}: ${error.message ?? 'invalid'} (${name}${error.schemaPath})`,
    );
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * Problems with a request body: the whole body against the tool-field schemas of its API, and
 * each assistant/tool message (Chat) or function_call/function_call_output item (Responses).
 */
export function checkRequest(request: LoggedRequest): string[] {
  const problems: string[] = [];
  const body = asObject(request.body);
  const at = `${request.method} ${request.path}`;
  if (request.api === 'chat') {
    check('ChatCompletionsToolFields', body, at, problems);
    (Array.isArray(body.messages) ? body.messages : []).forEach((message, i) => {
      const role = asObject(message).role;
      if (role === 'assistant')
        check('ChatCompletionRequestAssistantMessage', message, `${at} /messages/${i}`, problems);
      if (role === 'tool')
        check('ChatCompletionRequestToolMessage', message, `${at} /messages/${i}`, problems);
    });
  } else if (request.api === 'responses') {
    check('ResponsesToolFields', body, at, problems);
    (Array.isArray(body.input) ? body.input : []).forEach((item, i) => {
      const type = asObject(item).type;
      if (type === 'function_call') check('FunctionToolCall', item, `${at} /input/${i}`, problems);
      if (type === 'function_call_output')
        check('FunctionCallOutputItemParam', item, `${at} /input/${i}`, problems);
    });
  }
  return problems;
}

/**
 * Problems with a reply: Chat messages and tool calls, streamed deltas; Responses function-call
 * items (in the output and in events) and the output-item and argument events. Error replies
 * carry no schema here and are skipped.
 */
export function checkReply(reply: LoggedReply, index = 0): string[] {
  const problems: string[] = [];
  if (reply.status !== 200) return problems;
  const at = `reply ${index} (${reply.api})`;
  if (reply.api === 'chat') {
    if (!reply.stream) {
      asArray(asObject(reply.body).choices).forEach((choice, i) => {
        const message = asObject(choice).message;
        check('ChatCompletionResponseMessage', message, `${at} /choices/${i}/message`, problems);
        asArray(asObject(message).tool_calls).forEach((call, j) =>
          check(
            'ChatCompletionMessageToolCall',
            call,
            `${at} /choices/${i}/message/tool_calls/${j}`,
            problems,
          ),
        );
      });
    } else {
      (reply.events ?? []).forEach((event, e) => {
        asArray(asObject(event.data).choices).forEach((choice, i) =>
          check(
            'ChatCompletionStreamResponseDelta',
            asObject(choice).delta,
            `${at} chunk ${e} /choices/${i}/delta`,
            problems,
          ),
        );
      });
    }
  } else if (reply.api === 'responses') {
    const checkOutput = (output: unknown, where: string) =>
      asArray(output).forEach((item, i) => {
        if (asObject(item).type === 'function_call')
          check('FunctionToolCall', item, `${where}/output/${i}`, problems);
      });
    if (!reply.stream) checkOutput(asObject(reply.body).output, at);
    (reply.events ?? []).forEach((event, e) => {
      const data = asObject(event.data);
      const where = `${at} event ${e} ${String(data.type)}`;
      if (event.event !== data.type)
        problems.push(`${where}: SSE event name "${event.event}" differs from data.type`);
      switch (data.type) {
        case 'response.output_item.added':
          check('ResponseOutputItemAddedEvent', data, where, problems);
          break;
        case 'response.function_call_arguments.delta':
          check('ResponseFunctionCallArgumentsDeltaEvent', data, where, problems);
          break;
        case 'response.function_call_arguments.done':
          check('ResponseFunctionCallArgumentsDoneEvent', data, where, problems);
          break;
        case 'response.output_item.done':
          if (asObject(data.item).type === 'function_call')
            check('FunctionToolCall', data.item, `${where} /item`, problems);
          break;
        case 'response.completed':
          checkOutput(asObject(data.response).output, `${where} /response`);
          break;
      }
    });
  }
  return problems;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
