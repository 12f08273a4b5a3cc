/**
 * JSON Schema patterns are ECMAScript regular expressions (read with the `u` flag, as Ajv reads
 * them); Toolflow evaluates them with RE2 (linear-pattern.ts), whose syntax and a few meanings
 * differ. This module rewrites an ECMAScript pattern into RE2 syntax with the ECMAScript meaning,
 * or says which construct RE2 cannot express (a backreference, a lookaround), so such a pattern
 * is reported instead of evaluated. Pure: no RE2 here, so the rewrite is testable on its own.
 *
 * Where the meanings differ, the ECMAScript one is written out:
 * - `\s` and `\S`: ECMAScript's white space includes U+00A0, U+FEFF, U+2028 and the other Unicode
 *   spaces, RE2's only ASCII ones;
 * - `.`: ECMAScript leaves out every line terminator (`\n`, `\r`, U+2028, U+2029), RE2 only `\n`;
 * - `\uXXXX`, `\u{…}`, `\cX`, `\0`, and a surrogate pair written as two `\u` escapes, become
 *   RE2's `\x{…}`;
 * - `[^]` (anything) and `[]` (nothing) have no RE2 spelling, and `[` inside a class is literal
 *   in ECMAScript but starts a POSIX class (`[[:alpha:]]`) in RE2;
 * - `\p{…}` takes ECMAScript's long names (`Letter`, `Script=Greek`), RE2 the short or bare ones.
 * `\d`, `\w` and `\b` are ASCII in both (no `i` flag), `^` and `$` are the start and the end of the
 * text in both (no `m` flag).
 */

/** ECMAScript's `\s` (WhiteSpace and LineTerminator), as the inside of an RE2 class. */
const WHITE_SPACE =
  '\\t\\n\\v\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';
/** Every code point that is not in WHITE_SPACE, as the inside of an RE2 class. */
const NOT_WHITE_SPACE =
  '\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}' +
  '\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}';
const ANY = '[\\x{0}-\\x{10ffff}]';
const NOTHING = '[^\\x{0}-\\x{10ffff}]';
const NOT_LINE_TERMINATOR = '[^\\n\\r\\x{2028}\\x{2029}]';
const ASCII = '\\x{0}-\\x{7f}';
const NOT_ASCII = '\\x{80}-\\x{10ffff}';

/** ECMAScript's long General_Category names (and their aliases) by the short name RE2 knows. */
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  Letter: 'L',
  Cased_Letter: 'LC',
  Uppercase_Letter: 'Lu',
  Lowercase_Letter: 'Ll',
  Titlecase_Letter: 'Lt',
  Modifier_Letter: 'Lm',
  Other_Letter: 'Lo',
  Mark: 'M',
  Combining_Mark: 'M',
  Nonspacing_Mark: 'Mn',
  Spacing_Mark: 'Mc',
  Enclosing_Mark: 'Me',
  Number: 'N',
  Decimal_Number: 'Nd',
  digit: 'Nd',
  Letter_Number: 'Nl',
  Other_Number: 'No',
  Punctuation: 'P',
  punct: 'P',
  Connector_Punctuation: 'Pc',
  Dash_Punctuation: 'Pd',
  Open_Punctuation: 'Ps',
  Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi',
  Final_Punctuation: 'Pf',
  Other_Punctuation: 'Po',
  Symbol: 'S',
  Math_Symbol: 'Sm',
  Currency_Symbol: 'Sc',
  Modifier_Symbol: 'Sk',
  Other_Symbol: 'So',
  Separator: 'Z',
  Space_Separator: 'Zs',
  Line_Separator: 'Zl',
  Paragraph_Separator: 'Zp',
  Other: 'C',
  Control: 'Cc',
  cntrl: 'Cc',
  Format: 'Cf',
  Unassigned: 'Cn',
  Private_Use: 'Co',
  Surrogate: 'Cs',
};
const SHORT_CATEGORIES = new Set(Object.values(CATEGORY_ALIASES));

/** What a pattern became: RE2 syntax, or why it has none. */
export type PatternTranslation =
  /** `size` estimates what compiling it costs: see estimateSize. */
  | { ok: true; source: string; size: number }
  /** Valid ECMAScript that RE2 cannot express; `reason` names the construct ("a lookahead …"). */
  | { ok: false; reason: string };

