/**
 * The offline planner (DESIGN §3): deterministic, no model. It splits the task into clauses,
 * picks the best-ranked tool for each, fills arguments from the literal values in the text and
 * wires an earlier step's output into a later step's required input when the text gives no
 * value. Weaker than a model by design; it must still give a sensible graph for plain tasks
 * such as the seed's "optimise the structure at URL with model URL, then compute its phonons".
 */
import type { ToolDeclaration } from '../../tools/types';
import { isTypeCompatible } from '../../workflow/graph';
import type { ParamType } from '../../workflow/types';
import { splitClauses, type Clause, type PlacedLiteral } from './clauses';
import { isCjk, tokenSet } from './text';
import {
  createToolIndex,
  rankTools,
  type IndexedOutput,
  type IndexedParam,
  type IndexedTool,
  type ToolIndex,
  type ToolScore,
} from './tool-index';

export interface OfflinePlanInput {
  task: string;
  tools: ToolDeclaration[];
  systemParams?: readonly string[];
  /** Steps that already exist (a follow-up edit): wiring sources and values to reuse. */
  existingSteps?: { id: string; tool: string; args: Record<string, unknown> }[];
  /** Number of the first new step (`step_N`); 1 when omitted. */
  firstStepNumber?: number;
}

/** One call the offline planner makes; references to earlier steps are `{{step_N.output}}`. */
export interface OfflineCall {
  id: string;
  tool: string;
  args: Record<string, unknown>;
  /** The clause(s) of the task this call comes from. */
  clause: string;
}

export interface OfflinePlan {
  calls: OfflineCall[];
  /** What the planner could not place, for the person to check. */
  notes: string[];
}

interface Group {
  tool: IndexedTool;
  clauses: Clause[];
  /** Index in `clauses` of the clause that chose the tool; later clauses refine the step. */
  lead: number;
}

/** Plan a task without a model (see the module comment). Deterministic: same input, same plan. */
export function planOffline(input: OfflinePlanInput): OfflinePlan {
  const index = createToolIndex(input.tools, input.systemParams);
  const notes: string[] = [];
  const groups: Group[] = [];
  const unplaced: Clause[] = [];
  const ignored: string[] = [];

  for (const clause of splitClauses(input.task)) {
    const ranking = rankTools(index, clause.tokens);
    const best = ranking[0];
    const previous = groups[groups.length - 1];
    if (previous && clause.soft && !(best && best.nameLevel > 0 && best.tool !== previous.tool)) {
      previous.clauses.push(clause);
      continue;
    }
    // "…optimise it，不优化晶胞" / "…. Do not relax the cell.": a clause that only sets an option
    // of the step before, and names no other tool more strongly, refines that step.
    if (previous && isModifier(index, previous, clause, ranking)) {
      previous.clauses.push(clause);
      continue;
    }
    if (best && best.toolLevel > 0) {
      // A clause that talks about a parameter of the tool just chosen ("路径上取 150 个点")
      // refines that step instead of calling the tool again.
      if (previous && previous.tool === best.tool && best.paramLevel >= best.toolLevel) {
        previous.clauses.push(clause);
      } else {
        groups.push({ tool: best.tool, clauses: [...unplaced, clause], lead: unplaced.length });
        unplaced.length = 0;
      }
      continue;
    }
    if (previous) previous.clauses.push(clause);
    else unplaced.push(clause);
    const target = previous?.tool;
    const useful = clause.literals.length > 0 || clause.tokens.some((t) => target?.paramTokens.has(t.token));
    if (!useful && clause.tokens.length > 0) ignored.push(clause.text);
  }
  if (groups.length === 0) {
    notes.push(
      index.tools.length === 0
        ? 'No tools are available: import a toolkit first.'
        : 'No tool matches the task. Name the action in words a tool description uses, or pick tools from the palette.',
    );
    return { calls: [], notes };
  }
  for (const text of ignored)
    notes.push(`No tool or parameter matches "${text}"; that part of the task was ignored.`);

  const first = input.firstStepNumber ?? 1;
  const calls: OfflineCall[] = groups.map((group, i) => ({
    id: `step_${first + i}`,
    tool: group.tool.declaration.name,
    args: fillArguments(index, group, notes),
    clause: group.clauses.map((c) => c.text).join(' / '),
  }));
  wireSteps(index, calls, input.existingSteps ?? [], groups);
  // Arguments in declaration order, as a person reads them in the inspector.
  calls.forEach((call, i) => {
    const order = groups[i].tool.params.map((p) => p.name);
    call.args = Object.fromEntries(
      Object.entries(call.args).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)),
    );
  });
  return { calls, notes };
}

