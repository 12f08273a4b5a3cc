/**
 * JSON text parsing that says where the text is broken. `JSON.parse` on Node 20 reports
 * "Unexpected token '}', ... is not valid JSON" without a position, so when it fails a small
 * scanner re-reads the text to find the first error's line and column.
 */
import { err, ok, type Issue, type Result } from '../result';

/** Deeper than any declaration file; keeps the recursive scanner off the call-stack limit. */
const MAX_DEPTH = 2000;

interface SyntaxProblem {
  offset: number;
  message: string;
}

class Scanner {
  private pos = 0;
  constructor(private readonly text: string) {}

  /** The first syntax problem in the text, or undefined when the text is valid JSON. */
  findProblem(): SyntaxProblem | undefined {
    try {
      this.skipWhitespace();
      if (this.pos >= this.text.length) return this.fail('the text is empty; expected a JSON value');
      this.value(0);
      this.skipWhitespace();
      if (this.pos < this.text.length) {
        return this.fail(`unexpected ${this.describe()} after the end of the JSON value`);
      }
      return undefined;
    } catch (problem) {
      if (isSyntaxProblem(problem)) return problem;
      throw problem;
    }
  }

  private fail(message: string, offset = this.pos): never {
    const problem: SyntaxProblem = { offset, message };
    throw problem;
  }

  private describe(): string {
    if (this.pos >= this.text.length) return 'end of text';
    return JSON.stringify(this.text[this.pos]);
  }

  private skipWhitespace(): void {
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') break;
      this.pos++;
    }
  }

  private value(depth: number): void {
    if (depth > MAX_DEPTH) this.fail(`nesting deeper than ${MAX_DEPTH} levels`);
    this.skipWhitespace();
    const c = this.text[this.pos];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    if (c === '-' || (c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return;
      }
    }
    if (c === "'") this.fail('strings must use double quotes, not single quotes');
    this.fail(
      `unexpected ${this.describe()}; expected a value (object, array, string, number, true, false or null)`,
    );
  }

  private object(depth: number): void {
    this.pos++; // {
    this.skipWhitespace();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] === '}') this.fail('trailing comma before "}"; remove the last comma');
      if (this.text[this.pos] !== '"') {
        this.fail(`unexpected ${this.describe()}; expected a property name in double quotes`);
      }
      this.string();
      this.skipWhitespace();
      if (this.text[this.pos] !== ':')
        this.fail(`unexpected ${this.describe()}; expected ":" after the property name`);
      this.pos++;
      this.value(depth + 1);
      this.skipWhitespace();
      const c = this.text[this.pos];
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === '}') {
        this.pos++;
        return;
      }
      this.fail(`unexpected ${this.describe()}; expected "," or "}" in an object`);
    }
  }

  private array(depth: number): void {
    this.pos++; // [
    this.skipWhitespace();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.pos] === ']') this.fail('trailing comma before "]"; remove the last comma');
      this.value(depth + 1);
      this.skipWhitespace();
      const c = this.text[this.pos];
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === ']') {
        this.pos++;
        return;
      }
      this.fail(`unexpected ${this.describe()}; expected "," or "]" in an array`);
    }
  }

  private string(): void {
    const start = this.pos;
    this.pos++; // opening quote
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const next = this.text[this.pos + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.pos + 2, this.pos + 6))) {
            this.fail('invalid \\u escape; expected four hex digits');
          }
          this.pos += 6;
          continue;
        }
        if (next === undefined || !'"\\/bfnrt'.includes(next))
          this.fail('invalid escape sequence in a string');
        this.pos += 2;
        continue;
      }
      if (c.charCodeAt(0) < 0x20) this.fail('unescaped control character (such as a line break) in a string');
      this.pos++;
    }
    this.fail('unterminated string; add the closing double quote', start);
  }

  private number(): void {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 400));
    if (!match || match[0] === '-' || match[0] === '') this.fail('invalid number');
    this.pos += match[0].length;
  }
}

function isSyntaxProblem(value: unknown): value is SyntaxProblem {
  return typeof value === 'object' && value !== null && 'offset' in value && 'message' in value;
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
 * and column of the first problem. A leading byte-order mark is ignored.
 */
export function parseJsonText(text: string): Result<unknown> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return ok(JSON.parse(body));
  } catch {
    const problem = new Scanner(body).findProblem() ?? { offset: 0, message: 'the text is not valid JSON' };
    const { line, column } = getLineColumn(body, problem.offset);
    const issue: Issue = {
      path: '',
      code: 'bad_json',
      message: `Invalid JSON at line ${line}, column ${column}: ${problem.message}. Fix the file so it is valid JSON.`,
    };
    return err([issue]);
  }
}
