/**
 * What the offline planner knows about each tool: the words of its name, description and
 * parameters (for ranking), each parameter's type, enum and words (for filling arguments) and
 * its outputs (for wiring). Built once per planning run.
 */
import { getObjectProperties, isJsonObject, resolveSchema } from '../../tools/json-schema';
import type { ToolDeclaration } from '../../tools/types';
import { getOutputParameters, getParamPlan } from '../../workflow/params';
import type { ParamType } from '../../workflow/types';
import { isCjk, tokenSet, type PositionedToken } from './text';

export interface IndexedParam {
  name: string;
  type: ParamType;
  required: boolean;
  enum?: unknown[];
  /** A list of strings (file names, header names): one value from the text becomes `[value]`. */
  stringList: boolean;
  nameTokens: Set<string>;
  descriptionTokens: Set<string>;
  /** The description as written (Chinese phrases are matched on it directly). */
  description: string;
}

export interface IndexedOutput {
  name: string;
  type: ParamType;
  nameTokens: Set<string>;
  /** Words of the output's description in the outputSchema (empty when it has none). */
  descriptionTokens: Set<string>;
  /** For a list: the JSON type of its items when the schema says (`rows` are arrays). */
  itemType?: string;
}

export interface IndexedTool {
  declaration: ToolDeclaration;
  /** Position in the tool list (ties go to the earlier tool). */
  order: number;
  nameTokens: Set<string>;
  /** Words of the display title (a bilingual title carries the tool's Chinese name). */
  titleTokens: Set<string>;
  /** Words of the title and the description. */
  descriptionTokens: Set<string>;
  paramTokens: Set<string>;
  params: IndexedParam[];
  outputs: IndexedOutput[];
}

export interface ToolIndex {
  tools: IndexedTool[];
  byName: Map<string, IndexedTool>;
  /** ln(1 + tools / tools-containing-token): rare words weigh more. */
  idf(token: string): number;
  /**
   * English words a Chinese bigram stands for, learned from the bilingual titles ("Calculate
   * band structure · 计算能带结构"): words that occur in the same titles as the bigram (see
   * `learnTitleLexicon`). Empty for anything else.
   */
  translate(token: string): readonly string[];
  /**
   * Name words of the ports (inputs and outputs, every tool) whose description uses `token`:
   * what the toolkit calls a thing it describes that way ("URL of the relaxed structure (CIF)"
   * → `cif` describes a `structur`). For reading a file's extension.
   */
  describedAs(token: string): ReadonlySet<string>;
}

/** Index the tools for ranking and argument filling. */
export function createToolIndex(tools: ToolDeclaration[], systemParams?: readonly string[]): ToolIndex {
  const indexed = tools.map((declaration, order) => indexTool(declaration, order, systemParams));
  const documentFrequency = new Map<string, number>();
  for (const tool of indexed) {
    const all = new Set([...tool.nameTokens, ...tool.descriptionTokens, ...tool.paramTokens]);
    for (const token of all) documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
  }
  const count = Math.max(indexed.length, 1);
  const lexicon = learnTitleLexicon(indexed.map((t) => t.declaration.title ?? ''));
  const described = new Map<string, Set<string>>();
  for (const tool of indexed) {
    const ports = [...tool.params, ...tool.outputs];
    for (const port of ports) {
      for (const token of port.descriptionTokens) {
        let names = described.get(token);
        if (!names) described.set(token, (names = new Set()));
        for (const name of port.nameTokens) names.add(name);
      }
    }
  }
  const none: ReadonlySet<string> = new Set();
  return {
    tools: indexed,
    byName: new Map(indexed.map((t) => [t.declaration.name, t])),
    idf: (token) => Math.log(1 + count / (documentFrequency.get(token) ?? count)),
    translate: (token) => lexicon.get(token) ?? [],
    describedAs: (token) => described.get(token) ?? none,
  };
}

/** A bigram and an English word count as translations when they share this many titles... */
const LEXICON_MIN_SHARED = 2;
/** ...and this share of their titles (Dice: 2 × shared / (titles with one + titles with the other)). */
const LEXICON_MIN_DICE = 0.75;