// ---- refinements: a clause that only sets an option of the step before ----

/**
 * Whether `clause` refines the previous step instead of starting a new one: it brings no value
 * of its own (URL, path, quoted text), it sets a boolean, enum or number parameter of the
 * previous tool that the step has not set yet, and it names no other tool more strongly than
 * it names the previous one (counting the words of the parameters it sets: "Do not relax the
 * cell" is about `relax_cell`, not about the "not staged" of `git_diff_unstaged`).
 */
function isModifier(index: ToolIndex, previous: Group, clause: Clause, ranking: ToolScore[]): boolean {
  const tool = previous.tool;
  const already = fillArguments(index, previous, []);
  const values = clause.literals.filter(
    (l) => l.literal.kind !== 'number' && l.literal.kind !== 'identifier',
  );
  if (values.length > 0)
    return values.every((placed) => isAssignedToParam(index, tool, clause, placed, already));
  const settings = getOptionSettings(index, tool, clause);
  if (settings.length === 0) return false;
  if (settings.some((p) => p.name in already)) return false;
  const best = ranking[0];
  if (!best || best.tool === tool) return true;
  const tokens = new Set(clause.tokens.map((t) => t.token));
  let evidence = ranking.find((r) => r.tool === tool)?.toolLevel ?? 0;
  for (const param of settings)
    for (const token of param.nameTokens) if (tokens.has(token)) evidence += 3 * index.idf(token);
  return evidence >= best.toolLevel;
}

/** "提交信息为 'fix typo'", "message: 'x'", "the title is 'Q1'": a value introduced by a copula. */
const ASSIGNMENT = /(?:为|是|设为|设置为|改为|[:：=]|\bis|\bbe)\s*$/i;

/**
 * Whether a value is assigned to a parameter of `tool` the step has not set: introduced by a
 * copula (`ASSIGNMENT`), and placed there by the words before it, not by its type alone. Such a
 * clause says what a value is, it asks for no action, even when its words also occur in another
 * tool's title (信息 in 查看工作簿信息).
 */
function isAssignedToParam(
  index: ToolIndex,
  tool: IndexedTool,
  clause: Clause,
  placed: PlacedLiteral,
  already: Record<string, unknown>,
): boolean {
  if (!ASSIGNMENT.test(placed.before)) return false;
  const context = getContext(index, clause, clause.literals.indexOf(placed));
  return tool.params.some(
    (param) =>
      !(param.name in already) &&
      scorePair(index, placed, param, context) !== null &&
      getContextScore(param, context) > 0,
  );
}

/** The boolean, enum and number parameters of `tool` that `clause` sets as a refinement. */
function getOptionSettings(index: ToolIndex, tool: IndexedTool, clause: Clause): IndexedParam[] {
  return tool.params.filter((param) => {
    if (param.type === 'bool')
      return readBoolean(clause, param, tool, getSwitchMode(tool, param, clause)) !== undefined;
    if (param.enum) return findEnumValue([clause], param.enum) !== undefined;
    if (param.type !== 'int' && param.type !== 'float') return false;
    return clause.literals.some(
      (placed, i) =>
        placed.literal.kind === 'number' &&
        scorePair(index, placed, param, getContext(index, clause, i)) !== null,
    );
  });
}

