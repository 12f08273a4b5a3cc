/**
 * Ranking tools against a clause: how strongly its words name each tool (name, title,
 * description) and its parameters, weighted by how rare each word is across the tool list.
 */
import { isCjk, type PositionedToken } from './text';
import type { IndexedTool, ToolIndex } from './tool-index';

/** How well a clause names a tool: tool-level (name, description) and parameter-level parts. */
export interface ToolScore {
  tool: IndexedTool;
  /** From the tool's name and description: a clause must match here to pick the tool. */
  toolLevel: number;
  /** The part of `toolLevel` that comes from the tool's name or title (a Chinese task names a
   * tool through its Chinese title). */
  nameLevel: number;
  /** From parameter names and descriptions only. */
  paramLevel: number;
}

/**
 * Score every tool against a clause's tokens, best first (ties: declaration order). Chinese
 * bigrams that stand next to each other in the clause and all match the tool are one matched
 * word and count once, at the weight of the rarest: "工作表" is one word shared with "新建工作表",
 * not two (工作, 作表) that together outweigh both 读取 and 数据 of "读取表格数据".
 */
export function rankTools(index: ToolIndex, clauseTokens: readonly PositionedToken[]): ToolScore[] {
  const scores = index.tools.map((tool) => {
    // The title is the tool's name for people ("Stage files" for `git_add`): it weighs as much.
    const named = (token: string) => tool.nameTokens.has(token) || tool.titleTokens.has(token);
    const words = clauseTokens.filter((t) => !t.extension);
    const toolLevel = sumOverWords(words, (token) =>
      named(token) ? 3 * index.idf(token) : tool.descriptionTokens.has(token) ? 2 * index.idf(token) : 0,
    );
    const nameLevel = sumOverWords(words, (token) => (named(token) ? 3 * index.idf(token) : 0));
    const paramLevel = sumOverWords(clauseTokens, (token) =>
      tool.paramTokens.has(token) ? index.idf(token) : 0,
    );
    return { tool, toolLevel, nameLevel, paramLevel };
  });
  return scores.sort(
    (a, b) =>
      b.toolLevel + 0.25 * b.paramLevel - (a.toolLevel + 0.25 * a.paramLevel) || a.tool.order - b.tool.order,
  );
}

/** A further bigram of one matched Chinese word adds this share of its weight. */
const RUN_EXTRA = 0.5;

/**
 * The weights of distinct tokens, where a run of adjacent matching Chinese bigrams is one word:
 * its rarest bigram at full weight, the others at `RUN_EXTRA`.
 */
function sumOverWords(tokens: readonly PositionedToken[], weightOf: (token: string) => number): number {
  const seen = new Set<string>();
  let total = 0;
  let run: number[] = [];
  let runEnd = -2;
  const closeRun = () => {
    const best = Math.max(0, ...run);
    total += best + RUN_EXTRA * (run.reduce((a, b) => a + b, 0) - best);
    run = [];
  };
  for (const { token, word } of tokens) {
    const weight = weightOf(token);
    const bigram = token.length === 2 && isCjk(token[0]);
    if (bigram && weight > 0 && run.length > 0 && word === runEnd + 1) {
      if (!seen.has(token)) run.push(weight);
      seen.add(token);
      runEnd = word;
      continue;
    }
    closeRun();
    if (weight > 0 && !seen.has(token)) {
      if (bigram) {
        run = [weight];
        runEnd = word;
      } else total += weight;
    }
    seen.add(token);
  }
  closeRun();
  return total;
}
