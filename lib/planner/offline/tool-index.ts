/**
 * What the offline planner knows about each tool: the words of its name, description and
 * parameters (for ranking), each parameter's type, enum and words (for filling arguments) and
 * its outputs (for wiring). Built once per planning run.
 */
import { getObjectProperties, isJsonObject, resolveSchema } from '../../tools/json-schema';
import { compileLinearPattern, type PatternMatcher } from '../../tools/linear-pattern';
import type { ToolDeclaration } from '../../tools/types';
import { getOutputParameters, getParamPlan } from '../../workflow/params';
import type { ParamType } from '../../workflow/types';
import { getWords, isCjk, stemWord, tokenSet, tokenize } from './text';
import { getParamDimension, getDescribedUnit, type Dimension } from './units';

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
  /** The schema's `pattern`: a string that does not match it does not go there. */
  pattern?: PatternMatcher;
  /** The schema's bounds for a number. */
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  /** For a list: the JSON type of its items and how many it holds. */
  itemType?: string;
  /** For a list: the `pattern` and `enum` each item must meet (a list takes only items of its kind). */
  itemPattern?: PatternMatcher;
  itemEnum?: unknown[];
  minItems?: number;
  maxItems?: number;
  /** For a list of objects: the fields of one item, indexed like parameters. */
  fields?: IndexedParam[];
  /** The unit its description names ("in bar" → `bar`) and the dimension it measures. */
  unit?: string;
  dimension?: Dimension;
  /** "First number" → 1, "Second number" → 2: numbers given in order fill these in order. */
  ordinal?: number;
  /** What the parameter holds, as a person reads its name, description and schema. */
  holds: ParamHolds;
  /** The tool's main input: its first required parameter (what the action is done to). */
  main?: boolean;
  /** The schema's `format` (of the items, for a list): `email`, `uri`, `date-time`, `date`, `time`. */
  format?: string;
  /** Which end of a move its name says it is ("source_timezone", "target_branch", "origin"). */
  role?: 'source' | 'target';
}

/** Kinds of value a parameter takes (see `getHolds`). */
export interface ParamHolds {
  /** A file, directory, URL or location. */
  path: boolean;
  /** A spreadsheet cell (`B2`). */
  cell: boolean;
  /** A spreadsheet range (`A1:D20`). */
  range: boolean;
  /** A chemical formula or element symbol. */
  chemical: boolean;
  /** A spreadsheet formula (`=SUM(…)`). */
  sheetFormula: boolean;
  /** A date or time. */
  date: boolean;
  /** A name, title, label or id. */
  name: boolean;
  /** Something the step creates ("Name of the new branch", "Path of the workbook to create"):
   * never a value copied from another step. */
  new: boolean;
  /** Free text written by the person (a message, content, a comment): no code or id goes there. */
  text: boolean;
  /** An e-mail address (`format: email`, or said to be one: "recipient email addresses"). */
  email: boolean;
  /** A time of day (`format: time`, or "time" in its name or description, and no zone). */
  time: boolean;
  /** An IANA time zone (time zone, timezone, tz, 时区). */
  timezone: boolean;
  /** A setting the whole task shares (the repository, the file, the sheet, the model): a value
   * the text gives once applies to every step that has the parameter. */
  setting: boolean;
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
  /** The words that say what the tool does, as its name and title start ("Stage files" → stag;
   * `git_add` → add, the toolkit's own prefix skipped; "暂存文件" → 暂存). */
  verbs: Map<string, number>;
  /** Its description says it is deprecated: another tool does the same, better. */
  deprecated: boolean;
  /** The tool changes something and returns a status, not data (create, write, delete, move…). */
  sideEffect: boolean;
  /** The words of its name and title as written, lower-cased ("staged" is not "stage" here). */
  surfaceWords: Set<string>;
  /** Where it comes from (toolkit or server), to prefer one toolkit within a task; '' when unknown. */
  sourceKey: string;
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
    // The title's own words only: translations would pair every Chinese word with themselves.
    const tokens = tokenSet(title, { translate: false });
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
  const indexed: IndexedParam[] = getParamPlan(declaration, systemParams).map((entry) =>
    indexParam(
      entry.name,
      entry.type,
      entry.required,
      entry.description ?? '',
      schemas.get(entry.name) ?? {},
      root,
    ),
  );
  const mainIndex = indexed.findIndex((p) => p.required);
  const params = indexed.map((p, k) => (k === mainIndex ? { ...p, main: true } : p));
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
  for (const p of params) {
    for (const t of [...p.nameTokens, ...p.descriptionTokens]) paramTokens.add(t);
    // "the sum of 'Amount'", "NVT ensemble": an enum value names an option of the tool.
    for (const v of p.enum ?? []) if (typeof v === 'string') for (const t of tokenSet(v)) paramTokens.add(t);
  }
  const verbs = getVerbs(declaration);
  // A bilingual title ("Stage files · 暂存文件") says it in English already: translating its
  // Chinese half would only add the words of its parts (未暂存 "unstaged" → stage).
  const title = declaration.title ?? '';
  const translate = { translate: !/[A-Za-z]/.test(title) };
  return {
    declaration,
    order,
    nameTokens: tokenSet(declaration.name),
    titleTokens: tokenSet(title, translate),
    // The toolkit's or server's name says what the tool works on ("search memory for …").
    descriptionTokens: new Set([
      ...tokenSet(title, translate),
      ...tokenSet(declaration.description),
      ...tokenSet(`${declaration.source?.toolkit ?? ''} ${declaration.source?.server ?? ''}`),
    ]),
    paramTokens,
    params,
    outputs,
    verbs,
    deprecated: /\bdeprecated\b/i.test(declaration.description),
    sideEffect: [...verbs.keys()].some((v) => SIDE_EFFECT_VERBS.has(v)),
    surfaceWords: new Set(getWords(`${declaration.name.replace(/[_-]/g, ' ')} ${title}`)),
    sourceKey: declaration.source
      ? `${declaration.source.kind}:${declaration.source.toolkit ?? ''}:${declaration.source.server ?? ''}`
      : '',
  };
}

