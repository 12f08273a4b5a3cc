/**
 * Reading a model's tool-call arguments. Models send text that is *meant* to be a JSON object
 * and often is not quite: wrapped in a code fence or prose, single-quoted, with
 * trailing commas, Python literals, or cut off mid-stream. The `jsonrepair` library does the
 * repair; this module says which repairs it made, so the person (and the model) learn that the
 * values were guessed at, and where a cut-off reply ended, so a value that was cut short is
 * flagged instead of looking complete.
 */
import { jsonrepair } from 'jsonrepair';
import { createRecord, parseJson } from '../tools/json-value';

/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = (string | number)[];

/**
 * Where a cut-off reply ended. `value`: inside the value at `path`, which may be incomplete.
 * `missing`: after the name at `path` and before its value; the member was left out (a repair
 * would otherwise have invented `null` for it, which would look like a value the model sent).
 */
export interface ArgumentCut {
  path: JsonPath;
  kind: 'value' | 'missing';
}

/** A JSON value read from almost-JSON, with what had to be repaired and where it was cut. */
export type RepairedJson =
  { ok: true; value: unknown; repairs: string[]; cut?: ArgumentCut } | { ok: false; error: string };

/** The arguments as an object, plus what had to be repaired to read them. */
export type ParsedArguments =
  | { ok: true; value: Record<string, unknown>; repairs: string[]; cut?: ArgumentCut }
  | { ok: false; error: string };

/**
 * Parse tool-call arguments. Empty text is `{}` (some providers send `""` for no-arg calls).
 * Strict JSON first; otherwise `repairJson`, whose repairs are listed. A value that is JSON but
 * not an object is an error, except a JSON string holding an object (double-encoded
 * arguments), which is unwrapped and reported.
 */
