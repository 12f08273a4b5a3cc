/**
 * Ranking tools against a clause with BM25 (Robertson and Zaragoza's Okapi BM25) over three
 * fields of each tool: its name and title, its description, and its parameters' names and
 * descriptions. A clause's words are its query terms; a Chinese word and the English words the
 * lexicon gives for it are one term, so a Chinese task weighs a tool declared in English the same
 * as one with a Chinese title, whatever else the catalogue holds. Chinese words are the lexicon's
 * (lexicon.ts) and character bigrams, not Intl.Segmenter's: Node's ICU dictionary cuts 读取 and
 * 优化, the very actions tools are named by, into single characters.
 */
import { isCjk, type PositionedToken } from './text';
import type { IndexedTool, ToolIndex } from './tool-index';

/** How well a clause names a tool: tool-level (name, description) and parameter-level parts. */
export interface ToolScore {
  tool: IndexedTool;
  /** From the tool's name, title and description: a clause must match here to pick the tool. */
  toolLevel: number;
  /** From parameter names and descriptions only. */
  paramLevel: number;
}

/** One query term: the forms any of which matches it (a Chinese word, its bigrams, its English). */
export interface Term {
  forms: string[];
  /** From a value's file extension: says what goes in, not what the tool does. */
  extension: boolean;
}

/** Field weights: a word of the name or title says what the tool is more than one of its description. */
const NAME_BOOST = 3;
const DESCRIPTION_BOOST = 2;
/** BM25's term-frequency saturation and length normalisation (the usual values). */
const K1 = 1.2;
const B = 0.75;
/** The Chinese word itself, not a translation, adds this share: a translation is lossy (工作表 and
 * 工作簿 are both "sheet" in English), the word as the tool writes it is not. */
const EXACT_SHARE = 0.25;

/**
 * The query terms of a clause. A Chinese word the lexicon knows is one term with its bigrams and
 * its English words as forms; a bigram that straddles such a word's edge (取文 in 读取文件) is no
 * word and is dropped; any other bigram, and each English word, is a term of its own.
 */
export function getTerms(tokens: readonly PositionedToken[]): Term[] {
  const spans: { start: number; end: number; forms: Set<string> }[] = [];
  for (const t of tokens) {
    if (!t.translated) continue;
    const start = t.word - (t.span ?? 1) + 1;
    const span = spans.find((s) => s.start === start && s.end === t.word);
    if (span) span.forms.add(t.token);
    else spans.push({ start, end: t.word, forms: new Set([t.token]) });
  }
  const inside = (p: number) => spans.find((s) => p >= s.start && p <= s.end);
  const terms: Term[] = [];
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.translated || seen.has(t.token)) continue;
    if (t.token.length === 2 && isCjk(t.token[0])) {
      const [a, b] = [inside(t.word), inside(t.word + 1)];
      if (a && a === b) a.forms.add(t.token);
      if (a || b) continue;
    }
    seen.add(t.token);
    terms.push({ forms: [t.token], extension: t.extension === true });
  }
  for (const s of spans) terms.push({ forms: [...s.forms], extension: false });
  return terms;
}

/** BM25's inverse document frequency of a term: tools having any of its forms in any field. */
function getTermIdf(index: ToolIndex, forms: readonly string[]): number {
  const n = index.tools.length;
  const df = index.tools.filter((tool) => forms.some((f) => hasAnywhere(tool, f))).length;
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

const hasAnywhere = (tool: IndexedTool, form: string) =>
  tool.nameTokens.has(form) ||
  tool.titleTokens.has(form) ||
  tool.descriptionTokens.has(form) ||
  tool.paramTokens.has(form);

/** The weight of a term's idf for a matched field of `length` words (average `mean`). */
const saturate = (length: number, mean: number) => (K1 + 1) / (1 + K1 * (1 - B + (B * length) / (mean || 1)));

/**
 * Score every tool against a clause's tokens, best first (ties: declaration order): for each
 * term, its idf × BM25's length-normalised weight in the best field it matches (name and title
 * ×3, description ×2) at tool level, and in the parameters at parameter level.
 */
export function rankTools(index: ToolIndex, clauseTokens: readonly PositionedToken[]): ToolScore[] {
  const terms = getTerms(clauseTokens);
  const idfs = terms.map((term) => {
    const chinese = term.forms.filter((f) => isCjk(f[0]));
    // Each English word of a Chinese word, with the Chinese forms (目录树 → directory, tree).
    return term.forms.map((f) => getTermIdf(index, isCjk(f[0]) ? term.forms : [f, ...chinese]));
  });
  const mean = (size: (tool: IndexedTool) => number) =>
    index.tools.reduce((sum, tool) => sum + size(tool), 0) / Math.max(1, index.tools.length);
  const nameSize = (tool: IndexedTool) => new Set([...tool.nameTokens, ...tool.titleTokens]).size;
  const meanName = mean(nameSize);
  const meanDescription = mean((tool) => tool.descriptionTokens.size);
  const meanParams = mean((tool) => tool.paramTokens.size);
  const scores = index.tools.map((tool) => {
    const name = saturate(nameSize(tool), meanName);
    const description = saturate(tool.descriptionTokens.size, meanDescription);
    const params = saturate(tool.paramTokens.size, meanParams);
    const named = (f: string) => tool.nameTokens.has(f) || tool.titleTokens.has(f);
    const fieldWeight = (f: string) =>
      named(f) ? NAME_BOOST * name : tool.descriptionTokens.has(f) ? DESCRIPTION_BOOST * description : 0;
    let toolLevel = 0;
    let paramLevel = 0;
    terms.forEach((term, i) => {
      if (term.extension) {
        if (term.forms.some((f) => tool.paramTokens.has(f))) paramLevel += params * idfs[i][0];
        return;
      }
      toolLevel += scoreTerm(term, idfs[i], fieldWeight);
      paramLevel += scoreTerm(term, idfs[i], (f) => (tool.paramTokens.has(f) ? params : 0));
    });
    return { tool, toolLevel, paramLevel };
  });
  return scores.sort(
    (a, b) =>
      b.toolLevel + 0.25 * b.paramLevel - (a.toolLevel + 0.25 * a.paramLevel) || a.tool.order - b.tool.order,
  );
}

/**
 * A term's weight for one tool and field: its best English word the field has (新建 is "create"
 * or "new", one meaning however many of them a tool says; for 目录树, "directory tree", the rarer
 * "tree" decides), or the Chinese word's (all its bigrams, the weakest of them); each at the
 * idf of that word together with the Chinese forms, so a tool with a Chinese title and one
 * declared in English weigh alike.
 */
function scoreTerm(term: Term, idfs: readonly number[], weight: (form: string) => number): number {
  let english: number | undefined;
  let chinese = Infinity;
  term.forms.forEach((f, k) => {
    const w = weight(f) * idfs[k];
    if (isCjk(f[0])) chinese = Math.min(chinese, w);
    else english = Math.max(english ?? 0, w);
  });
  // The Chinese word counts only whole: every bigram of 没暂存, not the 暂存 of 已暂存.
  const whole = chinese === Infinity ? 0 : chinese;
  return english === undefined ? whole : Math.max(english, whole) + EXACT_SHARE * whole;
}
