/**
 * Values from the text → arguments of one step. Each literal has a kind (literals.ts) and each
 * parameter holds some kinds (tool-index.ts); a value goes only where its kind fits, the schema
 * accepts it (type, enum, pattern, bounds, unit) and, for values too common to place by kind alone
 * (numbers, bare words), where the words around it name the parameter. Where nothing says where a
 * value belongs it is left out and the person is told: a wrong value shown as set is worse than
 * a missing one.
 */
import { compileLinearPattern } from '../../tools/linear-pattern';
import { isCjk, tokenSet } from './text';
import type { Clause, PlacedLiteral } from './clauses';
import { ENUM_SYNONYMS, findChineseWords } from './lexicon';
import { fillNamedItems, fillRelations } from './items';
import { dropUnclear, getKindNoun, NAME_PARAM, type Doubt } from './clarity';
import { isCellReference, isRangeReference, type Literal } from './literals';
import { GENERIC_PORT_WORDS, type IndexedParam, type IndexedTool, type ToolIndex } from './tool-index';
import { convertUnit, getDescribedUnit, getDimension, getParamDimension } from './units';

/** A step's clauses: the one that chose the tool (`lead`) and those that refine it. */
export interface Group {
  tool: IndexedTool;
  clauses: Clause[];
  lead: number;
  /**
   * Parameters whose value the text leaves unclear (see `dropUnclear`): nothing is carried there.
   * Each keeps the value it nearly got and the other parameter that value fits (`rival`), if the
   * doubt was between two parameters rather than two values.
   */
  unclear?: Map<string, Doubt>;
}

/** A value placed in a parameter, how well it fits, and the value to set (converted). */
export interface Placement {
  score: number;
  value: unknown;
}

