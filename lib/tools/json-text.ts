/**
 * JSON text parsing that says where the text is broken, and how deep it may nest. `JSON.parse`
 * on Node 20 reports "Unexpected token '}', ... is not valid JSON" without a position, so when it
 * fails, `jsonc-parser` re-reads the text to find the first error's line, column and kind; this
 * module only words it for a person.
 */
import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';
import { err, ok, type Issue, type Result } from '../result';
import { parseJson } from './json-value';
import { MAX_JSON_DEPTH } from './storable';

/**
 * The deepest nesting of arrays and objects Toolflow reads from a file (README, "Limits"): what
 * the database can store in a declaration or value, and the file around it (storable.ts). Real
 * declaration files stay far below it; much deeper input would also exhaust the call stack of the
 * code that walks it (cloning, schema conversion, hashing).
 */
export { MAX_JSON_DEPTH };

/** Depth of nested arrays/objects in a value, computed iteratively so hostile input cannot blow the stack. */
export function getJsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v && typeof v === 'object') {
      if (d > max) max = d;
      for (const child of Object.values(v))
        if (child && typeof child === 'object') stack.push([child, d + 1]);
    }
  }
  return max;
}

/** The issue for a value nested deeper than `MAX_JSON_DEPTH`; `where` says where it starts. */
export function tooDeepIssue(depth: number, where = ''): Issue {
  return {
    path: '',
    code: 'too_deep',
    message: `The JSON is nested ${depth} levels deep${where}; Toolflow reads at most ${MAX_JSON_DEPTH} levels of arrays and objects. Flatten the schema or value.`,
  };
}

/**
 * How deep the text nests, and the offset where it first goes past `limit`, scanning characters
 * (strings skipped) without parsing: cheap, and safe for any depth.
 */
function scanDepth(text: string, limit: number): { depth: number; overAt?: number } {
  let depth = 0;
  let max = 0;
  let overAt: number | undefined;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
      if (depth > limit && overAt === undefined) overAt = i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return { depth: max, overAt };
}

interface SyntaxProblem {
  offset: number;
  message: string;
}

const EXPECTED_VALUE = 'expected a value (object, array, string, number, true, false or null)';

function describeAt(text: string, offset: number): string {
  return offset >= text.length ? 'end of text' : JSON.stringify(text[offset]);
}

/** The last non-whitespace character before `offset`. */
function previousChar(text: string, offset: number): string | undefined {
  for (let i = offset - 1; i >= 0; i--) if (!/\s/.test(text[i])) return text[i];
  return undefined;
}

/** The first offset in [from, to) whose character matches `test`, else `from`. */
function findIn(text: string, from: number, to: number, test: (c: string, i: number) => boolean): number {
  for (let i = from; i < to && i < text.length; i++) if (test(text[i], i)) return i;
  return from;
}

