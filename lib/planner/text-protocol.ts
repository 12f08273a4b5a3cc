/**
 * The text protocol (docs/design.md §6.6): for models without native function calling, the tools
 * are described in the system prompt and the model writes
 * `<tool_call>{"name": …, "arguments": {…}}</tool_call>` blocks in its reply. Replies are read
 * tolerantly: blocks may sit in prose or code fences, use `tool_name`/`args`/`parameters`, or
 * hold almost-JSON. Blocks are found while the reply streams, so a step can appear as soon as
 * its block closes.
 */
import { repairJson, type ArgumentCut } from './arguments';

/** One call read from a reply. `arguments` is JSON text so it goes through the same parser as
 * native calls; `raw` is the block as written. */
export type TextToolCall =
  | { ok: true; name: string; arguments: string; raw: string; repairs: string[]; cut?: ArgumentCut }
  | { ok: false; error: string; raw: string };

const OPEN = /<tool_call\b[^>]*>/i;
const CLOSE = /<\/tool_call\s*>/i;

/**
 * Finds `<tool_call>` blocks as reply text streams in. `push` returns the blocks completed by
 * that piece; `finish` returns what is left: an unclosed last block, or — when the reply had no
 * tags at all — fenced JSON blocks shaped like a call.
 */
export function createToolCallScanner(): { push(text: string): TextToolCall[]; finish(): TextToolCall[] } {
  let buffer = '';
  let all = '';
  let sawTag = false;
  return {
    push(text: string): TextToolCall[] {
      buffer += text;
      all += text;
      const calls: TextToolCall[] = [];
      for (;;) {
        const open = OPEN.exec(buffer);
        if (!open) {
          // Keep only a tail that could still become `<tool_call>` (an unfinished tag).
          const tail = buffer.slice(buffer.lastIndexOf('<'));
          buffer = tail.startsWith('<') && !tail.includes('>') ? tail : '';
          break;
        }
        sawTag = true;
        const afterOpen = buffer.slice(open.index + open[0].length);
        const close = CLOSE.exec(afterOpen);
        if (!close) {
          buffer = buffer.slice(open.index);
          break;
        }
        calls.push(readToolCallBody(afterOpen.slice(0, close.index)));
        buffer = afterOpen.slice(close.index + close[0].length);
      }
      return calls;
    },
    finish(): TextToolCall[] {
      const open = OPEN.exec(buffer);
      if (open) {
        sawTag = true;
        const body = buffer.slice(open.index + open[0].length);
        buffer = '';
        return body.trim() === '' ? [] : [readToolCallBody(body)];
      }
      if (sawTag) return [];
      return readFencedCalls(all);
    },
  };
}

/** Read every call in a complete reply (the non-streaming form of the scanner). */
export function parseToolCallText(text: string): TextToolCall[] {
  const scanner = createToolCallScanner();
  return [...scanner.push(text), ...scanner.finish()];
}

const FENCED_BLOCK = /```[\w-]*[ \t]*\n([\s\S]*?)```/g;

function readFencedCalls(text: string): TextToolCall[] {
  const calls: TextToolCall[] = [];
  for (const match of text.matchAll(FENCED_BLOCK)) {
    const call = readToolCallBody(match[1]);
    // Only JSON that names a tool is a call; other fenced code is prose.
    if (call.ok) calls.push(call);
  }
  return calls;
}

const NAME_KEYS = ['name', 'tool_name', 'tool', 'function_name'] as const;
const ARGUMENT_KEYS = ['arguments', 'args', 'parameters', 'input', 'tool_args'] as const;

function readToolCallBody(body: string): TextToolCall {
  const raw = body.trim();
  if (raw === '') return { ok: false, error: 'the <tool_call> block is empty', raw };
  const read = repairJson(raw);
  if (!read.ok) return readBrokenBody(raw);
  const parsed = read.value;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, error: 'the <tool_call> block is not a JSON object', raw };
  }
  let record = parsed as Record<string, unknown>;
  let cutPath = read.cut?.path;
  // OpenAI-style `{"function": {"name", "arguments"}}` inside the block.
  if (typeof record.function === 'object' && record.function !== null && !Array.isArray(record.function)) {
    record = record.function as Record<string, unknown>;
    cutPath = cutPath?.[0] === 'function' ? cutPath.slice(1) : undefined;
  }
  const name = NAME_KEYS.map((k) => record[k]).find(
    (v): v is string => typeof v === 'string' && v.trim() !== '',
  );
  if (name === undefined) {
    return { ok: false, error: 'the <tool_call> block has no "name"', raw };
  }
  const argsKey = ARGUMENT_KEYS.find((k) => k in record);
  const args = argsKey === undefined ? {} : record[argsKey];
  // Arguments given as a JSON string stay text: the step parser reads (and reports) them.
  const argumentsText = typeof args === 'string' ? args : JSON.stringify(args ?? {});
  // Where a cut-off block ended, relative to the arguments (a cut inside an arguments string
  // is found again when that string is parsed).
  const cut =
    read.cut && typeof args !== 'string' && cutPath && cutPath.length > 1 && cutPath[0] === argsKey
      ? { path: cutPath.slice(1), kind: read.cut.kind }
      : undefined;
  return {
    ok: true,
    name: name.trim(),
    arguments: argumentsText,
    raw,
    repairs: read.repairs,
    ...(cut ? { cut } : {}),
  };
}

/** The block is not JSON even after repair: keep the name if it can be read, and the raw text. */
function readBrokenBody(raw: string): TextToolCall {
  const name = /"(?:name|tool_name|tool)"\s*:\s*"([^"]+)"/.exec(raw)?.[1];
  if (name === undefined) {
    return { ok: false, error: 'the <tool_call> block is not valid JSON and names no tool', raw };
  }
  const argsAt = /"(?:arguments|args|parameters|input)"\s*:\s*/.exec(raw);
  const argumentsText = argsAt ? raw.slice(argsAt.index + argsAt[0].length).replace(/\}\s*$/, '') : raw;
  return { ok: true, name, arguments: argumentsText, raw, repairs: [] };
}