class Unsupported extends Error {}

/**
 * The RE2 spelling of an ECMAScript pattern that `new RegExp(pattern, 'u')` accepts (check that
 * first: this reads only valid patterns). `dotAll` is the `s` flag.
 */
export function translatePattern(pattern: string, dotAll = false): PatternTranslation {
  try {
    return { ok: true, ...rewrite(pattern, dotAll) };
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * Weights of what RE2 compiles, for estimating the cost of compiling a pattern before paying it:
 * a counted repetition is compiled as that many copies (`a{1000}` is a thousand instructions),
 * and a class costs several times a literal (measured: about 5–10 µs per literal, 30–140 µs per
 * class or Unicode property, in re2js).
 */
const LITERAL_WEIGHT = 1;
const CLASS_WEIGHT = 8;

/** A counted repetition (`{2}`, `{2,}`, `{2,5}`), read where it starts. */
const QUANTIFIER = /\{(\d+)(,?)(\d*)\}/y;

/** The size estimate of the group being read: all of it, and its last atom (what `{n}` repeats). */
interface SizeFrame {
  total: number;
  last: number;
}

function rewrite(pattern: string, dotAll: boolean): { source: string; size: number } {
  let out = '';
  let i = 0;
  let inClass = false;
  const frames: SizeFrame[] = [{ total: 0, last: 0 }];
  const atom = (weight: number) => {
    const frame = frames[frames.length - 1];
    frame.last = weight;
    frame.total += weight;
  };
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      const escape = readEscape(pattern, i, inClass);
      out += escape.text;
      i += escape.length;
      if (!inClass)
        atom(/^\\x\{[\da-fA-F]+\}$|^\\[tnrvf]$/.test(escape.text) ? LITERAL_WEIGHT : CLASS_WEIGHT);
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c === '[' ? '\\[' : c;
      i++;
    } else if (c === '[') {
      atom(CLASS_WEIGHT);
      if (pattern.startsWith('[^]', i)) {
        out += ANY;
        i += 3;
      } else if (pattern.startsWith('[]', i)) {
        out += NOTHING;
        i += 2;
      } else {
        const negated = pattern[i + 1] === '^';
        out += negated ? '[^' : '[';
        i += negated ? 2 : 1;
        inClass = true;
      }
    } else if (c === '.') {
      out += dotAll ? ANY : NOT_LINE_TERMINATOR;
      i++;
      atom(CLASS_WEIGHT);
    } else if (c === '(') {
      const group = pattern[i + 1] === '?' ? readGroupOpening(pattern, i) : { text: '(', length: 1 };
      out += group.text;
      i += group.length;
      frames.push({ total: 0, last: 0 });
    } else if (c === ')') {
      out += c;
      i++;
      const group = frames.pop()!;
      atom(group.total);
    } else if (c === '{') {
      // Outside a class a brace is always a quantifier (the u flag refuses a lone one).
      QUANTIFIER.lastIndex = i;
      const [quantifier, min, comma, max] = QUANTIFIER.exec(pattern)!;
      out += quantifier;
      i += quantifier.length;
      const copies = Math.max(Number(min), max ? Number(max) : 0) + (comma && !max ? 1 : 0);
      const frame = frames[frames.length - 1];
      frame.total += frame.last * (copies - 1);
      frame.last *= copies;
    } else {
      out += c;
      i++;
      if (!'*+?|'.includes(c)) atom(LITERAL_WEIGHT);
    }
  }
  return { source: out, size: frames[0].total };
}

/** `(?:`, a named group (its name dropped: only a backreference would need it), or refused. */
function readGroupOpening(pattern: string, i: number): { text: string; length: number } {
  const next = pattern[i + 2];
  if (next === ':') return { text: '(?:', length: 3 };
  if (next === '=' || next === '!') throw new Unsupported(`a lookahead "(?${next}…)"`);
  if (next === '<') {
    const after = pattern[i + 3];
    if (after === '=' || after === '!') throw new Unsupported(`a lookbehind "(?<${after}…)"`);
    const close = pattern.indexOf('>', i);
    return { text: '(', length: close - i + 1 };
  }
  throw new Unsupported(`an inline modifier group "${pattern.slice(i, pattern.indexOf(':', i) + 1)}…)"`);
}