/** Words a jsonc-parser error for a person, with the offset the person should look at. */
function describeProblem(
  text: string,
  code: ParseErrorCode,
  offset: number,
  length: number,
  container: 'object' | 'array' | undefined,
  ended: boolean,
): SyntaxProblem {
  const at = describeAt(text, offset);
  const end = offset + length;
  const kind = printParseErrorCode(code);
  switch (kind) {
    case 'InvalidSymbol':
      if (text[offset] === "'") {
        const key = container === 'object' && '{,'.includes(previousChar(text, offset) ?? '');
        return {
          offset,
          message: key
            ? `unexpected ${at}; expected a property name in double quotes`
            : 'strings must use double quotes, not single quotes',
        };
      }
      if (ended) return { offset, message: `unexpected ${at} after the end of the JSON value` };
      if (text[offset] === '-' || /[0-9]/.test(text[offset])) return { offset, message: 'invalid number' };
      return { offset, message: `unexpected ${at}; ${EXPECTED_VALUE}` };
    case 'EndOfFileExpected':
      return { offset, message: `unexpected ${at} after the end of the JSON value` };
    case 'PropertyNameExpected':
      if (text[offset] === '}' && previousChar(text, offset) === ',')
        return { offset, message: 'trailing comma before "}"; remove the last comma' };
      return { offset, message: `unexpected ${at}; expected a property name in double quotes` };
    case 'ValueExpected':
      if (text.trim() === '') return { offset, message: 'the text is empty; expected a JSON value' };
      if (text[offset] === ']' && previousChar(text, offset) === ',')
        return { offset, message: 'trailing comma before "]"; remove the last comma' };
      // jsonc-parser says "value expected" for `{,}` too, where a name is missing.
      if (container === 'object' && '{,'.includes(previousChar(text, offset) ?? ''))
        return { offset, message: `unexpected ${at}; expected a property name in double quotes` };
      return { offset, message: `unexpected ${at}; ${EXPECTED_VALUE}` };
    case 'ColonExpected':
      return { offset, message: `unexpected ${at}; expected ":" after the property name` };
    case 'CommaExpected':
    case 'CloseBraceExpected':
    case 'CloseBracketExpected': {
      const inArray = kind === 'CloseBracketExpected' || (kind === 'CommaExpected' && container === 'array');
      return {
        offset,
        message: `unexpected ${at}; expected "," or "${inArray ? ']' : '}'}" in ${inArray ? 'an array' : 'an object'}`,
      };
    }
    case 'UnexpectedEndOfString':
    case 'InvalidCharacter': {
      const control = findIn(text, offset + 1, end + 1, (c) => c.charCodeAt(0) < 0x20);
      if (control > offset && control < text.length && text.charCodeAt(control) < 0x20)
        return { offset: control, message: 'unescaped control character (such as a line break) in a string' };
      return { offset, message: 'unterminated string; add the closing double quote' };
    }
    case 'InvalidEscapeCharacter':
      return {
        offset: findIn(text, offset, end, (c, i) => c === '\\' && !'"\\/bfnrtu'.includes(text[i + 1] ?? '')),
        message: 'invalid escape sequence in a string',
      };
    case 'InvalidUnicode':
      return {
        offset: findIn(
          text,
          offset,
          end,
          (c, i) => c === '\\' && text[i + 1] === 'u' && !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)),
        ),
        message: 'invalid \\u escape; expected four hex digits',
      };
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return { offset, message: 'invalid number' };
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return { offset, message: 'comments are not allowed in JSON' };
    default:
      return { offset, message: `unexpected ${at}` };
  }
}

/** The first syntax problem jsonc-parser finds, worded; undefined when it finds none. */
function findProblem(text: string): SyntaxProblem | undefined {
  const stack: ('object' | 'array')[] = [];
  let ended = false;
  let problem: SyntaxProblem | undefined;
  const close = () => {
    stack.pop();
    if (stack.length === 0) ended = true;
  };
  visit(
    text,
    {
      onObjectBegin: () => void stack.push('object'),
      onObjectEnd: close,
      onArrayBegin: () => void stack.push('array'),
      onArrayEnd: close,
      onLiteralValue: () => {
        if (stack.length === 0) ended = true;
      },
      onError: (code, offset, length) => {
        problem ??= describeProblem(text, code, offset, length, stack.at(-1), ended && stack.length === 0);
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return problem;
}

/** 1-based line and column of a string offset (columns count UTF-16 code units). */
export function getLineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Parse JSON text; a syntax error becomes one `bad_json` issue whose message names the line
 * and column of the first problem, and text nested deeper than `MAX_JSON_DEPTH` one `too_deep`
 * issue naming the depth and where it starts. A leading byte-order mark is ignored.
 */
export function parseJsonText(text: string): Result<unknown> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const { depth, overAt } = scanDepth(body, MAX_JSON_DEPTH);
  if (overAt !== undefined) {
    const { line, column } = getLineColumn(body, overAt);
    return err([
      tooDeepIssue(depth, ` (level ${MAX_JSON_DEPTH + 1} starts at line ${line}, column ${column})`),
    ]);
  }
  try {
    return ok(parseJson(body));
  } catch {
    const problem = findProblem(body) ?? { offset: 0, message: 'the text is not valid JSON' };
    const { line, column } = getLineColumn(body, problem.offset);
    const issue: Issue = {
      path: '',
      code: 'bad_json',
      message: `Invalid JSON at line ${line}, column ${column}: ${problem.message}. Fix the file so it is valid JSON.`,
    };
    return err([issue]);
  }
}