// ---- literal values → arguments ----

const PATH_WORDS = new Set([
  'path',
  'fil',
  'url',
  'uri',
  'dir',
  'directory',
  'folder',
  'link',
  'locat',
  'structur',
  '文件',
  '路径',
  '链接',
  '地址',
]);
const ID_WORDS = new Set(['id', 'identifi', 'nam', 'key', 'cod', 'tag', 'label']);
const BEFORE_WINDOW = 6;
const AFTER_WINDOW = 4;

function fillArguments(index: ToolIndex, group: Group, notes: string[]): Record<string, unknown> {
  // No prototype while the args are filled: parameter names are the tool's own strings, and
  // "constructor" must read as unset, "__proto__" be set as a member (plan() copies the args
  // into a plain object at the end).
  const args: Record<string, unknown> = Object.create(null);
  const params = group.tool.params;
  const pairs: { literal: PlacedLiteral; param: IndexedParam; score: number; order: number }[] = [];
  let order = 0;
  for (const clause of group.clauses) {
    for (const [i, placed] of clause.literals.entries()) {
      const context = getContext(index, clause, i);
      for (const param of params) {
        const score = scorePair(index, placed, param, context);
        if (score !== null) pairs.push({ literal: placed, param, score, order });
      }
      order++;
    }
  }
  // Greedy by score: the best literal-parameter match first, each used once.
  pairs.sort(
    (a, b) => b.score - a.score || a.order - b.order || params.indexOf(a.param) - params.indexOf(b.param),
  );
  const usedLiterals = new Set<PlacedLiteral>();
  for (const pair of pairs) {
    if (usedLiterals.has(pair.literal)) continue;
    const value = pair.literal.literal.value;
    const current = args[pair.param.name];
    if (pair.param.stringList) {
      // Every value whose best place is this list goes in it ("stage 'a.ts' and 'b.ts'").
      if (current !== undefined && !Array.isArray(current)) continue;
      args[pair.param.name] = [...((current as unknown[] | undefined) ?? []), value];
    } else if (current !== undefined) continue;
    else args[pair.param.name] = value;
    usedLiterals.add(pair.literal);
  }
  for (const param of params) {
    if (param.name in args) continue;
    if (param.type === 'bool') {
      const value = findBoolean(group, param);
      if (value !== undefined) args[param.name] = value;
    } else if (param.enum) {
      const value = findEnumValue(group.clauses, param.enum);
      if (value !== undefined) args[param.name] = value;
    }
  }
  for (const clause of group.clauses) {
    for (const placed of clause.literals) {
      if (usedLiterals.has(placed) || placed.literal.kind === 'identifier') continue;
      notes.push(
        `The value ${JSON.stringify(placed.literal.value)} matched no parameter of ${group.tool.declaration.name}; set it by hand if it matters.`,
      );
    }
  }
  return args;
}

/**
 * Words near the i-th literal of a clause, weighted by nearness, not reaching past neighbours.
 * A Chinese word also stands for the English words the titles translate it to (结构 → structure).
 */
function getContext(index: ToolIndex, clause: Clause, i: number): Map<string, number> {
  const at = clause.literals[i].word;
  const low = Math.max(at - BEFORE_WINDOW, i > 0 ? clause.literals[i - 1].word + 1 : -Infinity);
  const high = Math.min(
    at + AFTER_WINDOW,
    i + 1 < clause.literals.length ? clause.literals[i + 1].word - 1 : Infinity,
  );
  const context = new Map<string, number>();
  for (const { token, word } of clause.tokens) {
    if (word < low || word > high || word === at) continue;
    // Parameters are usually named before their value ("model URL", "tolerance 0.05").
    const weight = word < at ? 1 / (at - word) : 0.7 / (word - at);
    for (const t of [token, ...index.translate(token)]) context.set(t, Math.max(context.get(t) ?? 0, weight));
  }
  return context;
}

