/**
 * Words for the offline planner, without a dictionary: English words are lower-cased,
 * split at snake_case/camelCase and cut to a rough stem; Chinese runs become character bigrams
 * (a two-character window catches most Chinese words — 声子, 优化, 结构 — with no segmenter),
 * plus the English words of the tool vocabulary they contain (lexicon.ts: 删除 → delete), so a
 * Chinese task meets tools declared in English.
 */
import { findChineseWords } from './lexicon';

const STOP_WORDS = new Set(
  (
    'a an the of to for in on at by with from into onto as is are be been being was were it its this that these ' +
    'those then and or but so if than also please me my we our you your i can could would should will shall do does ' +
    'did done using use via per each all any some what which who how when where after before next finally ' +
    'now there here them they their his her up out over under about let'
  ).split(' '),
);

/** Words that mean the same thing in task text and tool declarations, folded to one stem. */
const SYNONYMS: Record<string, string> = {
  comput: 'calcul',
  calc: 'calcul',
  worksheet: 'sheet',
  spreadsheet: 'sheet',
  excel: 'sheet',
  xlsx: 'sheet',
  xls: 'sheet',
  csv: 'sheet',
  repository: 'repo',
  fetch: 'get',
  download: 'get',
  retriev: 'get',
  load: 'read',
  sav: 'writ',
  stor: 'writ',
  relax: 'optim',
  colour: 'color',
  find: 'search',
  remov: 'delet',
  mak: 'cre',
  lookup: 'search',
  record: 'cre',
  giv: 'get',
  plot: 'chart',
  rememb: 'memory',
  recall: 'memory',
  draw: 'chart',
  fold: 'directory',
  dir: 'directory',
  last: 'newest',
  latest: 'newest',
  recent: 'newest',
  add: 'sum',
  plus: 'sum',
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
    // apply, reply, supply: the -ly of a verb, not of an adverb.
    if (suffix === 'ly' && w.endsWith('ply')) break;
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
  /** An English word for a Chinese one (lexicon.ts), at the Chinese word's position. */
  translated?: boolean;
  /** A translated word right after a Chinese negation (不优化晶胞: optimize and cell are negated). */
  negated?: boolean;
  /** For a translated word: how many characters the Chinese word spans (ending at `word`). */
  span?: number;
}

/** A Chinese negation right before a word: 不, 无需, 不要, 不用, 不必, 别, 勿, 没有, 禁止, 关闭. */
const CHINESE_NEGATION = /(?:不要|不用|无需|不必|不需要|禁止|关闭|没有|不|别|勿|无)$/;
/** A bigram across a particle (存的, 的改) is no word: it only echoes the grammar of both texts. */
const PARTICLES = /的/;

/**
 * Tokens of free text in order: English stems without stop words (snake_case and camelCase
 * split), Chinese bigrams (a lone character stays a unigram). Numbers are not tokens.
 */
export function tokenizeWithPositions(text: string, opts: { translate?: boolean } = {}): PositionedToken[] {
  const tokens: PositionedToken[] = [];
  let word = 0;
  for (const run of getRuns(text)) {
    if (isCjk(run[0])) {
      if (run.length === 1) tokens.push({ token: run, word });
      for (let i = 0; i + 1 < run.length; i++) {
        const bigram = run.slice(i, i + 2);
        if (!PARTICLES.test(bigram)) tokens.push({ token: bigram, word: word + i });
      }
      // After the bigrams, so a run of adjacent bigrams stays one word for ranking.
      if (opts.translate !== false) {
        for (const found of findChineseWords(run)) {
          const negated = CHINESE_NEGATION.test(run.slice(Math.max(0, found.at - 3), found.at));
          for (const english of new Set(found.english.map(stemWord))) {
            // At the word's last character: "背景色 FFFF00" has the colour right before the value.
            tokens.push({
              token: english,
              word: word + found.at + found.word.length - 1,
              translated: true,
              span: found.word.length,
              ...(negated ? { negated } : {}),
            });
          }
        }
      }
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
  const spaced = text
    // "look up" is one word (lookup → search).
    .replace(/\blook(?:s|ed|ing)?\s+up\b/gi, 'lookup')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-./\\]+/g, ' ');
  return [...spaced.matchAll(RUNS)].map((m) => m[0]);
}

/** The tokens of a text (see `tokenizeWithPositions`). */
export function tokenize(text: string, opts: { translate?: boolean } = {}): string[] {
  return tokenizeWithPositions(text, opts).map((t) => t.token);
}

/** The tokens of a text as a set. */
export function tokenSet(text: string, opts: { translate?: boolean } = {}): Set<string> {
  return new Set(tokenize(text, opts));
}

/** The lower-cased words of a text in order (for negation and phrase checks). */
export function getWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9'\u3400-\u9fff]+/)
    .filter((w) => w !== '');
}
