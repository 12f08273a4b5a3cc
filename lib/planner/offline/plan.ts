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
import { isCjk } from './text';
import {
  createToolIndex,
  rankTools,
  type IndexedParam,
  type IndexedTool,
  type ToolIndex,
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
}

/** Plan a task without a model (see the module comment). Deterministic: same input, same plan. */
export function planOffline(input: OfflinePlanInput): OfflinePlan {
  const index = createToolIndex(input.tools, input.systemParams);
  const notes: string[] = [];
  const groups: Group[] = [];
  const unplaced: Clause[] = [];
  const ignored: string[] = [];

  for (const clause of splitClauses(input.task)) {
    const ranking = rankTools(
      index,
      clause.tokens.map((t) => t.token),
    );
    const best = ranking[0];
    const previous = groups[groups.length - 1];
    if (previous && clause.soft && !(best && best.nameLevel > 0 && best.tool !== previous.tool)) {
      previous.clauses.push(clause);
      continue;
    }
    if (best && best.toolLevel > 0) {
      // "…optimise it，不优化晶胞": a clause that talks about a parameter of the tool just chosen
      // refines that step instead of calling the tool again.
      if (previous && previous.tool === best.tool && best.paramLevel >= best.toolLevel) {
        previous.clauses.push(clause);
      } else {
        groups.push({ tool: best.tool, clauses: [...unplaced.splice(0), clause] });
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
    args: fillArguments(group, notes),
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

function fillArguments(group: Group, notes: string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const params = group.tool.params;
  const pairs: { literal: PlacedLiteral; param: IndexedParam; score: number; order: number }[] = [];
  let order = 0;
  for (const clause of group.clauses) {
    for (const [i, placed] of clause.literals.entries()) {
      const context = getContext(clause, i);
      for (const param of params) {
        const score = scorePair(placed, param, context);
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
    if (usedLiterals.has(pair.literal) || pair.param.name in args) continue;
    args[pair.param.name] = pair.literal.literal.value;
    usedLiterals.add(pair.literal);
  }
  for (const param of params) {
    if (param.name in args) continue;
    if (param.type === 'bool') {
      const value = findBoolean(group.clauses, param);
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

/** Words near the i-th literal of a clause, weighted by nearness, not reaching past neighbours. */
function getContext(clause: Clause, i: number): Map<string, number> {
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
    context.set(token, Math.max(context.get(token) ?? 0, weight));
  }
  return context;
}

function scorePair(placed: PlacedLiteral, param: IndexedParam, context: Map<string, number>): number | null {
  const { literal } = placed;
  const base = getCompatibility(literal.kind, literal.value, param.type);
  if (base === null) return null;
  const inEnum = param.enum?.some(
    (v) =>
      v === literal.value ||
      (typeof v === 'string' && v.toLowerCase() === String(literal.value).toLowerCase()),
  );
  if (param.enum && !inEnum) return null;
  let fromContext = 0;
  for (const [token, weight] of context) {
    if (param.nameTokens.has(token)) fromContext += 3 * weight;
    else if (param.descriptionTokens.has(token)) fromContext += 1.5 * weight;
  }
  const pathLike =
    (literal.kind === 'url' || literal.kind === 'path') &&
    [...param.nameTokens, ...param.descriptionTokens].some((t) => PATH_WORDS.has(t));
  // Numbers and bare identifiers are too common to place without a word that names the parameter;
  // a file or URL goes only where a path belongs, or where the words around it point.
  if (literal.kind === 'number' && fromContext === 0 && !inEnum) return null;
  if (
    (literal.kind === 'url' || literal.kind === 'path') &&
    !pathLike &&
    fromContext === 0 &&
    param.type !== 'any'
  )
    return null;
  // An identifier also fits a parameter that is itself an id or a name ("mp-149" → material_id).
  const namesAnId = [...param.nameTokens].some((t) => ID_WORDS.has(t));
  if (literal.kind === 'identifier' && fromContext < 1.5 && !inEnum && !namesAnId) return null;
  return base + fromContext + (pathLike ? 1 : 0) + (inEnum ? 5 : 0) + (param.required ? 0.3 : 0);
}

function getCompatibility(
  kind: PlacedLiteral['literal']['kind'],
  value: string | number,
  type: ParamType,
): number | null {
  if (kind === 'number') {
    if (type === 'float') return 1;
    if (type === 'int') return Number.isInteger(value) ? 1 : null;
    return type === 'any' ? 0.3 : null;
  }
  if (type === 'str') return 1;
  if (type === 'any') return 0.5;
  if (type === 'list' && (kind === 'path' || kind === 'url')) return null;
  return null;
}

// ---- booleans and enums named in words ----

const GENERIC_BOOLEAN_WORDS = new Set(['whether', 'enabl', 'flag', 'should', 'allow', 'toggl', 'option']);
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
const CHINESE_NEGATION = /(?:不要|不用|无需|不必|禁止|关闭|没有|不|别|勿|无)$/;

/**
 * A boolean parameter named in the text: "relax the cell" → true, "do not relax the cell" /
 * "不优化晶胞" → false, not mentioned → undefined. English: every word of the parameter name.
 * Chinese: a run of three or more characters shared with the parameter's description.
 */
function findBoolean(clauses: Clause[], param: IndexedParam): boolean | undefined {
  const keyTokens = [...param.nameTokens].filter((t) => !GENERIC_BOOLEAN_WORDS.has(t));
  for (const clause of clauses) {
    if (keyTokens.length > 0 && keyTokens.every((k) => clause.tokens.some((t) => t.token === k))) {
      const first = Math.min(...clause.tokens.filter((t) => keyTokens.includes(t.token)).map((t) => t.word));
      const negated = clause.tokens.some(
        (t) => t.word < first && t.word >= first - 3 && NEGATORS.has(t.token),
      );
      return !negated;
    }
    const shared = findSharedChinese(clause.prose, param.description.replace(/是否/g, ' '));
    if (shared) return !CHINESE_NEGATION.test(clause.prose.slice(Math.max(0, shared.at - 2), shared.at));
  }
  return undefined;
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

/** Name words too generic to say that an output feeds an input. */
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
]);

interface Source {
  id: string;
  tool: IndexedTool | undefined;
  args: Record<string, unknown>;
}

function wireSteps(
  index: ToolIndex,
  calls: OfflineCall[],
  existing: { id: string; tool: string; args: Record<string, unknown> }[],
  groups: Group[],
): void {
  const sources: Source[] = existing.map((s) => ({ id: s.id, tool: index.byName.get(s.tool), args: s.args }));
  calls.forEach((call, i) => {
    const tool = groups[i].tool;
    const usedOutputs = new Set<string>();
    const open = tool.params.filter((p) => p.required && !(p.name in call.args));
    // 1. An earlier output whose name shares a meaningful word with the input.
    for (const param of [...open]) {
      const match = findNamedSource(sources, param, usedOutputs);
      if (!match) continue;
      call.args[param.name] = `{{${match.source.id}.${match.output}}}`;
      usedOutputs.add(`${match.source.id}.${match.output}`);
      open.splice(open.indexOf(param), 1);
    }
    // 2. The same parameter set earlier from the text (the model file of both steps).
    for (const param of [...open]) {
      const value = findReusedValue(sources, param.name);
      if (value === undefined) continue;
      call.args[param.name] = value;
      open.splice(open.indexOf(param), 1);
    }
    // 3. Otherwise the previous step's output feeds an input still empty ("…then compute its
    //    phonons"): the tool's main (first required) input, or any input when the output is
    //    untyped or the same structured type (rows → data).
    const previous = sources[sources.length - 1];
    const main = tool.params.find((p) => p.required);
    for (const param of open) {
      if (!previous?.tool) break;
      const output = previous.tool.outputs.find(
        (o) =>
          isTypeCompatible(o.type, param.type) &&
          (param === main ||
            o.type === 'any' ||
            (o.type === param.type && (o.type === 'list' || o.type === 'dict'))) &&
          !usedOutputs.has(`${previous.id}.${o.name}`),
      );
      if (!output) continue;
      call.args[param.name] = `{{${previous.id}.${output.name}}}`;
      usedOutputs.add(`${previous.id}.${output.name}`);
    }
    sources.push({ id: call.id, tool, args: call.args });
  });
}

function findNamedSource(
  sources: Source[],
  param: IndexedParam,
  used: Set<string>,
): { source: Source; output: string } | undefined {
  const wanted = [...param.nameTokens].filter((t) => !GENERIC_PORT_WORDS.has(t));
  let best: { source: Source; output: string; overlap: number } | undefined;
  // Most recent first, so a tie goes to the nearer step.
  for (let s = sources.length - 1; s >= 0; s--) {
    const source = sources[s];
    for (const output of source.tool?.outputs ?? []) {
      if (!isTypeCompatible(output.type, param.type) || used.has(`${source.id}.${output.name}`)) continue;
      const overlap = wanted.filter((t) => output.nameTokens.has(t)).length;
      if (overlap > 0 && (!best || overlap > best.overlap)) best = { source, output: output.name, overlap };
    }
  }
  return best;
}

function findReusedValue(sources: Source[], name: string): unknown {
  for (let s = sources.length - 1; s >= 0; s--) {
    const value = sources[s].args[name];
    if (value === undefined || (typeof value === 'string' && /^\{\{.*\}\}$/.test(value))) continue;
    return value;
  }
  return undefined;
}