function scorePair(
  index: ToolIndex,
  placed: PlacedLiteral,
  param: IndexedParam,
  context: Map<string, number>,
): number | null {
  const { literal } = placed;
  const base = getCompatibility(literal.kind, literal.value, param.type, param.stringList);
  if (base === null) return null;
  const inEnum = param.enum?.some(
    (v) =>
      v === literal.value ||
      (typeof v === 'string' && v.toLowerCase() === String(literal.value).toLowerCase()),
  );
  if (param.enum && !inEnum) return null;
  const fromContext = getContextScore(param, context);
  const isFile = literal.kind === 'url' || literal.kind === 'path';
  const pathLike = isFile && [...param.nameTokens, ...param.descriptionTokens].some((t) => PATH_WORDS.has(t));
  // Numbers and bare identifiers are too common to place without a word that names the parameter;
  // a file or URL goes only where a path belongs, or where the words around it point.
  if (literal.kind === 'number' && fromContext === 0 && !inEnum) return null;
  if (isFile && !pathLike && fromContext === 0 && param.type !== 'any') return null;
  // An identifier also fits a parameter that is itself an id or a name ("mp-149" → material_id).
  const namesAnId = [...param.nameTokens].some((t) => ID_WORDS.has(t));
  if (literal.kind === 'identifier' && fromContext < 1.5 && !inEnum && !namesAnId) return null;
  // What the file's own name says counts only between places for files (a `.xlsx` is not a sheet name).
  const own = pathLike ? scoreFileName(index, String(literal.value), param) : 0;
  // A quoted word that is no path ('main') fits a path parameter only when words say so.
  const unlikePath =
    literal.kind === 'string' && fromContext === 0 && isFileInput(param) && !param.stringList ? 0.5 : 0;
  return (
    base + fromContext + own + (pathLike ? 1 : 0) + (inEnum ? 5 : 0) + (param.required ? 0.3 : 0) - unlikePath
  );
}

/**
 * What a file's own name says about the parameter it belongs to: its directory and file words
 * and extension (`models/dpa-2.4-7M.pt` → model, dpa; `Cu_bulk.cif` → cif) against the
 * parameter's name and description, and an extension the toolkit uses to describe a kind of
 * port ("URL of the relaxed structure (CIF)": a `.cif` file is a structure). The host of a
 * URL says nothing and is skipped.
 */
function scoreFileName(index: ToolIndex, value: string, param: IndexedParam): number {
  const name = [...param.nameTokens].filter((t) => !GENERIC_PORT_WORDS.has(t));
  let score = 0;
  for (const token of tokenSet(value.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, ''))) {
    if (GENERIC_PORT_WORDS.has(token)) continue;
    if (name.includes(token)) score += 1.5;
    else if (param.descriptionTokens.has(token)) score += 1;
    else if (name.some((t) => index.describedAs(token).has(t))) score += 1;
  }
  return score;
}

/** How strongly the words around a value name a parameter (name words count double). */
function getContextScore(param: IndexedParam, context: Map<string, number>): number {
  let score = 0;
  for (const [token, weight] of context) {
    if (param.nameTokens.has(token)) score += 3 * weight;
    else if (param.descriptionTokens.has(token)) score += 1.5 * weight;
  }
  return score;
}

function getCompatibility(
  kind: PlacedLiteral['literal']['kind'],
  value: string | number,
  type: ParamType,
  stringList: boolean,
): number | null {
  // A file or name from the text as the one item of a list of strings ("stage 'src/app.ts'").
  if (stringList) return kind === 'number' ? null : 0.8;
  if (kind === 'number') {
    if (type === 'float') return 1;
    if (type === 'int') return Number.isInteger(value) ? 1 : null;
    return type === 'any' ? 0.3 : null;
  }
  if (type === 'str') return 1;
  if (type === 'any') return 0.5;
  return null;
}

// ---- booleans and enums named in words ----