/** One escape sequence at `i` (a backslash): its RE2 text and how many characters it took. */
function readEscape(pattern: string, i: number, inClass: boolean): { text: string; length: number } {
  const e = pattern[i + 1];
  switch (e) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 't':
    case 'n':
    case 'r':
    case 'v':
    case 'f':
      return { text: `\\${e}`, length: 2 };
    case 'b':
      // In a class, \b is the backspace character.
      return { text: inClass ? '\\x{8}' : '\\b', length: 2 };
    case 'B':
      return { text: '\\B', length: 2 };
    case 's':
      return { text: inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`, length: 2 };
    case 'S':
      return { text: inClass ? NOT_WHITE_SPACE : `[${NOT_WHITE_SPACE}]`, length: 2 };
    case '0':
      return { text: '\\x{0}', length: 2 };
    case 'c':
      return { text: codePoint(pattern.charCodeAt(i + 2) % 32), length: 3 };
    case 'x':
      return { text: `\\x{${pattern.slice(i + 2, i + 4)}}`, length: 4 };
    case 'u':
      return readUnicodeEscape(pattern, i);
    case 'p':
    case 'P':
      return readProperty(pattern, i, inClass);
    case 'k':
      throw new Unsupported(`a backreference "${pattern.slice(i, pattern.indexOf('>', i) + 1)}"`);
    default:
      if (e >= '1' && e <= '9')
        throw new Unsupported(`a backreference "\\${/^\d+/.exec(pattern.slice(i + 1))![0]}"`);
      // A syntax character (`\.`, `\/`, `\-` in a class…): RE2 takes escaped punctuation too.
      return { text: /[\p{P}\p{S}]/u.test(e) ? `\\${e}` : codePoint(e.codePointAt(0)!), length: 2 };
  }
}

function codePoint(value: number): string {
  return `\\x{${value.toString(16)}}`;
}

/** `\uXXXX` (two of them when they are a surrogate pair, as the `u` flag reads them) or `\u{…}`. */
function readUnicodeEscape(pattern: string, i: number): { text: string; length: number } {
  if (pattern[i + 2] === '{') {
    const close = pattern.indexOf('}', i);
    return { text: `\\x{${pattern.slice(i + 3, close)}}`, length: close - i + 1 };
  }
  const high = parseInt(pattern.slice(i + 2, i + 6), 16);
  const low = /^\\u[\da-fA-F]{4}/.test(pattern.slice(i + 6, i + 12))
    ? parseInt(pattern.slice(i + 8, i + 12), 16)
    : -1;
  if (high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
    return { text: codePoint((high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000), length: 12 };
  }
  return { text: codePoint(high), length: 6 };
}

/** `\p{…}` / `\P{…}` with ECMAScript's names, in the names RE2 knows. */
function readProperty(pattern: string, i: number, inClass: boolean): { text: string; length: number } {
  const negated = pattern[i + 1] === 'P';
  const close = pattern.indexOf('}', i);
  const body = pattern.slice(i + 3, close);
  const length = close - i + 1;
  const [key, value] = body.includes('=') ? body.split('=') : [undefined, body];
  let name: string | undefined;
  if (key === 'General_Category' || key === 'gc' || key === undefined) {
    name = SHORT_CATEGORIES.has(value) ? value : CATEGORY_ALIASES[value];
  }
  // RE2 names scripts by their long names (Greek, Latin, Han), as ECMAScript's Script= does.
  if (key === 'Script' || key === 'sc') name = value;
  if (key === undefined && value === 'Any') name = 'Any';
  if (key === undefined && value === 'Assigned') return property('Cn', !negated, length);
  if (key === undefined && value === 'ASCII') {
    const range = negated ? NOT_ASCII : ASCII;
    return { text: inClass ? range : `[${range}]`, length };
  }
  if (name === undefined || !/^[A-Za-z_]+$/.test(name)) {
    throw new Unsupported(`the Unicode property "${pattern.slice(i, close + 1)}"`);
  }
  return property(name, negated, length);
}

function property(name: string, negated: boolean, length: number): { text: string; length: number } {
  return { text: `\\${negated ? 'P' : 'p'}{${name}}`, length };
}
