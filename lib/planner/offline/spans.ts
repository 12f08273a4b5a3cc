/**
 * Values that go together: alternatives ("2 or 3") set aside, wildcard patterns listed together,
 * a range split into its corners, the ends and step of a span, an old and a new text, an
 * `owner/repo` slug, numbers given in order, and one object item whose fields the text names.
 */
import type { Clause, PlacedLiteral } from './clauses';
import { isAccepted } from './accept';
import { getContext, getNamingScore } from './context';
import { placeLiteral } from './place';
import type { IndexedParam, IndexedTool, ToolIndex } from './tool-index';

/** One value of a step's clauses: the clause, the value, and its index among the clause's values. */
export interface ClauseValue {
  clause: Clause;
  placed: PlacedLiteral;
  i: number;
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
export function fillPatternLists(
  index: ToolIndex,
  params: IndexedParam[],
  all: readonly ClauseValue[],
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
export function setAsideAlternatives(
  all: readonly ClauseValue[],
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
 * A range given to a tool that takes its two corners ("A1:D1" for `start_cell`/`end_cell`):
 * the first corner goes to the parameter that starts the range, the second to the one that ends it.
 */
export function splitRanges(
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

/** Words before what is replaced, and between it and its replacement. */
const REPLACE_START = /(?:\b(?:replace|change|swap)|把|将)\s*$/i;
const REPLACE_JOIN = /^\s*(?:with|by|for|->|→|to|替换为|替换成|改为|改成|换成|换为)\s*$/i;

/**
 * "replace 'debug=true' with 'debug=false'", "把 `a` 替换为 `b`": one item of a list of objects
 * whose two text fields are the old and the new text (oldText/newText, search/replace, from/to).
 */
export function fillReplacements(
  params: IndexedParam[],
  all: ClauseValue[],
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
export function splitOwnerRepo(
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
export function fillOrdinals(
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
export function fillObjectItems(
  index: ToolIndex,
  params: IndexedParam[],
  all: ClauseValue[],
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