/** Words too generic to say that an output feeds an input (or what a file is). */
export const GENERIC_PORT_WORDS = new Set([
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

const stems = (words: string) => new Set(words.split(' ').map(stemWord));
const PATH_WORDS = new Set([
  ...stems('path file filepath filename url uri dir directory folder link location structure'),
  '文件',
  '路径',
  '链接',
  '地址',
]);
/** Where a thing goes from and to: a location when the parameter is named so (move_file's
 * `source`), not when a description mentions it ("Source table name"). */
const ENDPOINT_WORDS = stems('source destination dest src dst');
const DATE_WORDS = stems('date timestamp time iso since until day datetime');
const NAME_WORDS = stems('name title label id identifier key tag');
const SETTING_WORDS = stems('repository repo sheet model project database bucket namespace workspace');
const CHEMICAL_WORDS = stems('chemical element composition species compound stoichiometry');
const TEXT_WORDS = stems('message content text comment description note body');
/** Words that say a formula is a spreadsheet's (`excel` and `worksheet` fold into `sheet`). */
const SHEET_WORDS = stems('sheet cell spreadsheet');
const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

/** Verbs tool names start with. */
const COMMON_VERBS = stems(
  'add apply build calculate check close commit compress compute convert copy create delete diff download draw edit ' +
    'echo export fetch fit plot relax simulate stage checkout ' +
    'filter find format generate get import insert list load log merge move open optimize parse print push pull read ' +
    'record remove rename render replace reset restore run save search send set show sort start stop switch sync ' +
    'toggle trigger update upload validate view write',
);

/** What a tool returns when it changes something: a status, not the thing (see `sideEffect`). */
const SIDE_EFFECT_VERBS = new Set(
  [
    'create',
    'make',
    'write',
    'save',
    'delete',
    'remove',
    'move',
    'rename',
    'copy',
    'set',
    'update',
    'add',
    'toggle',
    'insert',
    'upload',
    'send',
    'post',
    'put',
    'mkdir',
    'edit',
    'commit',
    'push',
    'stage',
    'checkout',
    'switch',
    'trigger',
    'apply',
    'format',
  ].map((w) => stemWord(w)),
);

function indexParam(
  name: string,
  type: ParamType,
  required: boolean,
  description: string,
  schema: Record<string, unknown>,
  root: Record<string, unknown>,
  /** Fields of fields are not indexed: one item of a list is as deep as the planner builds (and
   * a schema may refer to itself). */
  isField = false,
): IndexedParam {
  const items = isJsonObject(schema.items) ? resolveSchema(schema.items, root) : undefined;
  const itemType = typeof items?.type === 'string' ? items.type : undefined;
  const nameTokens = tokenSet(name);
  const descriptionTokens = tokenSet(description);
  const words = new Set([...nameTokens, ...descriptionTokens]);
  const pattern = typeof schema.pattern === 'string' ? compilePattern(schema.pattern) : undefined;
  const accepts = (value: string) => pattern?.match(value) === true;
  const itemPattern = typeof items?.pattern === 'string' ? compilePattern(items.pattern) : undefined;
  const unit = getDescribedUnit(description);
  const dimension = type === 'int' || type === 'float' ? getParamDimension(name, description) : undefined;
  const ordinal = ORDINALS[description.trim().split(/\s+/)[0]?.toLowerCase() ?? ''];
  const isString = type === 'str' || type === 'any';
  const format =
    typeof schema.format === 'string'
      ? schema.format
      : typeof items?.format === 'string'
        ? items.format
        : undefined;
  const spoken = `${name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]/g, ' ')} ${description}`;
  const textual = isString || (type === 'list' && itemType === 'string');
  const timezone = textual && (TIMEZONE_WORDS.test(spoken) || format === 'timezone');
  const email = textual && (format === 'email' || format === 'idn-email' || EMAIL_WORDS.test(spoken));
  const time = textual && !timezone && (format === 'time' || TIME_WORDS.test(spoken));
  const chemical =
    isString &&
    ([...words].some((w) => CHEMICAL_WORDS.has(w)) ||
      (nameTokens.has('formula') &&
        !/=/.test(description) &&
        !accepts('=A1') &&
        ![...descriptionTokens].some((w) => SHEET_WORDS.has(w))));
  // A spreadsheet cell by name or pattern: "primitive cell" in a description is crystallography.
  const cell = isString && !chemical && (nameTokens.has('cell') || (accepts('B2') && !accepts('B2:C3')));
  const range = isString && !cell && (nameTokens.has('rang') || accepts('A1:B2'));
  const itemProperties =
    !isField && type === 'list' && items && itemType === 'object'
      ? getObjectProperties(items, root)
      : undefined;
  const fields = itemProperties?.properties.map((p) => {
    const field = resolveSchema(p.schema, root);
    const fieldDescription = typeof field.description === 'string' ? field.description : '';
    return indexParam(
      p.name,
      getSchemaType(field),
      itemProperties.required.has(p.name),
      fieldDescription,
      field,
      root,
      true,
    );
  });
  return {
    name,
    type,
    required,
    ...(Array.isArray(schema.enum) ? { enum: schema.enum } : {}),
    stringList: type === 'list' && itemType === 'string',
    nameTokens,
    descriptionTokens,
    description,
    ...(pattern ? { pattern } : {}),
    ...numberField('minimum', schema.minimum),
    ...numberField('maximum', schema.maximum),
    ...numberField('exclusiveMinimum', schema.exclusiveMinimum),
    ...numberField('exclusiveMaximum', schema.exclusiveMaximum),
    ...(itemType ? { itemType } : {}),
    ...(itemPattern ? { itemPattern } : {}),
    ...(Array.isArray(items?.enum) ? { itemEnum: items.enum } : {}),
    ...numberField('minItems', schema.minItems),
    ...numberField('maxItems', schema.maxItems),
    ...(fields && fields.length > 0 ? { fields } : {}),
    ...(unit ? { unit } : {}),
    ...(dimension ? { dimension } : {}),
    ...(ordinal ? { ordinal } : {}),
    ...(format ? { format } : {}),
    ...getRole(name),
    holds: {
      path: holdsPath(nameTokens, descriptionTokens, description) && !cell && !range,
      cell,
      range,
      chemical,
      sheetFormula: isString && nameTokens.has('formula') && !chemical,
      date: isString && [...words].some((w) => DATE_WORDS.has(w)),
      // Named so, or described so in its first words ("Branch name, tag or commit").
      name:
        isString &&
        ([...nameTokens].some((w) => NAME_WORDS.has(w)) ||
          tokenize(description.split(/[,;.]/)[0] ?? '').some((w) => NAME_WORDS.has(w))),
      text: isString && [...nameTokens].some((w) => TEXT_WORDS.has(w)),
      new: descriptionTokens.has('new') || /\bto (?:be )?creat/i.test(description),
      email,
      time,
      timezone,
      setting: type !== 'list' && [...nameTokens].some((w) => SETTING_WORDS.has(w) || PATH_WORDS.has(w)),
    },
  };
}

const TIMEZONE_WORDS = /\btime ?zones?\b|\btz\b|\bIANA\b|时区/i;
const EMAIL_WORDS =
  /\be-?mail(?: address(?:es)?)?s?\b(?! (?:id|subject|body|content|message|thread|label))|\brecipients?\b|邮箱/i;
const TIME_WORDS = /\btime\b(?! ?(?:out|stamp|zone))|\bHH:MM\b|时间/i;

/**
 * Which end of a move or span a parameter is, by its name: `source_timezone`, `from`, `origin`,
 * `base_branch`, `start_timestamp` start it; `target_timezone`, `to`, `destination`,
 * `end_timestamp` end it.
 */
function getRole(name: string): { role?: 'source' | 'target' } {
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/);
  if (words.some((w) => /^(?:source|src|from|origin|origins|base|parent|start|since)$/.test(w)))
    return { role: 'source' };
  if (words.some((w) => /^(?:target|dest|destination|destinations|to|end|until)$/.test(w)))
    return { role: 'target' };
  return {};
}

/** Words that confirm a "path" is a file system or URL path, not a path through k-points. */
const FILE_WORDS = stems('file url uri dir directory folder location link repository repo');

/**
 * Whether a parameter takes a file, directory, URL or location: its name or description says
 * so. A name with "path" alone counts unless its description speaks of something else ("band_path:
 * High-symmetry q-point path such as GXWKGLUWLK" is no file).
 */
function holdsPath(nameTokens: Set<string>, descriptionTokens: Set<string>, description: string): boolean {
  if ([...nameTokens].some((w) => ENDPOINT_WORDS.has(w))) return true;
  const words = [...nameTokens, ...descriptionTokens];
  if (!words.some((w) => PATH_WORDS.has(w))) return false;
  const named = [...nameTokens].filter((w) => PATH_WORDS.has(w));
  if (named.some((w) => w !== 'path') || description.trim() === '') return true;
  return words.some((w) => FILE_WORDS.has(w) || (PATH_WORDS.has(w) && w !== 'path'));
}

function numberField<K extends string>(key: K, value: unknown): Partial<Record<K, number>> {
  return typeof value === 'number' && Number.isFinite(value) ? ({ [key]: value } as Record<K, number>) : {};
}

/** A schema pattern for linear-time matching (RE2); none when it is invalid or RE2 cannot express it. */
function compilePattern(source: string): PatternMatcher | undefined {
  try {
    const compiled = compileLinearPattern(source);
    return compiled.ok ? compiled.matcher : undefined;
  } catch {
    return undefined;
  }
}

/** The ParamType of a field schema (the §1 mapping, for fields of list items). */
function getSchemaType(schema: Record<string, unknown>): ParamType {
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
  switch (types[0]) {
    case 'string':
      return 'str';
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'array':
      return 'list';
    case 'object':
      return 'dict';
    default:
      return 'any';
  }
}

/**
 * The words that say what a tool does, and how surely: the first word of its name — after a
 * prefix that is its toolkit's or server's name (`git_add` of the Git toolkit → add) — and of
 * each part of its title (1), and the first word of its description (½: descriptions often start
 * with a generic "List …" or "Returns …"); never a participle ("Staged changes" describes, "Stage
 * files" asks).
 */
function getVerbs(declaration: ToolDeclaration): Map<string, number> {
  const verbs = new Map<string, number>();
  const add = (verb: string, weight: number) => verbs.set(verb, Math.max(verbs.get(verb) ?? 0, weight));
  const nameWords = tokenize(declaration.name.replace(/[-.]/g, '_'));
  const owner = tokenSet(`${declaration.source?.toolkit ?? ''} ${declaration.source?.server ?? ''}`);
  const first = nameWords[0] !== undefined && owner.has(nameWords[0]) ? nameWords[1] : nameWords[0];
  // A name can start with a noun (`directory_tree`): its first word is a sure verb only when it
  // is a common one or the description starts with it too.
  const described = tokenize(declaration.description.trim().split(/\s+/)[0] ?? '')[0];
  if (first) add(first, COMMON_VERBS.has(first) || first === described ? 1 : 0.5);
  // A title can be a noun phrase too ("Directory Tree"): the same test as for the name.
  const parts = (declaration.title ?? '').split(/[·|/—-]/).map((part) => [part, 1] as const);
  for (const [part, weight] of [...parts, [declaration.description, 0.5] as const]) {
    const word = /[A-Za-z]+|[\u3400-\u9fff]{2}/.exec(part.trim())?.[0];
    if (!word) continue;
    if (isCjk(word[0])) add(word, weight);
    else if (!/(?:ed|ing)$/i.test(word)) {
      const verb = stemWord(word.toLowerCase());
      add(verb, weight === 1 && !COMMON_VERBS.has(verb) && verb !== described ? 0.5 : weight);
    }
  }
  return verbs;
}
