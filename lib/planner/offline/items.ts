/**
 * Items the text names for a tool's lists: "entities Alice and Bob", "relate Alice to Bob as
 * 'knows'", "Alice knows Bob". Each fills one item of a list (of names, or of objects with a name
 * field or from/to/type fields) only when the text says it whole; nothing is guessed.
 */
import type { Clause, PlacedLiteral } from './clauses';
import { findChineseWords } from './lexicon';
import type { IndexedParam, IndexedTool } from './tool-index';
import { escapeRegExp, isAccepted } from './accept';
import { isIdentifierParam } from './identifiers';

/** One unquoted name: a capitalised word ("Alice", "Acme") or a word with a digit ("user42"). */
const NAME = String.raw`(?:[A-Z][\w.@-]*|[a-z_][\w.@-]*\d[\w.@-]*)`;
/** What joins the names of a list ("Alice, Bob and Carol", "Alice 和 Bob", "甲、乙"). */
const NAME_JOIN = /^\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*(?:和|与|及|以及|、|，)\s*)$/i;
/** Words that are not names even when capitalised at a clause's start. */
const NOT_NAMES = new Set([
  'The',
  'A',
  'An',
  'And',
  'Or',
  'To',
  'As',
  'Of',
  'In',
  'On',
  'For',
  'With',
  'Then',
  'I',
  'My',
]);

/**
 * The names written from `at` on: one, then more joined by commas, "and", 和, 、. A name is an
 * unquoted NAME or one of the clause's literals (quoted, a Latin name in Chinese text), whole.
 */
function readNameList(clause: Clause, at: number): { names: string[]; end: number } {
  const text = clause.text;
  const names: string[] = [];
  let rest = text.slice(at);
  let end = at;
  const literals = clause.literals
    .map((l) => l.literal.value)
    .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  const one = new RegExp(String.raw`^\s*(${[...literals, NAME].join('|')})(?![\w.@-])`);
  for (;;) {
    const m = one.exec(rest);
    if (!m || NOT_NAMES.has(m[1])) break;
    names.push(m[1].replace(/[.]+$/, ''));
    end += m[0].length;
    rest = rest.slice(m[0].length);
    const join = /^(\s*(?:,\s*(?:and\s+)?|\s+and\s+|(?:和|与|及|以及|、)))/i.exec(rest);
    if (!join || !NAME_JOIN.test(join[1])) break;
    const next = one.exec(rest.slice(join[1].length));
    if (!next || NOT_NAMES.has(next[1])) break;
    end += join[1].length;
    rest = rest.slice(join[1].length);
  }
  return { names, end };
}

/** A word and its singular ("entities" → entity, "nodes" → node). */
function withSingular(word: string): string[] {
  const singular = word.endsWith('ies')
    ? word.slice(0, -3) + 'y'
    : word.endsWith('s')
      ? word.slice(0, -1)
      : word;
  return [...new Set([word, singular])];
}

/** The words of an identifier, lower case ("entityNames" → entity, names). */
function getIdentifierWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .map((w) => w.toLowerCase())
    .filter(Boolean);
}

/** Where listed items go, after the names ("… to the knowledge graph", "in memory"). */
const PLACE_AFTER = /^(?:to|into|in|on)\s+(?:the\s+|my\s+)?(?:knowledge\s+)?(?:graph|memory|list)\b/i;

/** Names of a list of strings that say only that its items are names of what the tool acts on. */
const IDENTITY_WORDS = /^(?:names?|ids?|identifiers?|keys?|items?)$/;

/**
 * The words a list parameter's items are called: the words of its name ("entities", "entityNames"
 * → entity, name), and for a list of strings called only "names" (ids, keys) the thing the tool
 * acts on too (open_nodes → nodes; create_pivot_table's `rows` are not tables).
 */
function getItemNouns(tool: IndexedTool, param: IndexedParam): string[] {
  const words = getIdentifierWords(param.name);
  if (param.stringList && IDENTITY_WORDS.test(words.at(-1) ?? ''))
    words.push(...getIdentifierWords(tool.declaration.name).slice(1));
  return [...new Set(words.flatMap(withSingular))];
}

/**
 * How many of the tool's lists the clause gives items for, the way the person writes them: a
 * relation said whole ("Alice knows Bob", "link Carol to Dave as 'manages'") or names after the
 * noun the items are called ("entities 'Alice' and 'Bob'"). Such items are values the tool has a
 * place for, and they say which tool the clause asks for more than a generic verb does.
 */
export function countItemsRead(tool: IndexedTool, clause: Clause): number {
  const args: Record<string, unknown> = Object.create(null);
  const used = new Set<PlacedLiteral>();
  fillRelations(tool, [clause], args, used);
  fillNamedItems(tool, [clause], args, used, []);
  // Only lists of things with names (entities, nodes): a spreadsheet's `rows` "A1:H1" are cells.
  return Object.keys(args).filter((name) => {
    const param = tool.params.find((p) => p.name === name);
    return !param?.stringList || IDENTITY_WORDS.test(getIdentifierWords(name).at(-1) ?? '');
  }).length;
}

/**
 * "Create entities Alice and Bob", "创建实体 Alice 和 Bob": the names written right after the noun
 * a list of objects' items are called fill the items' name field, one item each. A required list
 * field the text says nothing of is an empty list (an entity with no observations is what the
 * person asked for); any other field the text does not give stays missing, never guessed.
 */
