/**
 * Literal values in task text, each of a kind that says where it may go: URLs, file paths,
 * quoted strings, numbers (with their unit), spreadsheet cells, ranges and formulas, chemical
 * formulas and element symbols (石墨烯 written as C), dates, vectors (2×2×2), names (after
 * "called", or a Latin word inside Chinese text) and identifiers with digits (`mp-149`). Found
 * before the text is split into clauses so that the dots and commas inside a URL or a quoted
 * string never split a sentence.
 */
import { findDates, findEmails, findTimes, findTimeZones } from './kinds';
import { findChineseMaterials } from './lexicon';
import { UNIT_PATTERN } from './units';
import { parseJson } from '../../tools/json-value';

export type LiteralKind =
  | 'url'
  | 'path'
  | 'string'
  | 'number'
  | 'identifier'
  | 'name'
  | 'cell'
  | 'range'
  | 'formula'
  | 'chemical'
  | 'date'
  | 'vector'
  | 'coordinates'
  | 'json'
  | 'sql'
  | 'glob'
  | 'email'
  | 'time'
  | 'timezone';

export interface Literal {
  kind: LiteralKind;
  /** The value to put in an argument (quotes removed; numbers as numbers; vectors as arrays). */
  value: string | number | number[] | unknown[];
  /** Offsets of the literal (quotes and unit included) in the text. */
  start: number;
  end: number;
  /** A number's unit as written (`K`, `GPa`, `fs`). */
  unit?: string;
  /** What a number counts, in English words, where a noun of things follows it ("30 页" → page). */
  counted?: string;
  /** A cell reference that also reads as a formula (`C10`, `H2`): for formula-like parameters. */
  chemical?: boolean;
  /** The literal is also ordinary words of the sentence (a Latin word in Chinese text): keep them. */
  keepWords?: boolean;
  /** Quoted in the text: the writer marked it as one value. */
  quoted?: boolean;
  /** Code the text says is code ("JavaScript: …"): only for a parameter that takes code. */
  code?: boolean;
  /** The words as written, where the value reads them as something else (a city → its time zone). */
  written?: string;
}

