/**
 * Reading a model's tool-call arguments. Models send text that is *meant* to be a JSON object
 * and often is not quite (seed 003): wrapped in a code fence or prose, single-quoted, with
 * trailing commas, Python literals, or cut off mid-stream. A tolerant repair fixes the common
 * slips and says which it applied, so the person sees that the values were guessed at.
 */

/** The arguments as an object, plus what had to be repaired to read them. */
export type ParsedArguments =
  { ok: true; value: Record<string, unknown>; repairs: string[] } | { ok: false; error: string };

/**
 * Parse tool-call arguments. Empty text is `{}` (some providers send `""` for no-arg calls).
 * Strict JSON first; otherwise one tolerant pass (`repairJsonText`), whose repairs are listed.
 * A value that is JSON but not an object is an error, except a JSON string holding an object
 * (double-encoded arguments), which is unwrapped and reported.
 */
export function parseToolArguments(raw: string): ParsedArguments {
  if (raw.trim() === '') return { ok: true, value: {}, repairs: [] };
  let strictError: string;
  try {
    return asObject(JSON.parse(raw), []);
  } catch (error) {
    strictError = error instanceof Error ? error.message : String(error);
  }
  const repaired = repairJsonText(raw);
  if (repaired.repairs.length > 0) {
    try {
      return asObject(JSON.parse(repaired.text), repaired.repairs);
    } catch {
      // Fall through: report the strict parser's message, which points into the text as sent.
    }
  }
  return { ok: false, error: `not valid JSON (${strictError})` };
}

function asObject(value: unknown, repairs: string[]): ParsedArguments {
  if (typeof value === 'string') {
    try {
      const inner: unknown = JSON.parse(value);
      if (isPlainObject(inner))
        return { ok: true, value: inner, repairs: [...repairs, 'unwrapped double-encoded JSON'] };
    } catch {
      // Not double-encoded: a bare string is simply the wrong shape.
    }
  }
  if (isPlainObject(value)) return { ok: true, value, repairs };
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return { ok: false, error: `a JSON object was expected, got ${kind}` };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Text that may parse after repair, and the repairs applied (empty when nothing changed). */
export interface RepairedJson {
  text: string;
  repairs: string[];
}

const FENCE = /^\s*```[\w-]*\s*\n?([\s\S]*?)\n?\s*```\s*$/;
const PYTHON_LITERALS: Record<string, string> = { True: 'true', False: 'false', None: 'null' };

/**
 * One tolerant pass over almost-JSON: strips a code fence and surrounding prose, turns
 * single-quoted strings into JSON strings, quotes bare keys, maps Python's True/False/None,
 * drops trailing commas and closes what a cut-off stream left open.
 */
export function repairJsonText(raw: string): RepairedJson {
  const repairs: string[] = [];
  let text = raw;
  const fenced = FENCE.exec(text);
  if (fenced) {
    text = fenced[1];
    repairs.push('removed a code fence');
  }
  const start = text.search(/[{[]/);
  if (start > 0 && text.slice(0, start).trim() !== '') {
    repairs.push('removed text before the JSON');
  }
  if (start >= 0) text = text.slice(start);
  const end = findBalancedEnd(text);
  if (end !== -1 && text.slice(end + 1).trim() !== '') {
    repairs.push('removed text after the JSON');
    text = text.slice(0, end + 1);
  }
  const rewritten = rewriteTokens(text);
  return { text: rewritten.text, repairs: [...repairs, ...rewritten.repairs] };
}

/** Index of the bracket closing the value that starts at 0, or -1 when it never closes. */
function findBalancedEnd(text: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

function rewriteTokens(text: string): RepairedJson {
  const repairs = new Set<string>();
  const out: string[] = [];
  const stack: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const { json, next, closed } = readString(text, i, c);
      if (c === "'") repairs.add('converted single-quoted strings');
      if (!closed) repairs.add('closed an unterminated string');
      out.push(json);
      i = next;
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push(c === '{' ? '}' : ']');
      out.push(c);
      i++;
      continue;
    }
    if (c === '}' || c === ']') {
      dropTrailingComma(out, repairs);
      stack.pop();
      out.push(c);
      i++;
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      let j = i;
      while (j < text.length && /[\w$-]/.test(text[j])) j++;
      const word = text.slice(i, j);
      const isKey = /^\s*:/.test(text.slice(j)) && stack[stack.length - 1] === '}';
      if (isKey) {
        repairs.add('quoted bare keys');
        out.push(JSON.stringify(word));
      } else if (word in PYTHON_LITERALS) {
        repairs.add('replaced Python True/False/None');
        out.push(PYTHON_LITERALS[word]);
      } else {
        out.push(word);
      }
      i = j;
      continue;
    }
    out.push(c);
    i++;
  }
  if (stack.length > 0) {
    dropTrailingComma(out, repairs);
    repairs.add('closed brackets left open (the reply looks cut off)');
    while (stack.length > 0) out.push(stack.pop() as string);
  }
  return { text: out.join(''), repairs: [...repairs] };
}

function dropTrailingComma(out: string[], repairs: Set<string>): void {
  for (let k = out.length - 1; k >= 0; k--) {
    if (/^\s+$/.test(out[k])) continue;
    if (out[k] === ',') {
      out.splice(k, 1);
      repairs.add('removed trailing commas');
    }
    return;
  }
}

/** Read a quoted string starting at `start`; return it as a JSON string literal. */
function readString(
  text: string,
  start: number,
  quote: string,
): { json: string; next: number; closed: boolean } {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      const escaped = text[i + 1];
      if (escaped === "'") value += "'";
      else {
        // Keep JSON escapes as JSON would read them.
        try {
          value += JSON.parse(`"\\${escaped === 'u' ? text.slice(i + 1, i + 6) : escaped}"`);
          if (escaped === 'u') i += 4;
        } catch {
          value += escaped;
        }
      }
      i += 2;
      continue;
    }
    if (c === quote) return { json: JSON.stringify(value), next: i + 1, closed: true };
    value += c;
    i++;
  }
  return { json: JSON.stringify(value), next: i, closed: false };
}
