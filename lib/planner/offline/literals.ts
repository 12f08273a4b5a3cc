/**
 * Literal values in task text: URLs, file paths, quoted strings, numbers and identifiers with
 * digits (`Sheet1`, `mp-149`). Found before the text is split into clauses so that the dots and
 * commas inside a URL or a quoted string never split a sentence.
 */

export type LiteralKind = 'url' | 'path' | 'string' | 'number' | 'identifier';

export interface Literal {
  kind: LiteralKind;
  /** The value to put in an argument (quotes removed; numbers as numbers). */
  value: string | number;
  /** Offsets of the literal (quotes included) in the text. */
  start: number;
  end: number;
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
  // /abs/path, ./rel, ../rel, ~/home
  /(?<![\w:/.\\-])(?:~|\.{1,2})?\/[\w.\-@+]*[A-Za-z][\w.\-@+/]*/g,
  // C:\dir\file
  /\b[A-Za-z]:\\[^\s"'<>，。；]+/g,
  // dir/sub/file.ext
  new RegExp(`(?<![\\w/.-])[\\w.\\-]+(?:/[\\w.\\-]+)*/[\\w\\-]+\\.${EXTENSION}(?![\\w/]|\\.\\w)`, 'g'),
  // file.ext
  new RegExp(`(?<![\\w/.-])[\\w\\-]+(?:\\.[\\w\\-]+)*\\.${EXTENSION}(?![\\w/]|\\.\\w)`, 'g'),
];
const NOT_PATHS = new Set(['e.g', 'i.e', 'etc', 'vs', 'a.m', 'p.m']);
const NUMBER_PATTERN = /(?<![\w.\-])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.]*\d)/g;
const IDENTIFIER_PATTERN =
  /(?<![\w.\-/])(?=[A-Za-z0-9_-]*[A-Za-z])(?=[A-Za-z0-9_-]*\d)[A-Za-z][A-Za-z0-9_-]*(?![\w/]|\.\w)/g;
const TRAILING_PUNCTUATION = /[.,;:!?'"）)\]}]+$/;

/**
 * Every literal in `text`, in order and not overlapping. Quoted strings win over what they
 * contain (but a quoted URL or path is read as a URL or path), then URLs, paths, numbers and
 * identifiers.
 */
export function findLiterals(text: string): Literal[] {
  const found: Literal[] = [];
  const taken = (start: number, end: number) => found.some((l) => start < l.end && end > l.start);
  const add = (literal: Literal) => {
    if (literal.end > literal.start && !taken(literal.start, literal.end)) found.push(literal);
  };

  for (const pattern of QUOTED_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const inner = m[1].trim();
      if (inner === '') continue;
      const kind: LiteralKind = isUrl(inner) ? 'url' : isPathLike(inner) ? 'path' : 'string';
      add({ kind, value: inner, start: m.index, end: m.index + m[0].length });
    }
  }
  for (const m of text.matchAll(URL_PATTERN)) {
    const value = m[0].replace(TRAILING_PUNCTUATION, '');
    add({ kind: 'url', value, start: m.index, end: m.index + value.length });
  }
  for (const pattern of PATH_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const value = m[0].replace(TRAILING_PUNCTUATION, '');
      if (value.length < 2 || NOT_PATHS.has(value.toLowerCase()) || !/[A-Za-z]/.test(value)) continue;
      add({ kind: 'path', value, start: m.index, end: m.index + value.length });
    }
  }
  for (const m of text.matchAll(NUMBER_PATTERN)) {
    add({ kind: 'number', value: Number(m[0]), start: m.index, end: m.index + m[0].length });
  }
  for (const m of text.matchAll(IDENTIFIER_PATTERN)) {
    add({ kind: 'identifier', value: m[0], start: m.index, end: m.index + m[0].length });
  }
  return found.sort((a, b) => a.start - b.start);
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