const URL_PATTERN = /\b(?:https?|s3|gs|ftp|file):\/\/[^\s"'<>，。；、）)\]\u3400-\u9fff]+/gi;
const QUOTED_PATTERNS = [
  /"([^"\n]{1,500})"/g,
  /“([^”\n]{1,500})”/g,
  /‘([^’\n]{1,500})’/g,
  /「([^」\n]{1,500})」/g,
  /『([^』\n]{1,500})』/g,
  /`([^`\n]{1,500})`/g,
  // Single quotes only around a whole phrase, so "don't" and "its'" are left alone.
  /(?<![A-Za-z0-9])'([^'\n]{1,500})'(?![A-Za-z0-9])/g,
];
const EXTENSION = '[A-Za-z][A-Za-z0-9]{0,7}';
const PATH_PATTERNS = [
  // /abs/path, ./rel, ../rel, ~/home (Chinese names too: ./报表.xlsx)
  /(?<![\w:/.\\-])(?:~|\.{1,2})?\/[\w.\-@+\u3400-\u9fff]*[A-Za-z\u3400-\u9fff][\w.\-@+/\u3400-\u9fff]*/g,
  // C:\dir\file
  /\b[A-Za-z]:\\[^\s"'<>，。；]+/g,
  // dir/sub/file.ext
  new RegExp(`(?<![\\w/.-])[\\w.\\-]+(?:/[\\w.\\-]+)*/[\\w\\-]+\\.${EXTENSION}(?![\\w/]|\\.\\w)`, 'g'),
  // file.ext
  new RegExp(`(?<![\\w/.-])[\\w\\-]+(?:\\.[\\w\\-]+)*\\.${EXTENSION}(?![\\w/]|\\.\\w)`, 'g'),
];
const NOT_PATHS = new Set(['e.g', 'i.e', 'etc', 'vs', 'a.m', 'p.m']);
/** A latitude and longitude (or longitude and latitude) written as one word: two decimals joined by a comma. */
const COORDINATES_PATTERN = /(?<![\w.,\-])-?\d{1,3}\.\d+,-?\d{1,3}\.\d+(?![\w.]|,-?\d)/g;
/** A number, with thousands separators or not (`1,500`, `120,000`, `0.05`, `1e-6`). */
const NUMBER_PATTERN =
  /(?<![\w.\-])-?(?:\d{1,3}(?:,\d{3})+(?![\d,])|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.]*\d)/g;
const IDENTIFIER_PATTERNS = [
  // Groups joined by hyphens, read whole and never cut at a hyphen: a UUID
  // (3f9c2a1e-7b4d-4e0a-9c1d-55aa21b0c7e2), an order code (2024-ab12-x) — digits and letters in it.
  /(?<![\w.\-/])(?=[A-Za-z0-9-]*[A-Za-z])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w/-]|\.\w)/g,
  // Letters with digits: mp-149, Sheet1, a1b2c3d
  /(?<![\w.\-/])(?=[A-Za-z0-9_-]*[A-Za-z])(?=[A-Za-z0-9_.-]*\d)[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*(?![\w/]|\.\w)/g,
  // Names joined by slashes, no extension: origin/main, feature/login (not the ratio c/a)
  /(?<![\w.\-/])[A-Za-z][\w-]+(?:\/[A-Za-z0-9][\w-]+)+(?![\w/]|\.\w)/g,
  // Hexadecimal, seven digits or more: a commit hash or object id (9f8e7d6)
  /(?<![\w.\-/])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,64}(?![\w/-]|\.\w)/g,
  // A version tag: v1.2.0, v2.0.0-rc.1
  /(?<![\w.\-/])v\d+(?:\.\d+)+(?:-[A-Za-z0-9.]+)?(?![\w/]|\.\w)/g,
  // Capitals only, four or more: GXWKGLUWLK (a path of k-points)
  /(?<![\w.\-/])[A-Z]{4,}(?![\w/]|\.\w)/g,
];
/** Nouns of things counted, right after a number ("30 pages", "30 页"): see `Literal.counted`. */
const COUNTED_PATTERN =
  /^[ \t]?(pages?|results?|rows?|lines?|urls?|links?|papers?|articles?|files?|records?|entries|entry|documents?|messages?|emails?|commits?|issues?|tasks?|页|篇|行|封)(?![A-Za-z])/i;
const COUNTED_CHINESE: Record<string, string> = { 页: 'page', 篇: 'article', 行: 'line row', 封: 'message' };
const TRAILING_PUNCTUATION = /[.,;:!?'"）)\]}]+$/;

/** A spreadsheet cell (`B11`, `AA3`): up to three column letters, a row from 1. */
const CELL = '[A-Z]{1,3}[1-9][0-9]{0,6}';
const CELL_ONLY = new RegExp(`^${CELL}$`, 'i');
const RANGE_ONLY = new RegExp(`^${CELL}:${CELL}$`, 'i');
const RANGE_PATTERN = new RegExp(`(?<![\\w:$])${CELL}:${CELL}(?![\\w:])`, 'g');
/** "A1 to D20", "A1 到 D20", "A1-D20": two corners written as a range. */
const CELL_SPAN_PATTERN = new RegExp(
  `(?<![\\w:$])(${CELL})(?:\\s*(?:to|through|thru|-|–|~|到|至)\\s*)(${CELL})(?![\\w:])`,
  'g',
);
const CELL_PATTERN = new RegExp(`(?<![\\w:$])${CELL}(?![\\w:])`, 'g');
/** A spreadsheet formula: `=` then a function call or a cell expression (`=SUM(B2:B10)`, `=B2*C2`). */
const FORMULA_PATTERN =
  /(?<![\w=<>!:])=(?:[A-Z][A-Z0-9.]*\((?:[^()\s]|\((?:[^()\s])*\))*\)|\$?[A-Z]{1,3}\$?[1-9][0-9]*(?:[-+*/^&]\$?(?:[A-Z]{1,3}\$?[1-9][0-9]*|\d+(?:\.\d+)?))+)/g;
const DATE_PATTERN =
  /(?<![\w.-])\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-])/g;
/** Three sizes: `2×2×2`, `3x3x3`, `4 x 4 x 4`. */
const VECTOR_PATTERN = /(?<![\w.])(\d+)\s*[x×X*]\s*(\d+)\s*[x×X*]\s*(\d+)(?![\w.])/g;
/** A bracketed list of numbers: `[3, 3, 3]`, `(0.9, 1.1)`. */
const LIST_PATTERN = /[[(]\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+\s*[\])]/g;
/** A word after "called", "named" or 叫/名为: a name the text gives without quotes. */
const NAMED_PATTERN =
  /(?:\b(?:called|named|titled)\s+|(?:叫做|叫|名为|名叫|命名为|取名为?)\s*)([A-Za-z][\w./-]*[A-Za-z0-9]|[A-Za-z])/g;
/** A Latin word, for `isAmongChinese` ("Summary 表", "NPT 分子动力学"). */
const LATIN_WORD = /(?<![\w./\\-])[A-Za-z][\w-]*(?![\w./\\])/g;
/**
 * An SQL statement written out (`SELECT COUNT(*) FROM orders`): from its keyword, in capitals as
 * SQL is written, to the end of the sentence or a "then" that starts the next step.
 */
const SQL_START =
  /(?<![\w'"])(?:SELECT|INSERT\s+INTO|UPDATE|DELETE\s+FROM|CREATE\s+(?:TABLE|VIEW|INDEX)|DROP\s+(?:TABLE|VIEW|INDEX)|ALTER\s+TABLE)\s[^\n，。；]*/g;
const SQL_END =
  /,?\s+(?:and\s+)?then\b|;|\.\s|\.$|\s+(?:on|in|against)\s+(?:the|my|our)\s+(?:database|db)\b|\s+and\s+(?:mail|e-?mail|send|save|write|show|print|export)\b/i;
const SQL_BODY = /\b(?:FROM|INTO|SET|TABLE|VIEW|INDEX|VALUES)\b|^SELECT\s+\S/;
/** A file-name pattern with a wildcard: `*.test.ts`, `report-*.csv`. */
const GLOB_PATTERN = /(?<![\w./*=-])(?=[\w./-]*\*)[\w./*-]*\*[\w./*-]*(?![\w/*])/g;
/** A key and its value: `app=prometheus`, `LOG_LEVEL=debug` (a label selector, a setting). */
const KEY_VALUE_PATTERN = /(?<![\w.\-/=[])[A-Za-z_][\w.-]*=[\w.,/-]*[\w/](?![\w/=])/g;
/** Code after a colon that says it is code: one value, to the end of the line. */
const CODE_PATTERN = /(?:\b(?:JavaScript|JS|script|code)|脚本|代码)\s*[:：][ \t]*([^\n]+)/gi;
const CHINESE_OR_MARK = /[\u3400-\u9fff，。；、：！？（）]/;

// ---- chemical formulas ----

const ELEMENTS = new Set(
  (
    'H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr ' +
    'Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm ' +
    'Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu'
  ).split(' '),
);
/** Element symbols that are also everyday English words or abbreviations when they stand alone. */
const WORDLIKE_SYMBOLS = new Set([
  'In',
  'As',
  'At',
  'Be',
  'He',
  'No',
  'Re',
  'Pa',
  'Co',
  'Ne',
  'Mo',
  'Ho',
  'Po',
  'Ta',
  'Am',
  'Es',
  'Pu',
  'Ra',
  'Th',
  'La',
  'Er',
  'Tm',
]);
const FORMULA_CANDIDATE = /(?<![\w.\-/])(?:[A-Z][a-z]?\d*(?:\.\d+)?)+(?![\w/]|\.\w)/g;

/**
 * Whether a word is a chemical formula: element symbols with optional counts (NaCl, Fe2O3, GaAs,
 * CO2, Si). Single-letter symbols without a count (CIF, NPT, PBE) are acronyms; a lone element of
 * two letters counts unless it is also a word (In, As, No).
 */
export function isChemicalFormula(word: string): boolean {
  const parts = [...word.matchAll(/([A-Z][a-z]?)(\d*(?:\.\d+)?)/g)];
  if (parts.map((p) => p[0]).join('') !== word) return false;
  if (!parts.every((p) => ELEMENTS.has(p[1]))) return false;
  // A count never starts with 0 (FFFF00 is a colour, not fluorine).
  if (parts.some((p) => /^0(?!\.)/.test(p[2]))) return false;
  const hasCount = parts.some((p) => p[2] !== '');
  if (parts.length === 1) return hasCount || (parts[0][1].length === 2 && !WORDLIKE_SYMBOLS.has(parts[0][1]));
  return hasCount || parts.some((p) => p[1].length === 2);
}

/**
 * Every literal in `text`, in order and not overlapping. Quoted strings win over what they
 * contain (a quoted URL, path, range or formula keeps its kind), then URLs, paths, formulas,
 * dates, ranges, vectors, numbers with units, chemical formulas, cells, numbers, names and
 * identifiers.
 */
export function findLiterals(text: string): Literal[] {
  const found: Literal[] = [];
  const taken = (start: number, end: number) => found.some((l) => start < l.end && end > l.start);
  const add = (literal: Literal) => {
    if (literal.end > literal.start && !taken(literal.start, literal.end)) found.push(literal);
  };

  // A JSON array written out (`[["Item","Cost"],["Rent",1200]]`) is one value: the strings in it
  // are not values of their own.
  for (const json of findJsonArrays(text)) add(json);
  // "执行 JavaScript：document.title", "run this script: …": code after a colon is one value to
  // the end of the line, quotes and dots in it included.
  for (const m of text.matchAll(CODE_PATTERN)) {
    const value = m[1].trim();
    const start = m.index + m[0].length - m[1].length;
    if (value !== '')
      add({ kind: 'string', value, start, end: start + m[1].length, quoted: true, code: true });
  }
  for (const pattern of QUOTED_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const inner = m[1].trim();
      if (inner === '') continue;
      add({
        kind: classifyQuoted(inner),
        value: inner,
        start: m.index,
        end: m.index + m[0].length,
        quoted: true,
      });
    }
  }
  for (const m of text.matchAll(SQL_START)) {
    const end = SQL_END.exec(m[0]);
    const value = (end ? m[0].slice(0, end.index) : m[0]).trimEnd();
    if (value.split(/\s+/).length < 3 || !SQL_BODY.test(value)) continue;
    const start = m.index;
    if (found.some((l) => l.start < start && l.end > start)) continue; // inside a quoted string
    // A quoted word inside the statement ('Bob' in WHERE name = 'Bob') is part of it.
    for (let k = found.length - 1; k >= 0; k--)
      if (found[k].start >= start && found[k].end <= start + value.length) found.splice(k, 1);
    add({ kind: 'sql', value, start, end: start + value.length });
  }
  for (const m of text.matchAll(URL_PATTERN)) {
    const value = m[0].replace(TRAILING_PUNCTUATION, '');
    add({ kind: 'url', value, start: m.index, end: m.index + value.length });
  }
  // Kinds read with libraries (kinds.ts): an address's domain is no file name, a zone no path.
  for (const literal of [...findEmails(text), ...findTimeZones(text).filter((l) => !l.written)]) add(literal);
  for (const m of text.matchAll(FORMULA_PATTERN))
    add({ kind: 'formula', value: m[0], start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(GLOB_PATTERN)) {
    const value = m[0].replace(/[.]+$/, '');
    // a lone `*` or `**` is a multiplication or emphasis; a pattern has a name part too
    if (!/[\w]/.test(value) || !isGlob(value)) continue;
    add({ kind: 'glob', value, start: m.index, end: m.index + value.length });
  }
  for (const pattern of PATH_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const value = m[0].replace(TRAILING_PUNCTUATION, '');
      if (value.length < 2 || NOT_PATHS.has(value.toLowerCase()) || !/[A-Za-z]/.test(value)) continue;
      // "c/a" is a ratio, not a path: a bare `x/y` of single letters.
      if (/^[A-Za-z]\/[A-Za-z]$/.test(value)) continue;
      add({ kind: 'path', value, start: m.index, end: m.index + value.length });
    }
  }
  for (const m of text.matchAll(KEY_VALUE_PATTERN))
    add({ kind: 'identifier', value: m[0], start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(DATE_PATTERN))
    add({ kind: 'date', value: m[0], start: m.index, end: m.index + m[0].length });
  for (const literal of [...findDates(text), ...findTimes(text)]) add(literal);
  for (const m of text.matchAll(RANGE_PATTERN))
    add({ kind: 'range', value: m[0], start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(CELL_SPAN_PATTERN))
    add({ kind: 'range', value: `${m[1]}:${m[2]}`, start: m.index, end: m.index + m[0].length });
  // "39.912078,116.464303": two decimals joined by a bare comma are a point on a map, not two numbers.
  for (const m of text.matchAll(COORDINATES_PATTERN))
    add({ kind: 'coordinates', value: m[0], start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(VECTOR_PATTERN)) {
    const value = [Number(m[1]), Number(m[2]), Number(m[3])];
    add({ kind: 'vector', value, start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(LIST_PATTERN)) {
    const value = m[0]
      .slice(1, -1)
      .split(',')
      .map((n) => Number(n.trim()));
    add({ kind: 'vector', value, start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(NUMBER_PATTERN)) {
    const unit = UNIT_PATTERN.exec(text.slice(m.index + m[0].length));
    if (!unit) continue;
    add({
      kind: 'number',
      value: Number(m[0].replace(/,/g, '')),
      unit: unit[1],
      start: m.index,
      end: m.index + m[0].length + unit[0].length,
    });
  }
  for (const m of text.matchAll(FORMULA_CANDIDATE)) {
    const word = m[0];
    if (CELL_ONLY.test(word)) continue; // C10, H2: a cell, read below (and marked chemical)
    if (isChemicalFormula(word))
      add({ kind: 'chemical', value: word, start: m.index, end: m.index + word.length });
  }
  for (const material of findChineseMaterials(text))
    add({
      kind: 'chemical',
      value: material.formula,
      start: material.start,
      end: material.end,
      keepWords: true,
    });
  for (const m of text.matchAll(CELL_PATTERN)) {
    add({
      kind: 'cell',
      value: m[0],
      start: m.index,
      end: m.index + m[0].length,
      ...(isChemicalFormula(m[0]) ? { chemical: true } : {}),
    });
  }
  for (const m of text.matchAll(NUMBER_PATTERN)) {
    const noun = COUNTED_PATTERN.exec(text.slice(m.index + m[0].length))?.[1];
    const counted = noun === undefined ? undefined : (COUNTED_CHINESE[noun] ?? noun.toLowerCase());
    add({
      kind: 'number',
      value: Number(m[0].replace(/,/g, '')),
      start: m.index,
      end: m.index + m[0].length,
      ...(counted ? { counted } : {}),
    });
  }
  for (const m of text.matchAll(NAMED_PATTERN)) {
    const start = m.index + m[0].length - m[1].length;
    add({ kind: 'name', value: m[1], start, end: start + m[1].length });
  }
  for (const pattern of IDENTIFIER_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      add({ kind: 'identifier', value: m[0], start: m.index, end: m.index + m[0].length });
    }
  }
  for (const m of text.matchAll(LATIN_WORD)) {
    if (!isAmongChinese(text, m.index, m.index + m[0].length)) continue;
    add({ kind: 'name', value: m[0], start: m.index, end: m.index + m[0].length, keepWords: true });
  }
  // A city that names a time zone ("in Tokyo"), last: any other reading of its words comes first.
  for (const literal of findTimeZones(text).filter((l) => l.written)) add(literal);
  return found.sort((a, b) => a.start - b.start);
}

/**
 * Whether the text around a word is Chinese: the nearest character before it (or after it) that
 * is not a space is Chinese, and the other side is Chinese too or the end of the text. Such a word
 * is a value the writer kept in Latin letters (a sheet, an ensemble, a branch), not prose.
 */
function isAmongChinese(text: string, start: number, end: number): boolean {
  const before = text.slice(0, start).trimEnd().at(-1);
  const after = text.slice(end).trimStart()[0];
  const chinese = (c: string | undefined) => c !== undefined && CHINESE_OR_MARK.test(c);
  return (
    (chinese(before) && (after === undefined || chinese(after))) || (before === undefined && chinese(after))
  );
}

/** JSON arrays in the text that hold strings or arrays (a list of numbers is a vector). */
function findJsonArrays(text: string): Literal[] {
  const arrays: Literal[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '[' || /[\w\]]/.test(text[i - 1] ?? '')) continue;
    const end = findClosingBracket(text, i);
    if (end === -1) continue;
    let value: unknown;
    try {
      value = parseJson(text.slice(i, end + 1));
    } catch {
      continue;
    }
    if (!Array.isArray(value) || !value.some((v) => typeof v === 'string' || Array.isArray(v))) continue;
    arrays.push({ kind: 'json', value, start: i, end: end + 1 });
    i = end;
  }
  return arrays;
}

/** The `]` that closes the `[` at `open` (strings skipped), or -1. */
function findClosingBracket(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
    else if (c === '\n') return -1;
  }
  return -1;
}

function classifyQuoted(inner: string): LiteralKind {
  if (isUrl(inner)) return 'url';
  if (findEmails(inner)[0]?.value === inner) return 'email';
  if (/^[\w./-]*\*[\w./*-]*$/.test(inner) && /\w/.test(inner) && isGlob(inner)) return 'glob';
  if (/^(?:SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER)\s/.test(inner) && SQL_BODY.test(inner))
    return 'sql';
  if (RANGE_ONLY.test(inner)) return 'range';
  if (/^=\S/.test(inner)) return 'formula';
  if (isPathLike(inner)) return 'path';
  return 'string';
}

/** A wildcard at a name's edge (`*.md`, `report-*`, `src/**`), not a product (`B2*C2`, `3*4`). */
function isGlob(value: string): boolean {
  return /(?:^|[./-])\*|\*(?:$|[./-])/.test(value);
}

/** Whether a value reads as a spreadsheet cell reference (`A1`, `b11`). */
export function isCellReference(value: string): boolean {
  return CELL_ONLY.test(value);
}

/** Whether a value reads as a spreadsheet range (`A1:B3`). */
export function isRangeReference(value: string): boolean {
  return RANGE_ONLY.test(value);
}

function isUrl(text: string): boolean {
  return /^(?:https?|s3|gs|ftp|file):\/\/\S+$/i.test(text);
}

function isPathLike(text: string): boolean {
  if (/\s/.test(text)) return false;
  return (
    /^(?:~|\.{1,2})?\//.test(text) ||
    /^[A-Za-z]:\\/.test(text) ||
    new RegExp(`^[\\w.\\-/]+\\.${EXTENSION}$`).test(text)
  );
}
