/**
 * Where one value may go: a literal of a kind fits only parameters that hold that kind and whose
 * schema admits it, and values too common to place by kind alone (numbers, bare words) only where
 * the words around them name the parameter. The score orders the candidates; null means never.
 */
import type { PlacedLiteral } from './clauses';
import { getNamingScore, getNameContext, getRoleMark } from './context';
import { getPlacedValue, isAccepted, sameEnumValue } from './accept';
import { isIdentifierGiven, isIdentifierParam } from './identifiers';
import type { Literal, LiteralKind } from './literals';
import { stemWord, tokenSet } from './text';
import { GENERIC_PORT_WORDS, type IndexedParam, type ParamHolds, type ToolIndex } from './tool-index';
import { getDimension } from './units';

/** A value placed in a parameter, how well it fits, and the value to set (converted). */
export interface Placement {
  score: number;
  value: unknown;
}

/** Context needed to place a bare word or a cell reference in a parameter it does not obviously fit. */
const STRONG_CONTEXT = 1.5;

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
  // The id of a file ("ID of the Repomix output file") takes a code only where the text names
  // the thing it identifies ("output 8f3c2a1b"): a path parameter takes no other bare code.
  if (literal.kind === 'identifier' && holds.path && !isIdentifierGiven(placed, param)) return null;
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
  // A kind read whole (an address, a clock time, a zone, a range, a formula) goes only where the
  // parameter holds that kind (`format: email`, "recipient", to/cc/bcc; `format: time`; …).
  const held = HELD_KIND[literal.kind];
  if (held) return holds[held] ? { base: 1.5, bonus: 0 } : null;
  let base: number;
  let bonus = 0;
  switch (literal.kind) {
    case 'url':
    case 'path':
      if (holds.cell || holds.range || holds.date || holds.chemical || holds.sheetFormula) return null;
      // "map docs.stripe.com": a bare host is no URL; a parameter that takes a URL gets one only
      // when the text writes it whole, with its scheme (the person is told, see values.ts).
      if (literal.kind !== 'url' && takesFullUrl(param)) return null;
      // One URL, one parameter: where a tool also takes a URL to deliver to (a webhook, a
      // callback), that one is set only when the text names it ("on https://…" is the page).
      if (DELIVERY_PARAM.test(param.name) && fromContext === 0) return null;
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
      base = getTextBase(param);
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
      // "最多解析 30 页", "200 urls": a count of things goes only where those things are counted.
      if (literal.counted !== undefined && !countsThings(param, literal.counted)) return null;
      // A unit names the quantity ("800 K" is a temperature) — but a time or length given on its
      // own is an amount, not a step or an interval ("跑 10 ps 的分子动力学" is no time step).
      if (unitFits && (!isIncrement(param) || fromContext > 0)) bonus += STRONG_CONTEXT;
      // Numbers are too common to place without a word (or a unit) that names the parameter.
      else if (fromContext === 0 && !inEnum) return null;
      break;
    }
    case 'identifier':
    case 'name':
      // An identifier parameter holds an id, even one described as the id of a file.
      if (
        (holds.path && !isIdentifierParam(param)) ||
        holds.cell ||
        holds.range ||
        holds.date ||
        holds.sheetFormula
      )
        return null;
      base = getTextBase(param);
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
    default:
      return null;
  }
  return { base, bonus };
}

/** How well a word or text fits a parameter by its type alone: text, a list of texts, or anything. */
function getTextBase(param: IndexedParam): number {
  return param.stringList ? 0.8 : param.type === 'str' ? 1 : param.type === 'any' ? 0.5 : 0;
}

/** Kinds that go to a parameter exactly when it holds them. exactly when it holds them. */
const HELD_KIND: Partial<Record<LiteralKind, keyof ParamHolds>> = {
  range: 'range',
  formula: 'sheetFormula',
  chemical: 'chemical',
  email: 'email',
  time: 'time',
  timezone: 'timezone',
};

/** A parameter that holds a point on a map. */
const COORDINATE_PARAM =
  /coordinat|latitude|longitude|\blat\b|\blng\b|\blon\b|坐标|经纬|纬度|经度|-?\d{1,3}\.\d+,\s?-?\d{1,3}\.\d+/i;

/** A parameter that takes code: a script, an expression, a command. */
/** A URL to deliver results or notices to, not the page the tool works on. */
const DELIVERY_PARAM = /webhook|callback|hook(?:url|uri)?$|notif|redirect|postback/i;

/**
 * Whether a parameter takes only a whole URL (scheme included): its schema's `format` says so, or
 * it is named a URL (`url`, `pageUrl`) and its description says nothing of files or paths.
 */
export function takesFullUrl(param: IndexedParam): boolean {
  if (param.format !== undefined) return /^(?:uri|url|iri)$/i.test(param.format);
  const last =
    param.name
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .split(/[\s_-]+/)
      .at(-1) ?? '';
  return (
    /^(?:url|uri)s?$/i.test(last) && !/\b(?:file|path|director(?:y|ies)|folder)/i.test(param.description)
  );
}

/**
 * A web host written without its scheme (`docs.stripe.com`, `example.org/blog`): not a URL to
 * set, but it says the text speaks of a site. Three labels or more, or a common top-level domain
 * (two labels alone could be a file: `data.csv`).
 */
export function isBareHost(literal: Literal): boolean {
  if (literal.kind !== 'path' || typeof literal.value !== 'string') return false;
  const host = /^([a-z0-9-]+(?:\.[a-z0-9-]+)+)(?:\/\S*)?$/i.exec(literal.value)?.[1];
  if (!host || !/\.[a-z]{2,}$/i.test(host)) return false;
  return host.split('.').length >= 3 || /\.(?:com|org|net|io|dev|app|edu|gov|info)$/i.test(host);
}

/** Words of a parameter that say it counts something, whatever the things are. */
const COUNT_WORDS = new Set(
  'max maximum min minimum limit count num number k n top total size amount most least result item'.split(
    ' ',
  ),
);

/**
 * Whether a count of `things` (the noun after the number: "page", "result") may go to `param`:
 * its name or description names those things, or every word of its name is a bare count
 * (`limit`, `k`, `maxResults`: what a tool returns). `maxAge` counts no pages.
 */
function countsThings(param: IndexedParam, things: string): boolean {
  const named = tokenSet(`${param.name} ${param.description}`);
  if (things.split(' ').some((noun) => named.has(stemWord(noun)))) return true;
  if (param.dimension !== undefined) return false;
  return [...param.nameTokens].every((t) => COUNT_WORDS.has(t));
}

const CODE_PARAM = /script|code|javascript|expression|command|eval/i;

/** A parameter described as a relative time or a duration, which no date or clock time fills. */
const RELATIVE_TIME = /\brelative\b|\bduration\b|\bago\b/i;
const ABSOLUTE_TIME = /\bISO\b|\bRFC\s?3339\b|\babsolute\b|YYYY|\bdates?\b/i;

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

/** Words that say a parameter is a step, interval or tolerance of a quantity, not the quantity. */
const INCREMENT_WORDS = /step|interval|spacing|increment|toleran|resolution|delta|frequen|every/i;

function isIncrement(param: IndexedParam): boolean {
  return INCREMENT_WORDS.test(param.name) || INCREMENT_WORDS.test(param.description);
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
