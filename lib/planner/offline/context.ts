/**
 * The words around a value in a clause, and how strongly they name a parameter: nearby words
 * weighted by nearness, the parameter's own name or a symbol-bearing term written right before
 * the value, and the role words ("from", "to", 从, 到) that say which end of a move it is.
 */
import type { Clause, PlacedLiteral } from './clauses';
import type { IndexedParam, ToolIndex } from './tool-index';

const BEFORE_WINDOW = 6;
const AFTER_WINDOW = 4;

/**
 * Words near the i-th literal of a clause, weighted by nearness, not reaching past neighbours.
 * A Chinese word also stands for the English words the titles translate it to (结构 → structure).
 */
export function getContext(index: ToolIndex, clause: Clause, i: number): Map<string, number> {
  const at = clause.literals[i].word;
  const low = Math.max(at - BEFORE_WINDOW, i > 0 ? clause.literals[i - 1].word + 1 : -Infinity);
  const high = Math.min(
    at + AFTER_WINDOW,
    i + 1 < clause.literals.length ? clause.literals[i + 1].word - 1 : Infinity,
  );
  const context = new Map<string, number>();
  for (const { token, word: end, span } of clause.tokens) {
    // A Chinese word stands where it ends when it comes before the value, where it starts after.
    const word = end > at && span ? end - span + 1 : end;
    if (word < low || word > high || word === at) continue;
    // Parameters are usually named before their value ("model URL", "tolerance 0.05").
    const weight = word < at ? 1 / (at - word) : 0.7 / (word - at);
    for (const t of [token, ...index.translate(token)]) context.set(t, Math.max(context.get(t) ?? 0, weight));
  }
  return context;
}

/** How strongly the words around a value name a parameter (name words count double). */
export function getContextScore(param: IndexedParam, context: Map<string, number>): number {
  let score = 0;
  for (const [token, weight] of context) {
    if (param.nameTokens.has(token)) score += 3 * weight;
    else if (param.descriptionTokens.has(token)) score += 1.5 * weight;
  }
  return score;
}

/** How strongly the words around a value say the parameter's own name. */
export function getNameContext(param: IndexedParam, context: Map<string, number>): number {
  let score = 0;
  for (const [token, weight] of context) if (param.nameTokens.has(token)) score += weight;
  return score;
}

/** How strongly the text names `param` for this value: the words around it, or its name written right before it. */
export function getNamingScore(
  param: IndexedParam,
  placed: PlacedLiteral,
  context: Map<string, number>,
): number {
  return getContextScore(param, context) + (isNamedVerbatim(placed.before, param) ? 3 : 0);
}

/** Words right before a value that make it the start of a move ("from", 从) or its end ("to", 到). */
const SOURCE_MARK = /(?:\b(?:from|since|after)|从|由|自)\s*$/i;
const TARGET_MARK = /(?:\b(?:to|into|until|till|before)|到|至|换算成|转换成|转成)\s*$/i;

export function getRoleMark(before: string): 'source' | 'target' | undefined {
  if (SOURCE_MARK.test(before)) return 'source';
  if (TARGET_MARK.test(before)) return 'target';
  return undefined;
}

/** A copula or filler between a term and its value ("c/a 取 2.7", "k-point spacing = 0.02"). */
const BEFORE_VALUE = /\s*(?:取值为|取值|取|为|是|设为|设置为|=|:|：|\bof|\bis|\bto|\bat)?\s*$/i;

/**
 * Whether the term right before a value is written, as it is, in the parameter's name or
 * description — for terms words cannot carry, with a symbol in them ("c/a 取 2.7" for the
 * parameter described as "c/a ratio for hexagonal lattices") — or is the parameter's own name.
 */
function isNamedVerbatim(before: string, param: IndexedParam): boolean {
  const term =
    before
      .replace(BEFORE_VALUE, '')
      .trim()
      .split(/[\s，,（(]+/)
      .pop() ?? '';
  // The parameter's own name, even a word too common to be a token ("from 'Alice' to 'Acme'").
  const lastWord = before.trim().split(/\s+/).pop() ?? '';
  if (lastWord.length >= 2 && lastWord.toLowerCase() === param.name.toLowerCase()) return true;
  if (term.length < 3 || !/^[A-Za-z0-9]+(?:[/^*.-][A-Za-z0-9]+)+$/.test(term)) return false;
  const escaped = term.toLowerCase().replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const pattern = new RegExp(`(?:^|[^a-z0-9])${escaped}(?:$|[^a-z0-9])`);
  return (
    pattern.test(param.description.toLowerCase()) || pattern.test(param.name.toLowerCase().replace(/_/g, ' '))
  );
}
