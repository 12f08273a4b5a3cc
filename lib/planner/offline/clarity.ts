/**
 * When a value is clear enough to set (docs/design.md §6.9): a placement is kept only when no
 * other value fits its parameter, and it fits no other parameter, nearly as well; otherwise the
 * parameter stays missing and the person is told what could not be told apart.
 */
import type { PlacedLiteral } from './clauses';
import type { IndexedParam, IndexedTool } from './tool-index';
import { sameEnumValue } from './accept';
import { getRoleMark } from './context';

/** A value left unset because the text does not make its place clear, and what to tell the person. */
export interface Doubt {
  value: unknown;
  /** The other parameter the value fits as well, when the doubt is between two parameters. */
  rival?: string;
  note: string;
}

/** A parameter that holds the name of the thing a tool acts on (`name`, `resourceName`, `nodeName`). */
export const NAME_PARAM = /^(?:name|[a-z]+Name|[a-z]+_name)$/;

/**
 * The word right before an unquoted value when it is a value of the tool's type or kind
 * parameter ("pod" for `resourceType: pod | deployment | …`): the value names a thing of that kind.
 */
export function getKindNoun(params: readonly IndexedParam[], placed: PlacedLiteral): string | undefined {
  if (placed.literal.quoted || placed.literal.kind === 'path' || placed.literal.kind === 'url')
    return undefined;
  const word = /([A-Za-z]+)\s*$/.exec(placed.before)?.[1]?.toLowerCase();
  if (!word) return undefined;
  const kinds = params.filter((p) => /type|kind/i.test(p.name) && p.enum);
  return kinds.some((p) => p.enum!.some((v) => typeof v === 'string' && v.toLowerCase() === word))
    ? word
    : undefined;
}

/** How much better a placement must be than the next reading for the value to be set. */
const CLEAR_MARGIN = 0.5;
/** The same for a bare word or code, which only the words around it place. */
const WEAK_MARGIN = 2;

interface ScoredPair {
  literal: PlacedLiteral;
  param: IndexedParam;
  score: number;
  value: unknown;
}

/**
 * A value is set only when the text gives it unambiguously for that parameter: no other value of
 * the step fits the parameter nearly as well, and the value fits no other parameter nearly as
 * well (unless that one holds a value that clearly belongs there). Otherwise both readings are
 * left unset and the person is told which values and parameters could not be told apart — a
 * missing value is shown as missing, a wrong one as set.
 */
export function dropUnclear(
  tool: IndexedTool,
  chosen: readonly ScoredPair[],
  listed: readonly ScoredPair[],
  pairs: readonly ScoredPair[],
  borrowed: ReadonlySet<PlacedLiteral>,
  args: Record<string, unknown>,
): Map<string, Doubt> {
  const placed = [...chosen, ...listed];
  const holder = (param: IndexedParam) => chosen.find((c) => c.param === param);
  const home = (literal: PlacedLiteral) => placed.find((c) => c.literal === literal);
  const unclear = new Map<ScoredPair, ScoredPair>();
  for (const c of chosen) {
    if (c.param.enum) continue;
    // A bare word or code (`api-7d9f8`, `monitoring`) says least about where it goes.
    const { literal } = c.literal;
    const weak = literal.kind === 'identifier' || (literal.kind === 'name' && literal.keepWords === true);
    const margin = weak ? WEAK_MARGIN : CLEAR_MARGIN;
    const near = (p: ScoredPair) => p.score >= c.score - margin;
    const rival = pairs.find((p) => {
      if (p === c || !near(p)) return false;
      // One end of a move is contested only by a value that says it is that end ("from 'main'").
      if (p.param.role !== undefined && getRoleMark(p.literal.before) !== p.param.role) return false;
      if (p.param === c.param) {
        if (borrowed.has(p.literal)) return false;
        if (tool.params.some((q) => q.enum?.some((v) => sameEnumValue(v, p.literal.literal.value))))
          return false;
        const own = home(p.literal);
        // A value that names one of another parameter's choices ("as a POSCAR file") is that choice.
        return !own || (!own.param.enum && own.score < p.score + margin);
      }
      if (p.literal !== c.literal || p.param.stringList) return false;
      const other = holder(p.param);
      return !other || other.score < p.score + margin;
    });
    if (rival) unclear.set(c, rival);
    // "07:45 in Sydney … in Asia/Kolkata": a value for one end of a move with no "from"/"to" is
    // clear only when the other end holds a value that has one ("Move a.txt to b.txt").
    if (c.param.role !== undefined && getRoleMark(c.literal.before) === undefined) {
      const counterpart = tool.params.find((p) => p.role !== undefined && p.role !== c.param.role);
      const other = counterpart && holder(counterpart);
      if (counterpart && !(other && getRoleMark(other.literal.before) === other.param.role))
        unclear.set(c, other ?? { ...c, param: counterpart });
    }
  }
  const doubts = new Map<string, Doubt>();
  for (const [c, rival] of unclear) {
    delete args[c.param.name];
    const value = JSON.stringify(c.value);
    const note =
      rival.param === c.param
        ? `the task does not make clear which value is ${c.param.name} (${value} or ${JSON.stringify(rival.value)}); set it by hand.`
        : `the task does not make clear whether ${value} is ${c.param.name} or ${rival.param.name}; set it by hand.`;
    doubts.set(c.param.name, {
      value: c.value,
      ...(rival.literal === c.literal ? { rival: rival.param.name } : {}),
      note,
    });
  }
  return doubts;
}
