/**
 * Words for the offline planner, without a dictionary: English words are lower-cased,
 * split at snake_case/camelCase and cut to a rough stem; Chinese runs become character bigrams
 * (a two-character window catches most Chinese words — 声子, 优化, 结构 — with no segmenter).
 */

const STOP_WORDS = new Set(
  (
    'a an the of to for in on at by with from into onto as is are be been being was were it its this that these ' +
    'those then and or but so if than also please me my we our you your i can could would should will shall do does ' +
    'did done using use via per each all any some what which who how when where after before next finally first ' +
    'second third now there here them they their his her up out over under about give let make'
  ).split(' '),
);

/** Words that mean the same thing in task text and tool declarations, folded to one stem. */
const SYNONYMS: Record<string, string> = {
  comput: 'calcul',
  calc: 'calcul',
  worksheet: 'sheet',
  spreadsheet: 'sheet',
  workbook: 'sheet',
  excel: 'sheet',
  xlsx: 'sheet',
  xls: 'sheet',
  csv: 'sheet',
  repository: 'repo',
  fetch: 'get',
  download: 'get',
  retriev: 'get',
  load: 'read',
  open: 'read',
  sav: 'writ',
  stor: 'writ',
};

const SUFFIXES: [string, string][] = [
  ['izations', ''],
  ['ization', ''],
  ['ations', ''],
  ['ation', ''],
  ['izing', ''],
  ['izers', ''],
  ['izer', ''],
  ['ized', ''],
  ['izes', ''],
  ['ize', ''],
  ['ating', ''],
  ['ated', ''],
  ['ates', ''],
  ['ate', ''],
  ['ments', ''],
  ['ment', ''],
  ['ings', ''],
  ['ing', ''],
  ['ies', 'y'],
  ['ied', 'y'],
  ['ers', ''],
  ['er', ''],
  ['ed', ''],
  ['es', ''],
  ['ly', ''],
  ['s', ''],
];

/**
 * A rough English stem: British -ise/-yse spelled as -ize/-yze, one common suffix removed and a
 * final silent `e` dropped, so optimise/optimize/optimization/optimized all become `optim` and
 * compute/computing/computation become `comput` (then folded by the synonym table).
 */
export function stemWord(word: string): string {
  let w = word.toLowerCase();
  w = w.replace(/is(e|es|ed|ing|ation|ations|er|ers)$/, 'iz$1').replace(/ys(e|es|ed|ing)$/, 'yz$1');
  for (const [suffix, replacement] of SUFFIXES) {
    if (!w.endsWith(suffix)) continue;
    if (suffix === 's' && (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is'))) break;
    let base = w.slice(0, w.length - suffix.length) + replacement;
    // committing → commit, running → run
    if ((suffix === 'ing' || suffix === 'ed') && /([b-df-hj-kmnp-rtv-y])\1$/.test(base))
      base = base.slice(0, -1);
    if (base.length >= 3) w = base;
    break;
  }
  if (w.length >= 4 && w.endsWith('e')) w = w.slice(0, -1);
  return SYNONYMS[w] ?? w;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const RUNS = /[\u3400-\u9fff\uf900-\ufaff]+|[A-Za-z][A-Za-z0-9]*|[0-9]+/g;

/** True for a Chinese (CJK ideograph) character. */
export function isCjk(char: string): boolean {
  return CJK.test(char);
}

/** A token with the position of the word it came from (for "which words are near this value"). */
export interface PositionedToken {
  token: string;
  /** Index of the source word among the text's words. */
  word: number;
  /** From a value's file extension (`.cif`), not from the words: says what goes in, not what to do. */
  extension?: boolean;
}

/**
 * Tokens of free text in order: English stems without stop words (snake_case and camelCase
 * split), Chinese bigrams (a lone character stays a unigram). Numbers are not tokens.
 */
export function tokenizeWithPositions(text: string): PositionedToken[] {
  const tokens: PositionedToken[] = [];
  let word = 0;
  for (const run of getRuns(text)) {
    if (isCjk(run[0])) {
      if (run.length === 1) tokens.push({ token: run, word });
      for (let i = 0; i + 1 < run.length; i++) tokens.push({ token: run.slice(i, i + 2), word: word + i });
      word += run.length;
      continue;
    }
    word++;
    if (/^[0-9]/.test(run)) continue;
    const lower = run.toLowerCase();
    if (lower.length < 2 || STOP_WORDS.has(lower)) continue;
    tokens.push({ token: stemWord(lower), word: word - 1 });
  }
  return tokens;
}

/** How many word positions `tokenizeWithPositions` gives a text (a Chinese character is one). */
export function countWordPositions(text: string): number {
  let count = 0;
  for (const run of getRuns(text)) count += isCjk(run[0]) ? run.length : 1;
  return count;
}

function getRuns(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-./\\]+/g, ' ');
  return [...spaced.matchAll(RUNS)].map((m) => m[0]);
}

/** The tokens of a text (see `tokenizeWithPositions`). */
export function tokenize(text: string): string[] {
  return tokenizeWithPositions(text).map((t) => t.token);
}

/** The tokens of a text as a set. */
export function tokenSet(text: string): Set<string> {
  return new Set(tokenize(text));
}

/** The lower-cased words of a text in order (for negation and phrase checks). */
export function getWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9'\u3400-\u9fff]+/)
    .filter((w) => w !== '');
}