export function parseToolArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { ok: true, value: createRecord(), repairs: [] };
  const read = repairJson(raw);
  if (!read.ok) return read;
  const { value, repairs, cut } = read;
  if (typeof value === 'string' && repairs.length === 0) {
    try {
      const inner: unknown = parseJson(value);
      if (isPlainObject(inner)) return { ok: true, value: inner, repairs: ['unwrapped double-encoded JSON'] };
    } catch {
      // Not double-encoded: a bare string is simply the wrong shape.
    }
  }
  if (isPlainObject(value)) return { ok: true, value, repairs, ...(cut ? { cut } : {}) };
  if (repairs.length > 0) return { ok: false, error: `not valid JSON (${getStrictError(raw)})` };
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return { ok: false, error: `a JSON object was expected, got ${kind}` };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function getStrictError(raw: string): string {
  try {
    parseJson(raw);
    return 'no error';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const FENCE = /```[\w-]*[ \t]*\n?([\s\S]*?)(?:```|$)/;

/**
 * Read almost-JSON: strict JSON as it is, else the text inside a code fence and without prose
 * around it, repaired by `jsonrepair`. The repairs are named from what the text shows (a fence,
 * prose, single quotes, bare keys, Python literals, trailing commas, comments, a cut-off end);
 * other fixes `jsonrepair` makes are named together.
 */
export function repairJson(raw: string): RepairedJson {
  try {
    return { ok: true, value: parseJson(raw), repairs: [] };
  } catch (error) {
    const strict = error instanceof Error ? error.message : String(error);
    const repairs: string[] = [];
    let text = raw;
    const fenced = FENCE.exec(text);
    if (fenced && /[{[]/.test(fenced[1])) {
      repairs.push('removed a code fence');
      if (text.slice(0, fenced.index).trim() !== '') repairs.push('removed text before the JSON');
      if (text.slice(fenced.index + fenced[0].length).trim() !== '')
        repairs.push('removed text after the JSON');
      text = fenced[1];
    } else if (fenced) {
      // Only a closing fence (the opening one was cut, or the JSON came before it).
      repairs.push('removed a code fence');
      text = text.replace(/```[\w-]*/g, '');
    }
    const start = text.search(/[{[]/);
    if (start > 0 && text.slice(0, start).trim() !== '') {
      repairs.push('removed text before the JSON');
      text = text.slice(start);
    }
    const repaired = runRepair(text);
    if (!repaired.ok) return { ok: false, error: `not valid JSON (${strict})` };
    if (repaired.dropped) repairs.push('removed text after the JSON');
    const scan = scanJson(repaired.text);
    repairs.push(...describeRepairs(scan));
    let value = repaired.value;
    let cut: ArgumentCut | undefined;
    if (scan.cut) {
      cut = scan.cut;
      if (cut.kind === 'missing') value = removeAt(value, cut.path);
    }
    if (repairs.length === 0) repairs.push('fixed the JSON syntax');
    return { ok: true, value, repairs: unique(repairs), ...(cut ? { cut } : {}) };
  }
}

/**
 * `jsonrepair` on the text; when it stops at text after a complete value (prose after the
 * JSON), the value before it.
 */
function runRepair(
  text: string,
): { ok: true; value: unknown; text: string; dropped: boolean } | { ok: false } {
  try {
    return { ok: true, value: parseJson(jsonrepair(text)), text, dropped: false };
  } catch (error) {
    const at = (error as { position?: unknown }).position;
    if (typeof at !== 'number' || at <= 0) return { ok: false };
    const head = text.slice(0, at);
    const scan = scanJson(head);
    if (scan.depth > 0 || scan.inString || scan.cut) return { ok: false };
    try {
      return { ok: true, value: parseJson(jsonrepair(head)), text: head, dropped: true };
    } catch {
      return { ok: false };
    }
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

interface Frame {
  open: '{' | '[';
  /** The raw token of the current member's name (objects). */
  key?: string;
  index: number;
  /** key: a name is expected; named: a name was read, no colon yet; value: a value is expected;
   * filled: the value has started (or ended). */
  state: 'key' | 'named' | 'value' | 'filled';
}

interface JsonScan {
  depth: number;
  inString: boolean;
  singleQuotes: boolean;
  /** The text outside strings (strings as `""`), for naming the other repairs. */
  outside: string;
  cut?: ArgumentCut;
}

/**
 * One pass over almost-JSON that follows its structure (objects, arrays, strings in either
 * quote, bare words, comments) without judging it: where the text ends (inside a string, how
 * deep) and, when it ends early, the path of the member it ended in.
 */
function scanJson(text: string): JsonScan {
  const stack: Frame[] = [];
  const outside: string[] = [];
  let singleQuotes = false;
  let lastToken: string | undefined;
  let i = 0;
  /** The text ended inside a bare word (a number or literal may be cut short). */
  let endedInToken = false;

  const onToken = (token: string) => {
    lastToken = token;
    const frame = stack[stack.length - 1];
    if (!frame) return;
    if (frame.open === '{' && frame.state === 'key') {
      frame.key = token;
      frame.state = 'named';
    } else {
      frame.state = 'filled';
    }
  };

  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      if (c === "'") singleQuotes = true;
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      const closed = j < text.length;
      onToken(text.slice(i, closed ? j + 1 : text.length));
      outside.push('""');
      if (!closed) return finishScan(stack, outside, singleQuotes, true, true);
      endedInToken = false;
      i = j + 1;
      continue;
    }
    if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      outside.push(text[i + 1] === '/' ? '//' : '/**/');
      i = end === -1 ? text.length : end + (text[i + 1] === '/' ? 0 : 2);
      continue;
    }
    if (/[\w$.+-]/.test(c)) {
      let j = i;
      while (j < text.length && /[\w$.+-]/.test(text[j])) j++;
      onToken(text.slice(i, j));
      outside.push(text.slice(i, j));
      endedInToken = j === text.length;
      i = j;
      continue;
    }
    outside.push(c);
    endedInToken = false;
    const frame = stack[stack.length - 1];
    if (c === '{' || c === '[') {
      if (frame) frame.state = 'filled';
      stack.push({ open: c, index: 0, state: c === '{' ? 'key' : 'value' });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',' && frame) {
      if (frame.open === '[') frame.index++;
      frame.state = frame.open === '{' ? 'key' : 'value';
      frame.key = frame.open === '{' ? undefined : frame.key;
    } else if (c === ':' && frame?.open === '{') {
      // A name without the comma before it (`{"a": 1 "b": 2}`) is the last token read.
      if (frame.state === 'filled' && lastToken !== undefined) frame.key = lastToken;
      frame.state = 'value';
    }
    i++;
  }
  return finishScan(stack, outside, singleQuotes, false, endedInToken);
}

function finishScan(
  stack: Frame[],
  outside: string[],
  singleQuotes: boolean,
  inString: boolean,
  endedInToken: boolean,
): JsonScan {
  const scan: JsonScan = { depth: stack.length, inString, singleQuotes, outside: outside.join('') };
  if (stack.length === 0) return scan;
  const path: JsonPath = [];
  for (const frame of stack.slice(0, -1)) {
    const step = frame.open === '[' ? frame.index : decodeKey(frame.key);
    if (step === undefined) return scan;
    path.push(step);
  }
  const last = stack[stack.length - 1];
  const key = last.open === '[' ? last.index : decodeKey(last.key);
  if (last.open === '{' && (last.state === 'named' || last.state === 'value')) {
    // The name was read (maybe only part of it) but no value: jsonrepair fills in null.
    if (key !== undefined) scan.cut = { path: [...path, key], kind: 'missing' };
  } else if (last.state === 'filled' && endedInToken && key !== undefined) {
    scan.cut = { path: [...path, key], kind: 'value' };
  }
  // Cut off between the members of a list or object inside a value: that value is incomplete.
  if (!scan.cut && path.length > 0) scan.cut = { path, kind: 'value' };
  return scan;
}

/** A member name as `jsonrepair` reads it (quoted either way, bare, or cut off). */
function decodeKey(token: string | undefined): string | undefined {
  if (token === undefined) return undefined;
  try {
    const object: unknown = parseJson(jsonrepair(`{${token}`));
    return isPlainObject(object) ? Object.keys(object)[0] : undefined;
  } catch {
    return undefined;
  }
}

function describeRepairs(scan: JsonScan): string[] {
  const repairs: string[] = [];
  if (/[{,]\s*[A-Za-z_$][\w$-]*\s*:/.test(scan.outside)) repairs.push('quoted bare keys');
  if (scan.singleQuotes) repairs.push('converted single-quoted strings');
  if (/(^|[^\w$])(True|False|None)(?![\w$])/.test(scan.outside))
    repairs.push('replaced Python True/False/None');
  if (/,\s*[}\]]/.test(scan.outside)) repairs.push('removed trailing commas');
  if (/\/\/|\/\*\*\//.test(scan.outside)) repairs.push('removed comments');
  if (scan.inString) repairs.push('closed an unterminated string');
  if (scan.depth > 0) repairs.push('closed brackets left open (the reply looks cut off)');
  return repairs;
}

/** `value` without the member at `path` (a copy along the path; the rest is shared). */
function removeAt(value: unknown, path: JsonPath): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === 'number') {
    if (rest.length === 0) return value.filter((_, i) => i !== head);
    return value.map((item, i) => (i === head ? removeAt(item, rest) : item));
  }
  // Parsed by parseJson: a record without a prototype, where `in` finds own members only.
  if (isPlainObject(value) && typeof head === 'string' && head in value) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (key === head && rest.length === 0) continue;
      Object.defineProperty(copy, key, {
        value: key === head ? removeAt(value[key], rest) : value[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return value;
}