const BEFORE_WINDOW = 6;
const AFTER_WINDOW = 4;
/** Context needed to place a bare word or a cell reference in a parameter it does not obviously fit. */
const STRONG_CONTEXT = 1.5;

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
function getNameContext(param: IndexedParam, context: Map<string, number>): number {
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

/**
 * Where a literal may go in `param` and how well it fits there, or null when it does not go
 * there at all (wrong kind, refused by the schema, or nothing says it belongs there).
 */
export function placeLiteral(
  index: ToolIndex,
  placed: PlacedLiteral,
  param: IndexedParam,
  context: Map<string, number>,
): Placement | null {
  const { literal } = placed;
  const { holds } = param;
  // "in Tokyo": a zone for a time-zone parameter, the city's name anywhere else.
  if (literal.kind === 'timezone' && literal.written !== undefined && !holds.timezone) {
    const city: Literal = { ...literal, kind: 'name', value: literal.written };
    return placeLiteral(index, { ...placed, literal: city }, param, context);
  }

  const fromContext = getNamingScore(param, placed, context);
  // "titled 'Release 2.1'": a title, for a parameter that holds one, not for a branch or a path.
  if (
    TITLE_MARK.test(placed.before) &&
    !/title|subject|heading|caption/i.test(`${param.name} ${param.description}`)
  )
    return null;
  // A parameter of a kind read by a library takes only a value of that kind: a time zone no
  // city name, an address no domain, a time of day no bare number.
  if (holds.timezone && literal.kind !== 'timezone') return null;
  if (holds.email && literal.kind !== 'email') return null;
  if (param.format === 'time' && literal.kind !== 'time') return null;
  if (literal.code && !CODE_PARAM.test(`${param.name} ${param.description}`)) return null;
  if ((literal.kind === 'string' || literal.kind === 'name') && !isIdentifierGiven(placed, param))
    return null;
  // "from A to B", "从 A 到 B": the words before a value say which end of a move it is.
  const role = getRoleMark(placed.before);
  if (role && param.role && role !== param.role) return null;
  const value = getPlacedValue(literal, param);
  if (value === undefined) return null;
  const inEnum = param.enum?.some((v) => sameEnumValue(v, value));
  if (param.enum && !inEnum) return null;
  if (!isAccepted(param, value)) return null;
  const isFile = literal.kind === 'url' || literal.kind === 'path';
  const fit = getKindFit(literal, param, context, fromContext, inEnum === true);
  if (!fit) return null;
  const { base } = fit;
  let { bonus } = fit;
  if (role && role === param.role) bonus += 2;
  // Something new the step creates ("Name of the new table") is named only where the clause
  // speaks of creating: "copy the table called Orders" names the table copied.
  if (holds.new && !placed.clauseCreates) bonus -= 1;
  // "把 ./Ni.cif 用 ./dpa.pt 做…", "optimise X with Y": the value the action is done to is the
  // main input; the one it is done with is not.
  if (param.main && OBJECT_MARK.test(placed.before)) bonus += 1;
  if (param.main && INSTRUMENT_MARK.test(placed.before)) bonus -= 1;
  // "… in ./svc", "在 ~/work/api 仓库里": a value after "in" says where the work happens.
  if (isFile && holds.setting && holds.path && IN_PLACE.test(placed.before)) bonus += 1;
  // What the file's own name says counts only between places for files (a `.xlsx` is not a sheet name).
  const own = isFile && holds.path ? scoreFileName(index, String(literal.value), param) : 0;
  const score =
    base +
    bonus +
    fromContext +
    own +
    (isFile && holds.path ? 1 : 0) +
    (inEnum ? 5 : 0) +
    (param.required ? 0.3 : 0);
  return { score, value };
}

/**
 * How well a literal of its kind fits a parameter before the words around it count: the base
 * score and bonus of its kind there, or null when that kind never goes there.
 */
function getKindFit(
  literal: Literal,
  param: IndexedParam,
  context: Map<string, number>,
  fromContext: number,
  inEnum: boolean,
): { base: number; bonus: number } | null {
  const { holds } = param;
  let base: number;
  let bonus = 0;
  switch (literal.kind) {
    case 'url':
    case 'path':
      if (holds.cell || holds.range || holds.date || holds.chemical || holds.sheetFormula) return null;
      if (param.stringList) base = holds.path || fromContext > 0 ? 0.8 : 0;
      else if (param.type === 'str') base = 1;
      else base = param.type === 'any' ? 0.5 : 0;
      // A file or URL goes where a path belongs, or where the words around it point; a path is
      // a path first ("save its content to /backup/hosts.txt": the path, not the content).
      if (base === 0 || (!holds.path && fromContext === 0 && param.type !== 'any')) return null;
      if (!holds.path) bonus -= 1;
      break;
    case 'string':
      if ((holds.cell || holds.range) && !param.pattern && !inEnum) return null;
      if (holds.date || holds.chemical) {
        if (fromContext < STRONG_CONTEXT) return null;
      }
      base = param.stringList ? 0.8 : param.type === 'str' ? 1 : param.type === 'any' ? 0.5 : 0;
      if (base === 0) return null;
      // A quoted word that is no path ('main') fits a path parameter only when words say so.
      if (holds.path && fromContext === 0 && !param.stringList) bonus -= 0.5;
      break;
    case 'number': {
      base = param.type === 'float' || param.type === 'int' ? 1 : param.type === 'any' ? 0.3 : 0;
      if (base === 0) return null;
      const unitFits =
        literal.unit !== undefined &&
        param.dimension !== undefined &&
        getDimension(literal.unit) === param.dimension;
      // A number with a unit goes only to a parameter of its dimension: "10 ps" is no k-point spacing.
      if (literal.unit !== undefined && !unitFits) return null;
      // A unit names the quantity ("800 K" is a temperature) — but a time or length given on its
      // own is an amount, not a step or an interval ("跑 10 ps 的分子动力学" is no time step).
      if (unitFits && (!isIncrement(param) || fromContext > 0)) bonus += STRONG_CONTEXT;
      // Numbers are too common to place without a word (or a unit) that names the parameter.
      else if (fromContext === 0 && !inEnum) return null;
      break;
    }
    case 'identifier':
    case 'name':
      if (holds.path || holds.cell || holds.range || holds.date || holds.sheetFormula) return null;
      base = param.stringList ? 0.8 : param.type === 'str' ? 1 : param.type === 'any' ? 0.5 : 0;
      if (base === 0) return null;
      if (inEnum) break;
      // A Latin word in Chinese text is a value only where the words around it say which one.
      if (literal.keepWords && literal.written === undefined && getNameContext(param, context) === 0)
        return null;
      if (holds.chemical) return null;
      // A bare word fits a name or id, or a parameter the words around it name; free text (a
      // commit message) takes a code only when its own name stands right before it.
      if (holds.text && fromContext < 3) return null;
      if (!holds.name && fromContext < STRONG_CONTEXT) return null;
      if (holds.name) bonus += 0.5;
      break;
    case 'cell':
      if (literal.chemical && holds.chemical) {
        base = 1.5;
        break;
      }
      if (holds.cell) {
        base = 1.5;
        break;
      }
      // A cell reference is no name ("A1" is not a sheet), unless the words say it is ("sheet Q2").
      if (param.type !== 'str' || holds.path || holds.range || holds.date || fromContext < STRONG_CONTEXT)
        return null;
      base = 0.5;
      break;
    case 'range':
      if (!holds.range) return null;
      base = 1.5;
      break;
    case 'formula':
      if (!holds.sheetFormula) return null;
      base = 1.5;
      break;
    case 'chemical':
      if (!holds.chemical) return null;
      base = 1.5;
      break;
    case 'date':
      // A date is no relative time or duration ("since relative time (e.g. '5s', '2m')").
      if (!holds.date || (RELATIVE_TIME.test(param.description) && !ABSOLUTE_TIME.test(param.description)))
        return null;
      base = 1.5;
      break;
    case 'vector':
      if (param.type !== 'list') return null;
      base = 1;
      break;
    case 'coordinates':
      // A point goes where a point goes: a text parameter that speaks of coordinates, or whose
      // description shows a point written the same way.
      if (param.type !== 'str' || !COORDINATE_PARAM.test(`${param.name} ${param.description}`)) return null;
      base = 1.5;
      break;
    case 'json':
      // A list written as JSON goes to a list parameter (of lists, when it holds lists).
      if (param.type !== 'list' || param.stringList) return null;
      base = 1;
      break;
    case 'glob':
      // A wildcard pattern goes where patterns go (a pattern, glob, filter or exclusion list).
      if (
        !(param.type === 'str' || param.stringList) ||
        !/pattern|glob|filter|match|exclud/i.test(`${param.name} ${param.description}`)
      )
        return null;
      base = param.stringList ? 1.2 : 1.5;
      break;
    case 'email':
      // An address goes only where addresses go (`format: email`, "recipient", to/cc/bcc).
      if (!holds.email) return null;
      base = 1.5;
      break;
    case 'time':
      if (!holds.time) return null;
      base = 1.5;
      break;
    case 'timezone':
      if (!holds.timezone) return null;
      base = 1.5;
      break;
    case 'sql':
      // An SQL statement goes where the tool asks for SQL or a query, nowhere else.
      if (param.type !== 'str' || !SQL_PARAM.test(`${param.name} ${param.description}`)) return null;
      // "SELECT SQL query to execute", "CREATE TABLE SQL statement": a parameter that names the
      // statements it takes takes no other.
      {
        const named = param.description.match(SQL_VERBS);
        const verb = String(literal.value).match(SQL_VERBS)?.[0];
        if (named && verb && !named.includes(verb)) return null;
      }
      base = 1.5;
      break;
  }
  return { base, bonus };
}

/** A parameter that holds a point on a map. */
const COORDINATE_PARAM =
  /coordinat|latitude|longitude|\blat\b|\blng\b|\blon\b|坐标|经纬|纬度|经度|-?\d{1,3}\.\d+,\s?-?\d{1,3}\.\d+/i;

/** A parameter that takes code: a script, an expression, a command. */
const CODE_PARAM = /script|code|javascript|expression|command|eval/i;

/** A parameter described as a relative time or a duration, which no date or clock time fills. */
const RELATIVE_TIME = /\brelative\b|\bduration\b|\bago\b/i;
const ABSOLUTE_TIME = /\bISO\b|\bRFC\s?3339\b|\babsolute\b|YYYY|\bdates?\b/i;

/** Words right before a value that make it the start of a move ("from", 从) or its end ("to", 到). */
const SOURCE_MARK = /(?:\b(?:from|since|after)|从|由|自)\s*$/i;
const TARGET_MARK = /(?:\b(?:to|into|until|till|before)|到|至|换算成|转换成|转成)\s*$/i;

export function getRoleMark(before: string): 'source' | 'target' | undefined {
  if (SOURCE_MARK.test(before)) return 'source';
  if (TARGET_MARK.test(before)) return 'target';
  return undefined;
}

const SQL_VERBS = /\b(?:SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER)\b/g;

/** The words right before a value that say it is a title. */
const TITLE_MARK = /(?:\b(?:titled|entitled|with (?:the )?title)|标题(?:为|是)?)\s*$/i;

/** A parameter that takes SQL: its name or description says SQL, query or statement. */
const SQL_PARAM = /\b(?:sql|query|statement)\b/i;

/** The words right before a value that mark it as what the action is done to (把, 对, 将). */
const OBJECT_MARK = /(?:把|对|将)\s*$/;
/** The words right before a value that mark it as what the action is done with. */
const INSTRUMENT_MARK =
  /(?:\b(?:with|using|via|by)(?: the)?(?: model| potential| tool)?|用|使用|采用|利用)\s*$/i;

/** The words right before a value that say it is where something happens. */
const IN_PLACE = /(?:\b(?:in|inside|within|under)|在)\s*$/i;

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

/** A parameter that holds an identifier: `calendarId`, `event_id`, `id`, "List of calendar IDs". */
const ID_NAME = /(?:^ids?|[a-z0-9]Ids?|_ids?)$/;
const ID_DESCRIPTION =
  /^(?:(?:[Tt]he|[Aa]n?|[Ll]ist of|[Oo]ne or more)\s+)?(?:[\w-]+\s+){0,2}(?:IDs?|[Ii]dentifiers?(?:\(s\))?)\b/;

export function isIdentifierParam(param: IndexedParam): boolean {
  return ID_NAME.test(param.name) || ID_DESCRIPTION.test(param.description);
}

/** What an identifier parameter identifies: `calendarId` → calendar, "List of calendar IDs" → calendar. */
export function getIdentifiedThing(param: IndexedParam): string | undefined {
  const named = param.name
    .replace(/_?ids?$/i, '')
    .split(/_|(?=[A-Z])/)
    .pop();
  if (ID_NAME.test(param.name) && named) return named.toLowerCase();
  // A bare `id` says what it identifies in its description: "Note id", "ID of the queue".
  const m =
    /([\p{L}\w-]+)\s+(?:IDs?|ids?|[Ii]dentifiers?(?:\(s\))?)\b/u.exec(param.description.slice(0, 60)) ??
    /\b(?:IDs?|ids?|[Ii]dentifiers?)\s+of\s+(?:the\s+|a\s+)?([\w-]+)/.exec(param.description.slice(0, 60));
  return m ? m[1].toLowerCase() : undefined;
}

/**
 * An identifier is a code the text gives as one: a quoted title or a name is an identifier only
 * right after the word for the thing it identifies or the word "id" ("calendar 'team'", "event
 * id 'x7'"), never with a space in it (an id has none), and not after a verb that creates the
 * thing unless "id" is said ("create an event 'Postmortem'": a title; the id is made for it).
 */
function isIdentifierGiven(placed: PlacedLiteral, param: IndexedParam): boolean {
  if (!isIdentifierParam(param) || param.enum) return true;
  const value = String(placed.literal.value);
  if (/\s/.test(value)) return false;
  const thing = getIdentifiedThing(param);
  // "删除记录 'r-17'": the Chinese word right before the value, read in English.
  const run = /[\p{Script=Han}]+\s*$/u.exec(
    placed.before.replace(/\s*(?:ID|id|编号|标识)?\s*[:：=]?\s*$/u, ''),
  );
  if (run && thing !== undefined) {
    const last = findChineseWords(run[0].trim()).pop();
    if (last && last.at + last.word.length === run[0].trim().length && last.english.some((e) => e === thing))
      return true;
  }
  const words = placed.before
    .toLowerCase()
    .replace(/\b(?:named|called|with|of)\s*$|[:=#'"“‘]\s*$/g, '')
    .trim()
    .split(/\s+/);
  const last = words.pop() ?? '';
  if (last === param.name.toLowerCase()) return true;
  // "event id 'x7'", "with ID 'x7'": the text names the value an identifier.
  if (/^(?:id|ids|identifier)$/.test(last)) return true;
  // "create an event 'Postmortem'": the quoted word names what is made; its id is made for it.
  if (CREATE_BEFORE.test(placed.before)) return false;
  return thing !== undefined && isThing(last, thing);
}

/** A verb that makes the thing named after it ("create an event", "新建日程"). */
const CREATE_BEFORE = /\b(?:create|add|make|new|open|schedule|set\s+up|insert)\b|创建|新建|添加|新增/i;

function isThing(word: string, thing: string): boolean {
  return word.replace(/s$/, '') === thing.replace(/s$/, '');
}

/** Words that say a parameter is a step, interval or tolerance of a quantity, not the quantity. */
const INCREMENT_WORDS = /step|interval|spacing|increment|toleran|resolution|delta|frequen|every/i;

function isIncrement(param: IndexedParam): boolean {
  return INCREMENT_WORDS.test(param.name) || INCREMENT_WORDS.test(param.description);
}

/** The value a literal gives `param` (a number converted to the parameter's unit), or undefined. */
function getPlacedValue(literal: Literal, param: IndexedParam): unknown {
  if (literal.kind === 'number') {
    const n = literal.value as number;
    if (literal.unit !== undefined && param.unit !== undefined)
      return convertUnit(n, literal.unit, param.unit);
    return n;
  }
  if (literal.kind === 'vector') {
    const items = literal.value as number[];
    if (param.itemType !== 'integer' && param.itemType !== 'number') return undefined;
    if (param.itemType === 'integer' && !items.every(Number.isInteger)) return undefined;
    if (param.minItems !== undefined && items.length < param.minItems) return undefined;
    if (param.maxItems !== undefined && items.length > param.maxItems) return undefined;
    return items;
  }
  if (param.stringList) return literal.value;
  return literal.value;
}

/** Whether the schema accepts the value: type, pattern and bounds. */
export function isAccepted(param: IndexedParam, value: unknown): boolean {
  if (typeof value === 'number') {
    if (param.type === 'int' && !Number.isInteger(value)) return false;
    if (param.type !== 'int' && param.type !== 'float' && param.type !== 'any') return false;
    if (param.minimum !== undefined && value < param.minimum) return false;
    if (param.maximum !== undefined && value > param.maximum) return false;
    if (param.exclusiveMinimum !== undefined && value <= param.exclusiveMinimum) return false;
    if (param.exclusiveMaximum !== undefined && value >= param.exclusiveMaximum) return false;
    return true;
  }
  if (typeof value === 'string') {
    if (param.type !== 'str' && param.type !== 'any' && !param.stringList) return false;
    // A value the pattern could not be checked against in time is not placed there either.
    if (param.pattern && !param.stringList && param.pattern.match(value) !== true) return false;
    // An item of a list meets the items' own pattern and enum ("key=value" filters, field names).
    if (param.stringList && param.itemPattern && param.itemPattern.match(value) !== true) return false;
    if (param.stringList && param.itemEnum && !param.itemEnum.some((v) => sameEnumValue(v, value)))
      return false;
    if (param.holds.cell && !isCellReference(value)) return false;
    if (param.holds.range && !isRangeReference(value)) return false;
    return true;
  }
  return Array.isArray(value);
}

export function sameEnumValue(enumValue: unknown, value: unknown): boolean {
  if (enumValue === value) return true;
  return typeof enumValue === 'string' && typeof value === 'string' && compact(enumValue) === compact(value);
}

/** "rock salt", "rock-salt" and "rocksalt" are one enum value. */
function compact(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, '');
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

// ---- one step's arguments ----

/** Fill a step's arguments from the values and words of its clauses (see the module comment). */
export function fillArguments(
  index: ToolIndex,
  group: Group,
  notes: string[],
  shared: readonly Clause[] = [],
): Record<string, unknown> {
  // No prototype while the args are filled: parameter names are the tool's own strings, and
  // "constructor" must read as unset, "__proto__" be set as a member (plan() copies the args
  // into a plain object at the end).
  const args: Record<string, unknown> = Object.create(null);
  const params = group.tool.params;
  const used = new Set<PlacedLiteral>();
  // Values of `shared` clauses (another step's) go only where they fit; unused, they say nothing.
  const all = [...group.clauses, ...shared].flatMap((clause) =>
    clause.literals.map((placed, i) => ({ clause, placed, i })),
  );
  const borrowed = new Set(shared.flatMap((c) => c.literals));

  setAsideAlternatives(all, used, notes);
  fillPatternLists(index, params, all, args, used, notes);
  splitRanges(
    group.tool,
    all.map((a) => a.placed),
    args,
    used,
  );

  fillSpans(index, params, all, args, used);
  fillReplacements(params, all, args, used);
  splitOwnerRepo(
    params,
    all.map((a) => a.placed),
    args,
    used,
  );

  const pairs: {
    literal: PlacedLiteral;
    param: IndexedParam;
    score: number;
    value: unknown;
    order: number;
  }[] = [];
  all.forEach(({ clause, placed, i }, order) => {
    if (used.has(placed)) return;
    const context = getContext(index, clause, i);
    const kind = getKindNoun(params, placed);
    for (const param of params) {
      const placement = placeLiteral(index, placed, param, context);
      if (!placement) continue;
      // "pod worker-5c", "deployment ledger": a value after the kind of thing it is, where the
      // tool takes that kind, is the thing's name.
      if (kind && NAME_PARAM.test(param.name)) placement.score += 3;
      pairs.push({ literal: placed, param, order, ...placement });
    }
  });
  // Greedy by score: the best literal-parameter match first, each used once.
  pairs.sort(
    (a, b) => b.score - a.score || a.order - b.order || params.indexOf(a.param) - params.indexOf(b.param),
  );
  const chosen: typeof pairs = [];
  const listed: typeof pairs = [];
  for (const pair of pairs) {
    if (used.has(pair.literal)) continue;
    const current = args[pair.param.name];
    // A list that already holds a value takes another only if no empty parameter fits it as well
    // ("rows by 'Region' and the sum of 'Amount'": Amount goes to values, not rows).
    if (
      pair.param.stringList &&
      current !== undefined &&
      pairs.some(
        (other) =>
          other.literal === pair.literal &&
          other.param !== pair.param &&
          other.score >= pair.score - 1e-9 &&
          !(other.param.name in args),
      )
    )
      continue;
    if (pair.param.stringList) {
      // Every value whose best place is this list goes in it ("stage 'a.ts' and 'b.ts'").
      if (current !== undefined && !Array.isArray(current)) continue;
      args[pair.param.name] = [...((current as unknown[] | undefined) ?? []), pair.value];
      listed.push(pair);
    } else if (current !== undefined) continue;
    else {
      args[pair.param.name] = pair.value;
      chosen.push(pair);
    }
    used.add(pair.literal);
  }
  improveBySwaps(chosen, pairs, args);
  group.unclear = dropUnclear(group.tool, chosen, listed, pairs, borrowed, args);
  // "the literals A=1 and B=2": an item joined to a list's items takes the list's name with it.
  for (const { placed } of all) {
    if (used.has(placed) || borrowed.has(placed)) continue;
    const list = listed.find(
      (l) =>
        l.literal.literal.kind === placed.literal.kind &&
        placeLiteral(index, placed, l.param, new Map([...l.param.nameTokens].map((t) => [t, 1]))) !== null,
    );
    if (!list || !Array.isArray(args[list.param.name])) continue;
    (args[list.param.name] as unknown[]).push(placed.literal.value);
    used.add(placed);
  }
  fillOrdinals(
    params,
    all.map((a) => a.placed),
    args,
    used,
  );
  fillObjectItems(index, params, all, args, used);
  fillRelations(group.tool, group.clauses, args, used);
  fillNamedItems(group.tool, group.clauses, args, used, notes);
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
  for (const { placed } of all) {
    if (used.has(placed) || borrowed.has(placed)) continue;
    if (placed.literal.keepWords || placed.literal.kind === 'identifier') continue;
    if (params.some((p) => p.enum?.some((v) => sameEnumValue(v, placed.literal.value)))) continue;
    notes.push(
      `The value ${JSON.stringify(placed.literal.value)} matched no parameter of ${group.tool.declaration.name}; set it by hand if it matters.`,
    );
  }
  return args;
}

/** What joins one pattern of a list to the next ("src/** and docs/**", "a/**, b/**"). */
const LIST_JOIN = /^\s*(?:,|and|、|和|以及|及)?\s*$/i;
/** A text parameter that says it takes several values separated by commas. */
const COMMA_LIST = /comma[- ]separated|separated by commas?|逗号分隔|用逗号/i;

/**
 * "including only src/** and docs/**": patterns listed together belong to the one parameter the
 * words before the first one name; none of them goes to another parameter. They fill a list
 * parameter as its items, or a text parameter that says it takes a comma-separated list as that
 * list; any other parameter cannot hold them all, so they are left for the person, with a note.
 */
function fillPatternLists(
  index: ToolIndex,
  params: IndexedParam[],
  all: readonly { clause: Clause; placed: PlacedLiteral; i: number }[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
  notes: string[],
): void {
  for (let k = 0; k < all.length; k++) {
    const first = all[k];
    if (first.placed.literal.kind !== 'glob' || used.has(first.placed)) continue;
    const run = [first];
    for (let n = k + 1; n < all.length; n++) {
      const next = all[n];
      const prev = run[run.length - 1];
      if (next.placed.literal.kind !== 'glob' || used.has(next.placed)) break;
      // The next pattern joins the list in the same clause, or is a clause of its own that a
      // bare "and" cut off ("including only src/**" | "docs/**").
      const sameClause = next.clause === prev.clause && LIST_JOIN.test(next.placed.before);
      const ownClause =
        next.clause !== prev.clause &&
        next.clause.literals.length === 1 &&
        next.clause.text.trim() === String(next.placed.literal.value) &&
        prev.clause.literals[prev.clause.literals.length - 1] === prev.placed;
      if (!sameClause && !ownClause) break;
      run.push(next);
    }
    if (run.length < 2) continue;
    const context = getContext(index, first.clause, first.i);
    let best: { param: IndexedParam; score: number } | undefined;
    for (const param of params) {
      if (param.name in args) continue;
      const placement = placeLiteral(index, first.placed, param, context);
      if (placement && (!best || placement.score > best.score)) best = { param, score: placement.score };
    }
    const values = run.map((r) => String(r.placed.literal.value));
    if (best && best.param.stringList) args[best.param.name] = values;
    else if (best && best.param.type === 'str' && COMMA_LIST.test(best.param.description))
      args[best.param.name] = values.join(',');
    else
      notes.push(
        `The patterns ${values.map((v) => JSON.stringify(v)).join(', ')} go together, but no parameter takes them all; set them by hand.`,
      );
    for (const r of run) used.add(r.placed);
    k += run.length - 1;
  }
}

/** The word between two alternatives ("2 or 3", "A 或 B", "A 还是 B"). */
const ALTERNATIVE_JOIN = /^\s*(?:or|either|或者?|还是)\s*$/i;

/**
 * "for 2 or 3 adults": two values of one kind offered as alternatives give the parameter no one
 * value. Neither is placed, and a note says what to choose.
 */
function setAsideAlternatives(
  all: readonly { clause: Clause; placed: PlacedLiteral }[],
  used: Set<PlacedLiteral>,
  notes: string[],
): void {
  for (let k = 0; k + 1 < all.length; k++) {
    const a = all[k];
    const b = all[k + 1];
    if (a.clause !== b.clause || a.placed.literal.kind !== b.placed.literal.kind) continue;
    if (!ALTERNATIVE_JOIN.test(b.placed.before)) continue;
    if (used.has(a.placed) || used.has(b.placed)) continue;
    used.add(a.placed);
    used.add(b.placed);
    notes.push(
      `The task gives ${JSON.stringify(a.placed.literal.value)} or ${JSON.stringify(b.placed.literal.value)}; choose one and set it by hand.`,
    );
  }
}

/**
 * Greedy placement takes the single best pair first, which can cost more than it gains: "把
 * ./Ni.cif 用 ./dpa.pt 做结构弛豫" — the model file, with 结构 right after it, edges out the
 * structure for `input_structure`, and the structure lands in `model_path`. Swap two values when
 * each fits the other's parameter and together they fit better.
 */
function improveBySwaps(
  chosen: { literal: PlacedLiteral; param: IndexedParam; score: number; value: unknown }[],
  pairs: readonly { literal: PlacedLiteral; param: IndexedParam; score: number; value: unknown }[],
  args: Record<string, unknown>,
): void {
  const find = (literal: PlacedLiteral, param: IndexedParam) =>
    pairs.find((p) => p.literal === literal && p.param === param);
  for (let changed = true, rounds = 0; changed && rounds < 10; rounds++) {
    changed = false;
    for (let i = 0; i < chosen.length; i++) {
      for (let j = i + 1; j < chosen.length; j++) {
        const a = chosen[i];
        const b = chosen[j];
        const aToB = find(a.literal, b.param);
        const bToA = find(b.literal, a.param);
        if (!aToB || !bToA || aToB.score + bToA.score <= a.score + b.score + 1e-9) continue;
        chosen[i] = bToA;
        chosen[j] = aToB;
        args[bToA.param.name] = bToA.value;
        args[aToB.param.name] = aToB.value;
        changed = true;
      }
    }
  }
}

/**
 * A range given to a tool that takes its two corners ("A1:D1" for `start_cell`/`end_cell`):
 * the first corner goes to the parameter that starts the range, the second to the one that ends it.
 */
function splitRanges(
  tool: IndexedTool,
  literals: PlacedLiteral[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  const corners = getRangeCorners(tool);
  if (!corners) return;
  const range = literals.find((l) => l.literal.kind === 'range' && !used.has(l));
  if (!range || corners.start.name in args || corners.end.name in args) return;
  const [from, to] = String(range.literal.value).split(':');
  args[corners.start.name] = from;
  args[corners.end.name] = to;
  used.add(range);
}

/** Words before the first number of a span ("from 0.9", "between 300", "从 0"). */
const SPAN_START = /(?:\b(?:from|between)|从|由)\s*$/i;
/** Words between the two ends ("to", "-", "and" after between, 到). */
const SPAN_JOIN = /^\s*(?:to|through|-|–|~|and|到|至)\s*$/i;
/** Words before a step ("in steps of 10 K", "step 5", "步长 10"). */
const SPAN_STEP =
  /^\s*[,，]?\s*(?:(?:in|with|at)\s+(?:a\s+)?steps?\s+of|steps?(?:\s+of)?|every|步长为?|间隔为?|每)\s*$/i;

/**
 * "volumes from 0.9 to 1.1", "from 0 to 1000 K in steps of 10 K", "从 300 到 900 K": two ends
 * (and a step) of a span, for a list of numbers the words around the span name, or whose unit
 * the span's unit measures. The list must take that many items.
 */
function fillSpans(
  index: ToolIndex,
  params: IndexedParam[],
  all: { clause: Clause; placed: PlacedLiteral; i: number }[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  const isNumber = (k: number) => all[k]?.placed.literal.kind === 'number' && !used.has(all[k].placed);
  for (let k = 0; k + 1 < all.length; k++) {
    const a = all[k];
    const b = all[k + 1];
    if (!isNumber(k) || !isNumber(k + 1) || a.clause !== b.clause) continue;
    if (!SPAN_START.test(a.placed.before) || !SPAN_JOIN.test(b.placed.before)) continue;
    const c =
      isNumber(k + 2) && all[k + 2].clause === a.clause && SPAN_STEP.test(all[k + 2].placed.before)
        ? all[k + 2]
        : undefined;
    const ends = c ? [a, b, c] : [a, b];
    const units = ends.map((e) => e.placed.literal.unit).filter((u): u is string => u !== undefined);
    const context = getContext(index, a.clause, a.i);
    for (const param of params) {
      if (param.type !== 'list' || param.name in args) continue;
      if (param.itemType !== 'number' && param.itemType !== 'integer') continue;
      if ((param.minItems ?? 0) > ends.length || (param.maxItems ?? Infinity) < ends.length) continue;
      const dimension = getParamDimension(param.name, param.description);
      const unitFits =
        units.length > 0 && dimension !== undefined && units.every((u) => getDimension(u) === dimension);
      if (units.length > 0 && !unitFits) continue;
      if (!unitFits && getNamingScore(param, a.placed, context) === 0) continue;
      const to = getDescribedUnit(param.description);
      const values = ends.map((e) => {
        const n = e.placed.literal.value as number;
        const unit = e.placed.literal.unit ?? units[0];
        return unit !== undefined && to !== undefined ? convertUnit(n, unit, to) : n;
      });
      if (values.some((v) => v === undefined || (param.itemType === 'integer' && !Number.isInteger(v))))
        continue;
      args[param.name] = values;
      for (const e of ends) used.add(e.placed);
      break;
    }
  }
}

/** Words before what is replaced, and between it and its replacement. */
const REPLACE_START = /(?:\b(?:replace|change|swap)|把|将)\s*$/i;
const REPLACE_JOIN = /^\s*(?:with|by|for|->|→|to|替换为|替换成|改为|改成|换成|换为)\s*$/i;

/**
 * "replace 'debug=true' with 'debug=false'", "把 `a` 替换为 `b`": one item of a list of objects
 * whose two text fields are the old and the new text (oldText/newText, search/replace, from/to).
 */
function fillReplacements(
  params: IndexedParam[],
  all: { clause: Clause; placed: PlacedLiteral; i: number }[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  for (const param of params) {
    if (!param.fields || param.name in args) continue;
    const text = param.fields.filter((f) => f.type === 'str');
    const old = text.find((f) => /^(?:old|from|search|find|original|before)/i.test(f.name));
    const neu = text.find((f) => /^(?:new|to|replace|after)/i.test(f.name));
    if (!old || !neu || param.fields.some((f) => f.required && f !== old && f !== neu)) continue;
    for (let k = 0; k + 1 < all.length; k++) {
      const a = all[k].placed;
      const b = all[k + 1].placed;
      if (!a.literal.quoted || !b.literal.quoted || used.has(a) || used.has(b)) continue;
      if (!REPLACE_START.test(a.before) || !REPLACE_JOIN.test(b.before)) continue;
      args[param.name] = [{ [old.name]: String(a.literal.value), [neu.name]: String(b.literal.value) }];
      used.add(a);
      used.add(b);
      break;
    }
  }
}

/**
 * `octo-org/widgets` given to a tool that takes an `owner` and a `repo`: the way GitHub and its
 * kin write a repository, owner first.
 */
function splitOwnerRepo(
  params: IndexedParam[],
  literals: PlacedLiteral[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  const owner = params.find((p) => /^owner$/i.test(p.name) && p.type === 'str');
  const repo = params.find((p) => /^(?:repo|repository|repo_name)$/i.test(p.name) && p.type === 'str');
  if (!owner || !repo || owner.name in args || repo.name in args) return;
  const slugs = literals.filter(
    (l) =>
      !used.has(l) &&
      (l.literal.kind === 'identifier' || l.literal.kind === 'path' || l.literal.kind === 'string') &&
      /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(String(l.literal.value)),
  );
  // Where there are several (a branch `release/2.1` and the repository), the one the words call
  // a repository or place ("in acme/api", "of torvalds/linux", "在 vuejs/core 仓库").
  const slug = slugs.length === 1 ? slugs[0] : slugs.find((l) => REPOSITORY_MARK.test(l.before.slice(-24)));
  if (!slug) return;
  const [ownerName, repoName] = String(slug.literal.value).split('/');
  args[owner.name] = ownerName;
  args[repo.name] = repoName;
  used.add(slug);
}

const REPOSITORY_MARK = /(?:\b(?:in|of|on|to|at|for|repo|repository)|在)\s*$/i;

/** The cell parameters that start and end a range, for a tool that takes no range itself. */
export function getRangeCorners(tool: IndexedTool): { start: IndexedParam; end: IndexedParam } | undefined {
  if (tool.params.some((p) => p.holds.range)) return undefined;
  const cells = tool.params.filter((p) => p.holds.cell);
  const start = cells.find(
    (p) => /^(?:start|first|from|begin|top)/i.test(p.name) || /^(?:start|first)/i.test(p.description),
  );
  const end = cells.find(
    (p) => /^(?:end|last|to|stop|bottom)/i.test(p.name) || /^(?:end|last)/i.test(p.description),
  );
  return start && end ? { start, end } : undefined;
}

/** "Add 17 and 25": numbers nothing else claims fill parameters described as first, second, … in order. */
function fillOrdinals(
  params: IndexedParam[],
  literals: PlacedLiteral[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  const slots = params
    .filter((p) => p.ordinal !== undefined && !(p.name in args) && (p.type === 'float' || p.type === 'int'))
    .sort((a, b) => a.ordinal! - b.ordinal!);
  const numbers = literals.filter(
    (l) => l.literal.kind === 'number' && l.literal.unit === undefined && !used.has(l),
  );
  if (slots.length < 2 || numbers.length !== slots.length) return;
  if (!slots.every((slot, i) => slot.ordinal === i + 1 && isAccepted(slot, numbers[i].literal.value))) return;
  slots.forEach((slot, i) => {
    args[slot.name] = numbers[i].literal.value;
    used.add(numbers[i]);
  });
}

/**
 * A list of objects filled with one item when the text gives a value for every required field
 * of it, each placed by the words around it ("an entity named 'Alice' of type 'person' with the
 * observation 'likes green tea'"). Anything less is left to the person.
 */
function fillObjectItems(
  index: ToolIndex,
  params: IndexedParam[],
  all: { clause: Clause; placed: PlacedLiteral; i: number }[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  for (const param of params) {
    if (!param.fields || param.name in args) continue;
    const pairs: { literal: PlacedLiteral; field: IndexedParam; score: number; value: unknown }[] = [];
    for (const { clause, placed, i } of all) {
      if (used.has(placed)) continue;
      const context = getContext(index, clause, i);
      for (const field of param.fields) {
        // Inside an object every field needs words that name it: no kind alone says which.
        if (getNamingScore(field, placed, context) === 0 && !field.enum) continue;
        const placement = placeLiteral(index, placed, field, context);
        if (placement) pairs.push({ literal: placed, field, ...placement });
      }
    }
    pairs.sort((a, b) => b.score - a.score);
    const item: Record<string, unknown> = {};
    const taken = new Set<PlacedLiteral>();
    for (const pair of pairs) {
      if (taken.has(pair.literal) || pair.field.name in item) continue;
      item[pair.field.name] = pair.field.stringList ? [pair.value] : pair.value;
      taken.add(pair.literal);
    }
    if (param.fields.some((f) => f.required && !(f.name in item)) || Object.keys(item).length === 0) continue;
    const order = param.fields.map((f) => f.name);
    args[param.name] = [
      Object.fromEntries(Object.entries(item).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))),
    ];
    for (const literal of taken) used.add(literal);
  }
}

// ---- booleans and enums named in words ----

/** How many words apart the words of a parameter's name may stand, in either order, and still
 * read as one phrase ("relax the cell", "晶胞也一起优化"). */
const PHRASE_SPAN = 5;
/** Words of a boolean's name that say nothing about what it switches ("include_images" → images). */
const GENERIC_BOOLEAN_WORDS = new Set([
  'whether',
  'enabl',
  'flag',
  'should',
  'allow',
  'toggl',
  'option',
  'includ',
  'us',
]);
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
  'exclud',
]);
/** Words that say the thing a switch acts on stays as it is ("keep the cell fixed": relax_cell false). */
const KEPT_WORDS = new Set([
  'fix',
  'frozen',
  'freez',
  'unchang',
  'constant',
  'keep',
  'fixed',
  '固定',
  '不变',
  '保持',
]);
/** Chinese negation words right before a phrase ("不优化晶胞", "无需…", "不要…"). */
const CHINESE_NEGATION = /(?:不要|不用|无需|不必|禁止|关闭|没有|不|别|勿|无)$/;

/** A boolean parameter named in a group's clauses (see `readBoolean`). */
export function findBoolean(group: Group, param: IndexedParam): boolean | undefined {
  for (const clause of group.clauses) {
    const value = readBoolean(clause, param);
    if (value !== undefined) return value;
  }
  return undefined;
}

/**
 * A boolean parameter named in a clause: "relax the cell" / "优化晶胞" → true, "do not relax the
 * cell" / "不优化晶胞" / "keeping the cell fixed" → false, not mentioned → undefined. The words of
 * the parameter's name (a Chinese phrase counts through its English words) must stand together;
 * else a run of three or more Chinese characters shared with the parameter's description.
 */
export function readBoolean(clause: Clause, param: IndexedParam): boolean | undefined {
  const keyTokens = [...param.nameTokens].filter((t) => !GENERIC_BOOLEAN_WORDS.has(t));
  if (keyTokens.length > 0) {
    const keys = clause.tokens.filter((t) => keyTokens.includes(t.token));
    // Where the words stand together, in either order ("Relax ./Si.cif … without relaxing the
    // cell": the second "relax"; "晶胞也一起优化": cell, then optimise).
    const together = keys.find((anchor) =>
      keyTokens.every((k) =>
        keys.some((t) => t.token === k && t.word >= anchor.word && t.word <= anchor.word + PHRASE_SPAN),
      ),
    );
    if (together) {
      const phrase = keys.filter((t) => t.word >= together.word && t.word <= together.word + PHRASE_SPAN);
      const negated =
        phrase.some((t) => t.negated) ||
        clause.tokens.some(
          (t) => t.word < together.word && t.word >= together.word - 3 && NEGATORS.has(t.token),
        );
      return !negated;
    }
    // "keeping the cell fixed": the object of the switch named with a word that says it stays.
    const object = keyTokens.slice(1);
    if (keyTokens.length >= 2 && object.every((k) => keys.some((t) => t.token === k))) {
      const at = Math.min(...keys.filter((t) => object.includes(t.token)).map((t) => t.word));
      if (clause.tokens.some((t) => KEPT_WORDS.has(t.token) && Math.abs(t.word - at) <= 3)) return false;
    }
  }
  const shared = findSharedChinese(clause.prose, param.description.replace(/是否/g, ' '));
  if (shared) return !CHINESE_NEGATION.test(clause.prose.slice(Math.max(0, shared.at - 2), shared.at));
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

/** Words that say how much rather than what kind. */
const QUANTIFIERS = new Set(['all', 'none', 'any', 'some', 'each', 'every', 'both', 'half']);

/**
 * An enum value the clauses name: spelled out ("NVT ensemble", "rock salt"), or by a word that
 * stands for it ("averaged" → mean, 折线图 → line). The first clause that names one decides.
 */
export function findEnumValue(clauses: Clause[], values: unknown[]): unknown {
  for (const clause of clauses) {
    const prose = clause.text.toLowerCase();
    for (const value of values) {
      if (typeof value !== 'string' || value.length < 2) continue;
      const needle = value.toLowerCase();
      const at = prose.indexOf(needle);
      if (at !== -1) {
        const before = prose[at - 1] ?? ' ';
        const after = prose[at + needle.length] ?? ' ';
        const boundary = (c: string) => !/[a-z0-9_]/.test(c);
        // A quantifier inside a hyphenated compound is part of another word: "all-day" does not
        // say "all" (while "pie-chart" does say "pie").
        const compound =
          QUANTIFIERS.has(needle) &&
          ((before === '-' && /[a-z0-9]/.test(prose[at - 2] ?? ' ')) ||
            (after === '-' && /[a-z0-9]/.test(prose[at + needle.length + 1] ?? ' ')));
        if (isCjk(needle[0]) || (boundary(before) && boundary(after) && !compound)) return value;
      }
      // Spelled with spaces or hyphens ("rock salt", "zinc-blende").
      if (needle.length >= 6 && compact(prose).includes(compact(needle)) && !prose.includes(needle)) {
        // The value is the tool's, not ours: its characters are literals, and the check is
        // linear (a value such as "a------b" made a backtracking engine take exponential time).
        const spaced = compileLinearPattern(`\\b${[...needle].map(escapeRegExp).join('[\\s_-]?')}\\b`);
        if (spaced.ok && spaced.matcher.match(prose) === true) return value;
      }
    }
    for (const token of clause.tokens) {
      const meant = ENUM_SYNONYMS[token.token];
      if (!meant) continue;
      const value = values.find((v) => typeof v === 'string' && meant.includes(v.toLowerCase()));
      if (value !== undefined) return value;
    }
    for (const [word, meant] of Object.entries(ENUM_SYNONYMS)) {
      if (!isCjk(word[0]) || !clause.prose.includes(word)) continue;
      const value = values.find((v) => typeof v === 'string' && meant.includes(v.toLowerCase()));
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