/**
 * A tiny bilingual lexicon from the tools' own titles, no dictionary: each title written as
 * "English · 中文" is a sentence pair, and a Chinese bigram and an English word that keep
 * appearing in the same titles mean the same thing (结构 ↔ structure in "Build bulk structure
 * · 构建晶体结构", "Optimize structure · 结构优化", "Calculate band structure · 计算能带结构").
 * A pair seen in a single title is not trusted: every word of that title would pair with every
 * other.
 */
export function learnTitleLexicon(titles: readonly string[]): Map<string, string[]> {
  const english = new Map<string, number>();
  const chinese = new Map<string, number>();
  const pairs = new Map<string, Map<string, number>>();
  for (const title of titles) {
    const tokens = tokenSet(title);
    const en = [...tokens].filter((t) => !isCjk(t[0]));
    const zh = [...tokens].filter((t) => isCjk(t[0]) && t.length === 2);
    if (en.length === 0 || zh.length === 0) continue;
    for (const e of en) english.set(e, (english.get(e) ?? 0) + 1);
    for (const z of zh) {
      chinese.set(z, (chinese.get(z) ?? 0) + 1);
      let row = pairs.get(z);
      if (!row) pairs.set(z, (row = new Map()));
      for (const e of en) row.set(e, (row.get(e) ?? 0) + 1);
    }
  }
  const lexicon = new Map<string, string[]>();
  for (const [z, row] of pairs) {
    const words = [...row]
      .filter(([e, shared]) => {
        const dice = (2 * shared) / ((english.get(e) ?? 0) + (chinese.get(z) ?? 0));
        return shared >= LEXICON_MIN_SHARED && dice >= LEXICON_MIN_DICE;
      })
      .map(([e]) => e)
      .sort();
    if (words.length > 0) lexicon.set(z, words);
  }
  return lexicon;
}

function indexTool(
  declaration: ToolDeclaration,
  order: number,
  systemParams?: readonly string[],
): IndexedTool {
  const root = isJsonObject(declaration.inputSchema) ? declaration.inputSchema : {};
  const schemas = new Map(
    getObjectProperties(root, root).properties.map((p) => [p.name, resolveSchema(p.schema, root)]),
  );
  const params: IndexedParam[] = getParamPlan(declaration, systemParams).map((entry) => {
    const schema = schemas.get(entry.name) ?? {};
    const description = entry.description ?? '';
    return {
      name: entry.name,
      type: entry.type,
      required: entry.required,
      ...(Array.isArray(schema.enum) ? { enum: schema.enum } : {}),
      stringList:
        entry.type === 'list' &&
        isJsonObject(schema.items) &&
        resolveSchema(schema.items, root).type === 'string',
      nameTokens: tokenSet(entry.name),
      descriptionTokens: tokenSet(description),
      description,
    };
  });
  const outputRoot = isJsonObject(declaration.outputSchema) ? declaration.outputSchema : {};
  const outputSchemas = new Map(
    getObjectProperties(outputRoot, outputRoot).properties.map((p) => [
      p.name,
      resolveSchema(p.schema, outputRoot),
    ]),
  );
  const outputs = getOutputParameters(declaration).map((o) => {
    const schema = outputSchemas.get(o.name) ?? {};
    const items = isJsonObject(schema.items) ? resolveSchema(schema.items, outputRoot).type : undefined;
    return {
      name: o.name,
      type: o.type,
      nameTokens: tokenSet(o.name),
      descriptionTokens: tokenSet(typeof schema.description === 'string' ? schema.description : ''),
      ...(typeof items === 'string' ? { itemType: items } : {}),
    };
  });
  const paramTokens = new Set<string>();
  for (const p of params) for (const t of [...p.nameTokens, ...p.descriptionTokens]) paramTokens.add(t);
  return {
    declaration,
    order,
    nameTokens: tokenSet(declaration.name),
    titleTokens: tokenSet(declaration.title ?? ''),
    descriptionTokens: tokenSet(`${declaration.title ?? ''} ${declaration.description}`),
    paramTokens,
    params,
    outputs,
  };
}

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
