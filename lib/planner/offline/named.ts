/**
 * A bare value written right after a parameter's own name ("in namespace prod", "container web",
 * "key user:42:email", "project 4821" for `project_id`): no kind reads a plain word or a key with
 * colons in it, but the name says what it is. Read only where the name is written once with one
 * value after it, and the name is no word of ordinary prose (`name`, `type`, `message`).
 */
import type { Clause, PlacedLiteral } from './clauses';
import { escapeRegExp } from './accept';
import { CREATE_BEFORE, getIdentifiedThing, isIdentifierParam } from './identifiers';
import { NAME_PARAM } from './clarity';
import { tokenSet } from './text';
import type { IndexedParam } from './tool-index';

/** Words that are no value: articles, pronouns, prepositions, conjunctions, and words that name one. */
const NOT_A_VALUE = new Set(
  `a an the this that these those it its them their my our your his her of to in on at for from
  with by and or as into onto is are be was were called named titled entitled which who whose then
  also only all any each every some no not about under over via using after before since until if
  when so but than like per between without within across through around near against among except
  inside outside toward towards upon beside`.split(/\s+/),
);
/** Parameter names that are words of ordinary prose: a word after them is no value of theirs. */
const PROSE_NAMES = new Set(
  `name type value data text query content message body mode format path url uri id title
  description comment kind file output input result item items key value`.split(/\s+/),
);
/** What may follow the name: a value of Latin letters, digits and `: / . _ - @ #`. */
const VALUE_AFTER = String.raw`(\s*[:=]?\s+)([A-Za-z0-9][\w:/.@#-]*)`;
/**
 * Whether the value a match read ends where the value does: at the end of the clause, at a
 * punctuation mark, or before a word that is no value ("namespace prod to …"); "from Gare du
 * Nord" reads "Gare", which ends nowhere.
 */
function endsValue(m: RegExpMatchArray): boolean {
  const next = /^\s+([A-Za-z0-9]+)/.exec(m.input!.slice(m.index! + m[0].length));
  return next === null || NOT_A_VALUE.has(next[1].toLowerCase());
}

/** Parameter types a word read here may fill (`any`: a schema that allows text among others). */
const TEXT_TYPES = new Set(['str', 'any']);
/** Kinds of value read elsewhere by their own rules: only a plain word, a number or a code is read here. */
const READ_HERE = new Set(['number', 'identifier']);

/**
 * How a parameter is written in prose: its own name (`resourceName` → "resource name"), and the
 * things whose value it holds — what an identifier identifies (`project_id` → "project 4821"),
 * what a name names ("Name of the deployment" → "deployment web", or a kind the tool's type
 * parameter offers: "pod worker-5c").
 */
function getSpokenNames(
  param: IndexedParam,
  params: readonly IndexedParam[],
): { own: string[]; things: string[] } {
  const spoken = param.name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
  const things: string[] = [];
  if (isIdentifierParam(param)) things.push(getIdentifiedThing(param) ?? '');
  if (NAME_PARAM.test(param.name)) {
    things.push(/^name of (?:the |an? )?([a-z]+)/i.exec(param.description)?.[1]?.toLowerCase() ?? '');
    // The kinds a type parameter of the same thing offers: `resourceName` with `resourceType`,
    // `name` with `type` or `kind` (not `sheet_name` with `chart_type`).
    const prefix = (name: string) => name.replace(/_?(?:name|type|kind)$/i, '').toLowerCase();
    const kinds = params.filter((p) => /(?:type|kind)$/i.test(p.name) && p.enum);
    for (const kind of kinds.filter((k) => prefix(k.name) === prefix(param.name) || param.name === 'name'))
      for (const v of kind.enum!) if (typeof v === 'string') things.push(v.toLowerCase());
  }
  // A name that is itself a word of prose ("since", "from", "name") names nothing.
  const keep = (n: string) => n.length >= 3 && !PROSE_NAMES.has(n) && !NOT_A_VALUE.has(n);
  return { own: [spoken].filter(keep), things: [...new Set(things)].filter((t) => t !== spoken && keep(t)) };
}

