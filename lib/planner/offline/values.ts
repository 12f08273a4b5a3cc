/**
 * Values from the text → arguments of one step. Each literal has a kind (literals.ts) and each
 * parameter holds some kinds (tool-index.ts); a value goes only where its kind fits, the schema
 * accepts it (type, enum, pattern, bounds, unit) and, for values too common to place by kind alone
 * (numbers, bare words), where the words around it name the parameter (place.ts). Values that go
 * together are read first (spans.ts), then the rest are placed best match first, and switches and
 * choices named in words last (options.ts). Where nothing says where a value belongs it is left
 * out and the person is told: a wrong value shown as set is worse than a missing one.
 */
import type { Clause, PlacedLiteral } from './clauses';
import { fillNamedItems, fillRelations } from './items';
import { dropUnclear, getKindNoun, NAME_PARAM, type Doubt } from './clarity';
import { sameEnumValue } from './accept';
import { getContext } from './context';
import { findBoolean, findEnumValue, getDescribedChoices } from './options';
import { fillNamedValues } from './named';
import { placeLiteral, takesFullUrl } from './place';
import { fillDatePair, fillSpans } from './ranges';
import {
  fillObjectItems,
  fillOrdinals,
  fillPatternLists,
  fillReplacements,
  setAsideAlternatives,
  splitOwnerRepo,
  splitRanges,
  type ClauseValue,
} from './spans';
import type { IndexedParam, IndexedTool, ToolIndex } from './tool-index';

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

/** A value placed in a parameter, how well it fits there, and where it stands in the text. */
interface Pair {
  literal: PlacedLiteral;
  param: IndexedParam;
  score: number;
  value: unknown;
  order: number;
}

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
  const all: ClauseValue[] = [...group.clauses, ...shared].flatMap((clause) =>
    clause.literals.map((placed, i) => ({ clause, placed, i })),
  );
  const literals = all.map((a) => a.placed);
  const borrowed = new Set(shared.flatMap((c) => c.literals));

  setAsideAlternatives(all, used, notes);
  fillPatternLists(index, params, all, args, used, notes);
  splitRanges(group.tool, literals, args, used);
  fillSpans(index, params, all, args, used);
  fillDatePair(params, all, args, used);
  fillReplacements(params, all, args, used);
  splitOwnerRepo(params, literals, args, used);
  fillNamedValues(params, group.clauses, args, used);

  const pairs = getPairs(index, params, all, used, args);
  const { chosen, listed } = placeBestFirst(pairs, args, used);
  improveBySwaps(chosen, pairs, args);
  group.unclear = dropUnclear(group.tool, chosen, listed, pairs, borrowed, args);
  extendLists(index, listed, literals, args, used, borrowed);
  fillOrdinals(params, literals, args, used);
  fillObjectItems(index, params, all, args, used);
  fillRelations(group.tool, group.clauses, args, used);
  fillNamedItems(group.tool, group.clauses, args, used, notes);
  for (const param of params) {
    if (param.name in args) continue;
    const choices = param.enum ?? getDescribedChoices(param);
    const value =
      param.type === 'bool'
        ? findBoolean(group, param)
        : choices
          ? findEnumValue(group.clauses, choices)
          : undefined;
    if (value !== undefined) args[param.name] = value;
  }
  for (const placed of literals) {
    if (used.has(placed) || borrowed.has(placed)) continue;
    if (placed.literal.keepWords || placed.literal.kind === 'identifier') continue;
    if (params.some((p) => p.enum?.some((v) => sameEnumValue(v, placed.literal.value)))) continue;
    const url = params.find((p) => !(p.name in args) && takesFullUrl(p));
    if (placed.literal.kind === 'path' && url) {
      notes.push(
        `${JSON.stringify(placed.literal.value)} has no scheme (https://…), and ${url.name} of ${group.tool.declaration.name} takes a whole URL: it is left for you to fill in.`,
      );
      continue;
    }
    notes.push(
      `The value ${JSON.stringify(placed.literal.value)} matched no parameter of ${group.tool.declaration.name}; set it by hand if it matters.`,
    );
  }
  return args;
}

/** Every place each value not yet used may go, best first. */
function getPairs(
  index: ToolIndex,
  params: IndexedParam[],
  all: readonly ClauseValue[],
  used: ReadonlySet<PlacedLiteral>,
  args: Record<string, unknown>,
): Pair[] {
  const pairs: Pair[] = [];
  all.forEach(({ clause, placed, i }, order) => {
    if (used.has(placed)) return;
    const context = getContext(index, clause, i);
    const kind = getKindNoun(params, placed);
    for (const param of params) {
      // A parameter the text already gave a value is no rival for this one.
      if (param.name in args && !param.stringList) continue;
      const placement = placeLiteral(index, placed, param, context);
      if (!placement) continue;
      // "pod worker-5c", "deployment ledger": a value after the kind of thing it is, where the
      // tool takes that kind, is the thing's name.
      if (kind && NAME_PARAM.test(param.name)) placement.score += 3;
      pairs.push({ literal: placed, param, order, ...placement });
    }
  });
  return pairs.sort(
    (a, b) => b.score - a.score || a.order - b.order || params.indexOf(a.param) - params.indexOf(b.param),
  );
}

/** Greedy by score: the best value-parameter match first, each value used once. */
function placeBestFirst(
  pairs: readonly Pair[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): { chosen: Pair[]; listed: Pair[] } {
  const chosen: Pair[] = [];
  const listed: Pair[] = [];
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
    // A list takes items of one kind: a quoted phrase is no category beside `q-bio.BM`.
    if (
      pair.param.stringList &&
      listed.some((l) => l.param === pair.param && l.literal.literal.kind !== pair.literal.literal.kind)
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
  return { chosen, listed };
}

/** "the literals A=1 and B=2": an item joined to a list's items takes the list's name with it. */
function extendLists(
  index: ToolIndex,
  listed: readonly Pair[],
  literals: readonly PlacedLiteral[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
  borrowed: ReadonlySet<PlacedLiteral>,
): void {
  for (const placed of literals) {
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
}

/**
 * Greedy placement takes the single best pair first, which can cost more than it gains: "把
 * ./Ni.cif 用 ./dpa.pt 做结构弛豫" — the model file, with 结构 right after it, edges out the
 * structure for `input_structure`, and the structure lands in `model_path`. Swap two values when
 * each fits the other's parameter and together they fit better.
 */
function improveBySwaps(chosen: Pair[], pairs: readonly Pair[], args: Record<string, unknown>): void {
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