/** How many words apart the words of a parameter's name may stand and still read as one phrase. */
const PHRASE_SPAN = 4;
const GENERIC_BOOLEAN_WORDS = new Set(['whether', 'enabl', 'flag', 'should', 'allow', 'toggl', 'option']);
/** English negation words (stems, and the `don` of "don't"). */
const NEGATORS = new Set([
  'not',
  'no',
  'don',
  'dont',
  'without',
  'never',
  'skip',
  'disabl',
  'avoid',
  'doesn',
  'didn',
  'won',
  'off',
  'fals',
]);
/** Chinese negation words: right before a phrase ("不优化晶胞", "无需…", "不要…"). */
const CHINESE_NEGATION = /(?:不要|不用|无需|不必|禁止|关闭|没有|不|别|勿|无)$/;
/** The same words anywhere before a mention (a refining clause is short). */
const CHINESE_NEGATION_BEFORE = /不|别|勿|无|没有|禁止|关闭/;

/**
 * How a clause may set a tool's only on/off parameter without naming it: `none` in the clause
 * that chose the tool; in a refining clause joined by "and"/并 (`any`) a second mention of the
 * tool's action turns it on ("进行结构优化并优化晶胞" → relax_cell true) and a negated one turns it
 * off; in a refining clause of its own (`negated`) only the negated mention counts ("，不优化晶胞"),
 * since "…，再优化一次" asks for the action again.
 */
type SwitchMode = 'none' | 'negated' | 'any';

function getSwitchMode(tool: IndexedTool, param: IndexedParam, clause: Clause): SwitchMode {
  const switches = tool.params.filter((p) => p.type === 'bool');
  if (switches.length !== 1 || switches[0] !== param) return 'none';
  return clause.soft ? 'any' : 'negated';
}