/** The one value written after `param`'s name in the clauses, and the literals inside it. */
function findNamedValue(
  param: IndexedParam,
  params: readonly IndexedParam[],
  clauses: readonly Clause[],
): { value: string; inside: PlacedLiteral[] } | undefined {
  const found: { value: string; inside: PlacedLiteral[] }[] = [];
  const { own, things } = getSpokenNames(param, params);
  for (const spoken of [...own, ...things]) {
    const isThing = !own.includes(spoken);
    const name = escapeRegExp(spoken).replace(/ /g, '[\\s_-]?');
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_-])${name}${VALUE_AFTER}`, 'giu');
    for (const clause of clauses) {
      for (const m of clause.text.matchAll(pattern)) {
        const value = m[2].replace(/[.:]+$/, '');
        if (NOT_A_VALUE.has(value.toLowerCase()) || !endsValue(m)) continue;
        // A plain word after "calendar:" may be the next sentence ("calendar: rename it").
        if (/^\p{L}+$/u.test(value) && /:/.test(m[1])) continue;
        // "create an event 'Postmortem'": what follows the thing made is its title, not its id.
        if (isThing && CREATE_BEFORE.test(clause.text.slice(0, m.index))) continue;
        const overlaps = clause.literals.filter((l) => {
          const written = String(l.literal.value);
          return value.includes(written) || written.includes(value);
        });
        // Part of a longer value (a quoted title, a path), or a value of a kind read by its own
        // rules (a date, an address): that value is placed elsewhere.
        if (
          overlaps.some(
            (l) =>
              String(l.literal.value).length > value.length ||
              (String(l.literal.value) === value && !READ_HERE.has(l.literal.kind)),
          )
        )
          return undefined;
        found.push({ value, inside: overlaps });
      }
    }
  }
  if (found.length === 0 || found.some((f) => f.value !== found[0].value)) return undefined;
  return found[0];
}

/** Words before each end of a move written out: "from A into B", "from A to B". */
const FROM_VALUE = new RegExp(String.raw`\bfrom${VALUE_AFTER}`, 'giu');
const TO_VALUE = new RegExp(String.raw`\b(?:into|to|onto)${VALUE_AFTER}`, 'giu');

/**
 * "merge from feature/login into main": where a tool takes both ends of a move (`source_branch`,
 * `target_branch`) and one clause writes both with "from" and "to"/"into", the role words say
 * which is which. A word that names the move's parameters ("from branch …") is no value.
 */
function fillMoveEnds(
  params: readonly IndexedParam[],
  clauses: readonly Clause[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  const open = (role: 'source' | 'target') =>
    params.filter((p) => p.role === role && TEXT_TYPES.has(p.type) && !p.enum && !(p.name in args));
  const [source, target] = [open('source'), open('target')];
  if (source.length !== 1 || target.length !== 1) return;
  const vocabulary = new Set(
    [source[0], target[0]].flatMap((p) => [...p.nameTokens, ...p.descriptionTokens]),
  );
  const readings: { from: string; to: string; inside: PlacedLiteral[] }[] = [];
  for (const clause of clauses) {
    const from = [...clause.text.matchAll(FROM_VALUE)];
    const to = [...clause.text.matchAll(TO_VALUE)].filter(
      (m) => from.length === 1 && m.index > from[0].index,
    );
    if (from.length !== 1 || to.length !== 1) continue;
    const ends = [from[0][2], to[0][2]].map((v) => v.replace(/[.:]+$/, ''));
    const isValue = (v: string) =>
      !NOT_A_VALUE.has(v.toLowerCase()) && ![...tokenSet(v)].some((t) => vocabulary.has(t));
    if (!ends.every(isValue) || ![from[0], to[0]].every(endsValue)) return;
    const inside = clause.literals.filter((l) =>
      ends.some((e) => e.includes(String(l.literal.value)) || String(l.literal.value).includes(e)),
    );
    // An end read whole as another kind (a path, a zone, a date) is placed by its own rules.
    if (inside.some((l) => !READ_HERE.has(l.literal.kind) || !ends.includes(String(l.literal.value)))) return;
    readings.push({ from: ends[0], to: ends[1], inside });
  }
  if (readings.length !== 1 || readings[0].inside.some((l) => used.has(l))) return;
  args[source[0].name] = readings[0].from;
  args[target[0].name] = readings[0].to;
  for (const l of readings[0].inside) used.add(l);
}

/** Values a parameter's description quotes as examples ("use 'primary' for the main calendar"). */
const QUOTED_EXAMPLE = /['‘“`]([\p{L}\p{N}][\p{L}\p{N}@._:/-]{1,39})['’”`]/gu;

/**
 * "my primary calendar", "on calendar primary": a value the parameter's description gives as an
 * example, written in the text next to the parameter's name or the thing it names, is that value.
 */
function findExampleValue(
  param: IndexedParam,
  params: readonly IndexedParam[],
  clauses: readonly Clause[],
): { value: string; inside: PlacedLiteral[] } | undefined {
  const { own, things } = getSpokenNames(param, params);
  const near = [...own, ...things].map((n) => escapeRegExp(n).replace(/ /g, '[\\s_-]?')).join('|');
  if (near === '') return undefined;
  const found = new Set<string>();
  for (const [, example] of param.description.matchAll(QUOTED_EXAMPLE)) {
    const word = escapeRegExp(example);
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}_-])(?:${word}\\s+(?:\\p{L}+\\s+)?(?:${near})s?|(?:${near})s?\\s+${word})(?![\\p{L}\\p{N}_-])`,
      'iu',
    );
    if (clauses.some((c) => pattern.test(c.text))) found.add(example);
  }
  if (found.size !== 1) return undefined;
  const [value] = found;
  return {
    value,
    inside: clauses.flatMap((c) => c.literals.filter((l) => String(l.literal.value) === value)),
  };
}

/** Fill text parameters from values written after their names (see the module comment). */
export function fillNamedValues(
  params: readonly IndexedParam[],
  clauses: readonly Clause[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  fillMoveEnds(params, clauses, args, used);
  const readings = new Map<IndexedParam, { value: string; inside: PlacedLiteral[] }>();
  for (const param of params) {
    if (param.name in args || !TEXT_TYPES.has(param.type) || param.enum || param.holds.text) continue;
    if (param.holds.path && !isIdentifierParam(param)) continue;
    const reading = findNamedValue(param, params, clauses) ?? findExampleValue(param, params, clauses);
    if (reading && !reading.inside.some((l) => used.has(l))) readings.set(param, reading);
  }
  for (const [param, reading] of readings) {
    // A value two names claim belongs to neither.
    if ([...readings.values()].some((r) => r !== reading && r.value === reading.value)) continue;
    if (param.pattern && param.pattern.match(reading.value) !== true) continue;
    args[param.name] = reading.value;
    for (const l of reading.inside) used.add(l);
  }
}
