/**
 * A bare value written right after a parameter's own name ("in namespace prod", "container web",
 * "key user:42:email", "project 4821" for `project_id`): no kind reads a plain word or a key with
 * colons in it, but the name says what it is. Read only where the name is written once with one
 * value after it, and the name is no word of ordinary prose (`name`, `type`, `message`).
 */
import type { Clause, PlacedLiteral } from './clauses';
import { escapeRegExp } from './accept';
import { CREATE_BEFORE, getIdentifiedThing, isIdentifierParam } from './identifiers';
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
/** What may follow the name: a value made of letters, digits and `: / . _ - @ #`, ending a word. */
const VALUE_AFTER = String.raw`(\s*[:=]?\s+)([\p{L}\p{N}][\p{L}\p{N}:/._@#-]*)`;
/** Kinds of value read elsewhere by their own rules: only a plain word, a number or a code is read here. */
const READ_HERE = new Set(['number', 'identifier']);

/** How a parameter is written in prose: `resourceName` → "resource name", `project_id` → "project". */
function getSpokenNames(param: IndexedParam): string[] {
  const spoken = param.name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
  const names = [spoken];
  // An identifier is written as the thing it identifies ("project 4821", "event 5h3kdl0q1r").
  const thing = isIdentifierParam(param) ? getIdentifiedThing(param) : undefined;
  if (thing && thing !== spoken) names.push(thing);
  // A name that is itself a word of prose ("since", "from") names nothing.
  return names.filter((n) => n.length >= 3 && !PROSE_NAMES.has(n) && !NOT_A_VALUE.has(n));
}

/** The one value written after `param`'s name in the clauses, and the literals inside it. */
function findNamedValue(
  param: IndexedParam,
  clauses: readonly Clause[],
): { value: string; inside: PlacedLiteral[] } | undefined {
  const found: { value: string; inside: PlacedLiteral[] }[] = [];
  for (const spoken of getSpokenNames(param)) {
    const isThing = spoken !== getSpokenNames(param)[0];
    const name = escapeRegExp(spoken).replace(/ /g, '[\\s_-]?');
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}_-])${name}${VALUE_AFTER}`, 'giu');
    for (const clause of clauses) {
      for (const m of clause.text.matchAll(pattern)) {
        const value = m[2].replace(/[.:]+$/, '');
        if (NOT_A_VALUE.has(value.toLowerCase())) continue;
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

/** Fill text parameters from values written after their names (see the module comment). */
export function fillNamedValues(
  params: readonly IndexedParam[],
  clauses: readonly Clause[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  const readings = new Map<IndexedParam, { value: string; inside: PlacedLiteral[] }>();
  for (const param of params) {
    if (param.name in args || param.type !== 'str' || param.enum || param.holds.text) continue;
    if (param.holds.path && !isIdentifierParam(param)) continue;
    const reading = findNamedValue(param, clauses);
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