/** A boolean parameter named in a group's clauses (see `readBoolean`). */
function findBoolean(group: Group, param: IndexedParam): boolean | undefined {
  for (const [i, clause] of group.clauses.entries()) {
    const mode = i <= group.lead ? 'none' : getSwitchMode(group.tool, param, clause);
    const value = readBoolean(clause, param, group.tool, mode);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * A boolean parameter named in a clause: "relax the cell" → true, "do not relax the cell" /
 * "不优化晶胞" → false, not mentioned → undefined. English: every word of the parameter name.
 * Chinese: a run of three or more characters shared with the parameter's description. Failing
 * both, a tool's only switch by a second mention of the tool's action (see `SwitchMode`).
 */
function readBoolean(
  clause: Clause,
  param: IndexedParam,
  tool: IndexedTool,
  mode: SwitchMode,
): boolean | undefined {
  const keyTokens = [...param.nameTokens].filter((t) => !GENERIC_BOOLEAN_WORDS.has(t));
  if (keyTokens.length > 0 && keyTokens.every((k) => clause.tokens.some((t) => t.token === k))) {
    // Where the words stand together ("Relax ./Si.cif … without relaxing the cell": the second
    // "relax"), else where the first of them stands.
    const keys = clause.tokens.filter((t) => keyTokens.includes(t.token));
    const together = keys.find((anchor) =>
      keyTokens.every((k) =>
        keys.some((t) => t.token === k && t.word >= anchor.word && t.word <= anchor.word + PHRASE_SPAN),
      ),
    );
    const first = together?.word ?? Math.min(...keys.map((t) => t.word));
    const negated = clause.tokens.some((t) => t.word < first && t.word >= first - 3 && NEGATORS.has(t.token));
    return !negated;
  }
  const shared = findSharedChinese(clause.prose, param.description.replace(/是否/g, ' '));
  if (shared) return !CHINESE_NEGATION.test(clause.prose.slice(Math.max(0, shared.at - 2), shared.at));
  if (mode === 'none') return undefined;
  const mention = findToolMention(clause, tool);
  if (!mention || (mode === 'negated' && !mention.negated)) return undefined;
  return !mention.negated;
}

/** Where a clause names the tool (a word of its name or title), and whether a negation precedes. */
function findToolMention(clause: Clause, tool: IndexedTool): { negated: boolean } | undefined {
  let chinese = -1;
  for (const token of tool.titleTokens) {
    if (!isCjk(token[0]) || token.length < 2) continue;
    const at = clause.prose.indexOf(token);
    if (at !== -1 && (chinese === -1 || at < chinese)) chinese = at;
  }
  if (chinese !== -1) return { negated: CHINESE_NEGATION_BEFORE.test(clause.prose.slice(0, chinese)) };
  const english = clause.tokens.find(
    (t) => !isCjk(t.token[0]) && (tool.nameTokens.has(t.token) || tool.titleTokens.has(t.token)),
  );
  if (!english) return undefined;
  return { negated: clause.tokens.some((t) => t.word < english.word && NEGATORS.has(t.token)) };
}

/** The longest run of 3+ Chinese characters that `text` shares with `reference`, and where. */
function findSharedChinese(text: string, reference: string): { at: number; length: number } | undefined {
  let best: { at: number; length: number } | undefined;
  for (let i = 0; i < text.length; i++) {
    if (!isCjk(text[i])) continue;
    for (let end = i + 3; end <= text.length && isCjk(text[end - 1]); end++) {
      if (!reference.includes(text.slice(i, end))) break;
      if (!best || end - i > best.length) best = { at: i, length: end - i };
    }
  }
  return best;
}

function findEnumValue(clauses: Clause[], values: unknown[]): unknown {
  for (const clause of clauses) {
    const prose = clause.text.toLowerCase();
    for (const value of values) {
      if (typeof value !== 'string' || value.length < 2) continue;
      const needle = value.toLowerCase();
      const at = prose.indexOf(needle);
      if (at === -1) continue;
      const before = prose[at - 1] ?? ' ';
      const after = prose[at + needle.length] ?? ' ';
      const boundary = (c: string) => !/[a-z0-9_]/.test(c);
      if (isCjk(needle[0]) || (boundary(before) && boundary(after))) return value;
    }
  }
  return undefined;
}

// ---- wiring ----

/** Words too generic to say that an output feeds an input (or what a file is). */
const GENERIC_PORT_WORDS = new Set([
  'input',
  'output',
  'result',
  'valu',
  'new',
  'path',
  'fil',
  'url',
  'uri',
  'dir',
  'nam',
  'id',
  'number',
  'typ',
  'list',
  'data',
  'default',
  'empty',
  'omit',
  'such',
]);
/** Words that say an output is a file or a link to one. */
const FILE_WORDS = new Set(['path', 'fil', 'url', 'uri', 'dir', 'directory', 'folder', 'link', 'locat']);

interface Source {
  id: string;
  tool: IndexedTool | undefined;
  args: Record<string, unknown>;
}

interface Wire {
  source: Source;
  output: IndexedOutput;
}

/**
 * Fill required inputs the text left empty, only where something says they belong together:
 *  1. an earlier output (any earlier step) that shares a meaningful word with the input — in
 *     names (`optimized_structure` → `input_structure`) or descriptions ("Cell values row by
 *     row" → "one inner list per row");
 *  2. the value the same parameter got earlier from the text (the model file of both steps);
 *  3. the previous step's file/URL output into the tool's main (first required) input when that
 *     input takes a file, path or structure; or its untyped result (a tool with no
 *     outputSchema) into a list/object input, which text cannot give anyway.
 * Anything else stays empty and shows up as a missing value to fill in the inspector: a commit
 * message is not "the output of git status".
 */
function wireSteps(
  index: ToolIndex,
  calls: OfflineCall[],
  existing: { id: string; tool: string; args: Record<string, unknown> }[],
  groups: Group[],
): void {
  const sources: Source[] = existing.map((s) => ({ id: s.id, tool: index.byName.get(s.tool), args: s.args }));
  calls.forEach((call, i) => {
    const tool = groups[i].tool;
    const used = new Set<IndexedOutput>();
    const connect = (param: IndexedParam, wire: Wire) => {
      call.args[param.name] = `{{${wire.source.id}.${wire.output.name}}}`;
      used.add(wire.output);
    };
    const open = () => tool.params.filter((p) => p.required && !(p.name in call.args));
    // 1. Shared words, strongest first; a tie goes to the nearer step.
    const candidates: (Wire & { param: IndexedParam; score: number; distance: number })[] = [];
    for (const param of open()) {
      sources.forEach((source, s) => {
        for (const output of source.tool?.outputs ?? []) {
          // A band structure is what calculate_band_structure makes, not the structure it takes
          // (the same tool run again does take its own result).
          const ownProduct =
            source.tool !== tool &&
            [...output.nameTokens].some(
              (t) => tool.nameTokens.has(t) && !param.nameTokens.has(t) && !GENERIC_PORT_WORDS.has(t),
            );
          const score = ownProduct ? 0 : getSharedWordScore(output, param);
          if (score > 0) candidates.push({ param, source, output, score, distance: sources.length - s });
        }
      });
    }
    candidates.sort((a, b) => b.score - a.score || a.distance - b.distance);
    for (const c of candidates) if (!(c.param.name in call.args) && !used.has(c.output)) connect(c.param, c);
    // 2. The same parameter set earlier from the text.
    for (const param of open()) {
      const value = findReusedValue(sources, param.name);
      if (value !== undefined) call.args[param.name] = value;
    }
    // 3. The previous step's file into the main input, or its untyped result into structured data.
    const previous = sources[sources.length - 1];
    const main = tool.params.find((p) => p.required);
    for (const param of open()) {
      const output = previous?.tool?.outputs.find(
        (o) =>
          !used.has(o) &&
          fits(o, param) &&
          ((param === main && isFileOutput(o) && isFileInput(param)) ||
            (o.type === 'any' && (param.type === 'list' || param.type === 'dict'))),
      );
      if (previous && output) connect(param, { source: previous, output });
    }
    sources.push({ id: call.id, tool, args: call.args });
  });
}

/** How much an output and an input have in common in meaningful words (0: nothing). */
function getSharedWordScore(output: IndexedOutput, param: IndexedParam): number {
  if (!fits(output, param)) return 0;
  const meaningful = (tokens: Iterable<string>) => [...tokens].filter((t) => !GENERIC_PORT_WORDS.has(t));
  const paramWords = new Set([...param.nameTokens, ...param.descriptionTokens]);
  const outputWords = new Set([...output.nameTokens, ...output.descriptionTokens]);
  const inNames = meaningful(param.nameTokens).filter((t) => output.nameTokens.has(t)).length;
  const anywhere = meaningful(paramWords).filter((t) => outputWords.has(t)).length;
  return 2 * inNames + anywhere;
}

/** Whether an output's type fits an input (a list of header names takes no list of rows). */
function fits(output: IndexedOutput, param: IndexedParam): boolean {
  if (!isTypeCompatible(output.type, param.type)) return false;
  return !(param.stringList && output.itemType !== undefined && output.itemType !== 'string');
}

function isFileOutput(output: IndexedOutput): boolean {
  return (
    output.type === 'str' &&
    [...output.nameTokens, ...output.descriptionTokens].some((t) => FILE_WORDS.has(t))
  );
}

function isFileInput(param: IndexedParam): boolean {
  return [...param.nameTokens, ...param.descriptionTokens].some((t) => PATH_WORDS.has(t));
}

function findReusedValue(sources: Source[], name: string): unknown {
  for (let s = sources.length - 1; s >= 0; s--) {
    if (!Object.hasOwn(sources[s].args, name)) continue;
    const value = sources[s].args[name];
    if (value === undefined || (typeof value === 'string' && /^\{\{.*\}\}$/.test(value))) continue;
    return value;
  }
  return undefined;
}