export function fillNamedItems(
  tool: IndexedTool,
  clauses: Clause[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
  notes: string[],
): void {
  for (const param of tool.params) {
    if (param.name in args) continue;
    const nameField = param.fields?.find((f) => f.type === 'str' && /^(?:name|title)$/i.test(f.name));
    if (!nameField && !param.stringList) continue;
    const nouns = getItemNouns(tool, param);
    const chinese = (text: string) =>
      findChineseWords(text).filter((w) => w.english.some((e) => nouns.includes(e.toLowerCase())));
    const names: string[] = [];
    let listing = false;
    for (const clause of clauses) {
      if (listing) {
        // A list cut by the clause splitter ("entities Alice" | "Bob"): a clause that is one name.
        const more = readNameList(clause, 0);
        // What follows the names may only say where they go ("'Bob' to the knowledge graph").
        const rest = clause.text.slice(more.end).trim();
        if (more.names.length > 0 && (rest === '' || PLACE_AFTER.test(rest))) names.push(...more.names);
        else listing = false;
        continue;
      }
      // The nouns come from the tool's parameter names: literals, never pattern syntax.
      const english = new RegExp(String.raw`\b(?:${nouns.map(escapeRegExp).join('|')})\b`, 'gi');
      const starts = [...clause.text.matchAll(english)].map((m) => m.index + m[0].length);
      for (const w of chinese(clause.text)) starts.push(w.at + w.word.length);
      for (const start of starts.sort((a, b) => a - b)) {
        const found = readNameList(clause, start);
        if (found.names.length === 0) continue;
        names.push(...found.names);
        listing = clause.text.slice(found.end).trim() === '';
        break;
      }
      if (names.length > 0 && !listing) break;
    }
    if (names.length === 0 || names.some((name) => !isAccepted(nameField ?? param, name))) continue;
    // A name has a letter in it ("16:00" names no calendar), and an identifier has no space in it
    // ("Design review (moved)" is a title, not one of a list of calendar IDs).
    if (names.some((name) => !/\p{L}/u.test(name))) continue;
    if (isIdentifierParam(param) && names.some((name) => /\s/.test(name))) continue;
    if (!nameField) {
      args[param.name] = names;
      for (const clause of clauses)
        for (const placed of clause.literals)
          if (names.includes(String(placed.literal.value))) used.add(placed);
      continue;
    }
    args[param.name] = names.map((name) => {
      const item: Record<string, unknown> = {};
      for (const field of param.fields!) {
        if (field === nameField) item[field.name] = name;
        else if (field.required && field.type === 'list') item[field.name] = [];
      }
      return item;
    });
    const unsaid = param.fields!.filter((f) => f.required && !(f.name in (args[param.name] as object[])[0]));
    if (unsaid.length > 0)
      notes.push(
        `The task does not say the ${unsaid.map((f) => f.name).join(', ')} of ${names.map((n) => JSON.stringify(n)).join(', ')} in ${param.name}; fill it in.`,
      );
    for (const clause of clauses)
      for (const placed of clause.literals)
        if (names.includes(String(placed.literal.value))) used.add(placed);
  }
}

/** "relate Alice to Bob as 'knows'", "link A with B as X". */
const RELATE = new RegExp(
  String.raw`\b(?:[Rr]elate|[Ll]ink|[Cc]onnect)\s+(${NAME})\s+(?:to|with)\s+(${NAME})\s+as\s+(\S+(?:\s\S+)*?)\s*$`,
);
/** Words that cannot be the relation in "Alice knows Bob". */
const NOT_RELATIONS = new Set([
  'and',
  'or',
  'to',
  'with',
  'as',
  'of',
  'in',
  'on',
  'for',
  'from',
  'by',
  'at',
  'is',
  'the',
  'a',
  'an',
  'then',
]);

/**
 * A relation the text says whole: "relate Alice to Bob as 'knows'", or "Alice knows Bob" / "Alice
 * 'works with' Bob" (two names and the word between them). Fills one item of a list of objects
 * whose fields are where it starts, where it ends and its type; only when the text gives all three.
 */
export function fillRelations(
  tool: IndexedTool,
  clauses: Clause[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  for (const param of tool.params) {
    if (!param.fields || param.name in args) continue;
    const text = param.fields.filter((f) => f.type === 'str');
    const from = text.find((f) => /^(?:from|source|start|subject)/i.test(f.name));
    const to = text.find((f) => /^(?:to|target|end|object)/i.test(f.name));
    const kind = text.find(
      (f) => f !== from && f !== to && /(?:type|kind|label|relation|predicate)/i.test(f.name),
    );
    if (!from || !to || !kind || param.fields.some((f) => f.required && ![from, to, kind].includes(f)))
      continue;
    for (const clause of clauses) {
      let relation: [string, string, string] | undefined;
      const relate = RELATE.exec(clause.text);
      if (relate) relation = [relate[1], relate[2], relate[3]];
      else {
        // "Alice knows Bob": a name, one word or a quoted phrase, a name, and nothing else.
        const quoted = clause.literals.find((l) => l.literal.quoted);
        const lead = [...getItemNouns(tool, param), 'that', 'record', 'remember'].map(escapeRegExp).join('|');
        const verb = quoted ? escapeRegExp(String(quoted.literal.value)) : String.raw`[a-z][\w-]*`;
        const m = new RegExp(
          String.raw`(?:^|:|\b(?:${lead})\b:?)\s*(${NAME})\s+(${verb})\s+(${NAME})\s*$`,
        ).exec(clause.text);
        if (m && !NOT_NAMES.has(m[1]) && !NOT_NAMES.has(m[3]) && !NOT_RELATIONS.has(m[2].toLowerCase()))
          relation = [m[1], m[3], m[2]];
      }
      if (!relation) continue;
      args[param.name] = [{ [from.name]: relation[0], [to.name]: relation[1], [kind.name]: relation[2] }];
      for (const placed of clause.literals)
        if (relation.includes(String(placed.literal.value))) used.add(placed);
      break;
    }
  }
}
