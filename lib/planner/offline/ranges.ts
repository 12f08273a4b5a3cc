/**
 * Two ends of a span in the text ("from 0.9 to 1.1", "lines 120 to 180", "between 2025-03-01 and
 * 2025-03-15", "on 2026-03-20 from 13:00 to 17:00", "从 300 到 900 K"): the ends (and a step) go
 * to a list of numbers, or the first end to the parameter that starts a span and the second to
 * the one that ends it (startLine/endLine, minPrice/maxPrice, timeMin/timeMax, checkin/checkout).
 */
import type { PlacedLiteral } from './clauses';
import { getPlacedValue, isAccepted } from './accept';
import { getContext, getNamingScore } from './context';
import type { ClauseValue } from './spans';
import type { IndexedParam, ToolIndex } from './tool-index';
import { convertUnit, getDescribedUnit, getDimension, getParamDimension } from './units';

/** Words before the first end of a span ("from 0.9", "between 300", "从 0"). */
const SPAN_START = /(?:\b(?:from|between)|从|由)\s*$/i;
/** Words between the two ends ("to", "-", "and" after between, 到). */
const SPAN_JOIN = /^\s*(?:to|through|until|till|-|–|~|and|到|至)\s*$/i;
/** Words before a step ("in steps of 10 K", "step 5", "步长 10"). */
const SPAN_STEP =
  /^\s*[,，]?\s*(?:(?:in|with|at)\s+(?:a\s+)?steps?\s+of|steps?(?:\s+of)?|every|步长为?|间隔为?|每)\s*$/i;
/** Kinds of value a span is written in. */
const SPAN_KINDS = new Set(['number', 'date', 'time']);

interface Span {
  ends: [ClauseValue, ClauseValue];
  /** A step after the ends ("in steps of 10 K"), for a span of numbers. */
  step?: ClauseValue;
  /** Whether the words before the first end open a span ("from", "between", 从). */
  opened: boolean;
}

/**
 * The spans among a step's values: two values of one kind, the second after "to" (or after "and"
 * when the first came after "between"), in one clause — or "between A" ending one clause and B
 * starting the next, where the clause was cut at "and".
 */
function findSpans(all: readonly ClauseValue[], used: ReadonlySet<PlacedLiteral>): Span[] {
  const spans: Span[] = [];
  const free = (k: number, kind?: string) =>
    all[k] !== undefined &&
    !used.has(all[k].placed) &&
    SPAN_KINDS.has(all[k].placed.literal.kind) &&
    (kind === undefined || all[k].placed.literal.kind === kind);
  for (let k = 0; k + 1 < all.length; k++) {
    const a = all[k];
    const b = all[k + 1];
    const kind = a.placed.literal.kind;
    if (!free(k) || !free(k + 1, kind)) continue;
    const opened = SPAN_START.test(a.placed.before);
    const between = /\bbetween\s*[$€£¥￥]?\s*$/i.test(a.placed.before);
    const joined =
      a.clause === b.clause
        ? SPAN_JOIN.test(b.placed.before) && (between || !/^\s*and\s*$/i.test(b.placed.before))
        : between &&
          b.i === 0 &&
          /^\s*[$€£¥￥]?\s*$/.test(b.placed.before) &&
          a.i === a.clause.literals.length - 1;
    if (!joined) continue;
    const c = all[k + 2];
    const step =
      kind === 'number' && free(k + 2, kind) && c.clause === b.clause && SPAN_STEP.test(c.placed.before)
        ? c
        : undefined;
    spans.push({ ends: [a, b], step, opened });
    k += step ? 2 : 1;
  }
  return spans;
}

/** Fill lists and start/end pairs from the spans of the text (see the module comment). */
export function fillSpans(
  index: ToolIndex,
  params: IndexedParam[],
  all: ClauseValue[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  for (const span of findSpans(all, used)) {
    if (fillSpanList(index, params, span, args, used)) continue;
    fillSpanEnds(index, params, all, span, args, used);
  }
}

/**
 * "volumes from 0.9 to 1.1", "from 0 to 1000 K in steps of 10 K": the ends (and step) of a span
 * of numbers, for a list of numbers the words around the span name, or whose unit the span's
 * unit measures. The list must take that many items.
 */
function fillSpanList(
  index: ToolIndex,
  params: IndexedParam[],
  span: Span,
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): boolean {
  const [a] = span.ends;
  if (!span.opened || a.placed.literal.kind !== 'number' || span.ends[1].clause !== a.clause) return false;
  const ends = span.step ? [...span.ends, span.step] : span.ends;
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
    return true;
  }
  return false;
}

/** Words of a parameter's name or description that say it starts or ends a span. */
const START_WORDS = /^(?:start|starting|begin|beginning|from|since|min|minimum|lower|earliest|checkin)$/;
const END_WORDS = /^(?:end|ending|to|until|max|maximum|upper|latest|checkout)$/;
/** Words that say a number is money ("between $1,200 and $2,500"), and a parameter that takes it. */
const CURRENCY_BEFORE = /[$€£¥￥]\s*$/;
const MONEY_PARAM = /price|cost|budget|amount|fee|价格|费用|预算/i;

/** Which end of a span a parameter is, and what it is a span of (startLine → start, "line"). */
function getSpanEnd(param: IndexedParam): { end: 'start' | 'end'; of: string } | undefined {
  const words = param.name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/);
  const lead = /^[a-z-]+/i.exec(param.description)?.[0].toLowerCase().replace(/-/g, '') ?? '';
  const isStart = words.some((w) => START_WORDS.test(w)) || START_WORDS.test(lead);
  const isEnd = words.some((w) => END_WORDS.test(w)) || END_WORDS.test(lead);
  if (isStart === isEnd) return undefined;
  const of = words.filter((w) => !START_WORDS.test(w) && !END_WORDS.test(w)).join(' ');
  return { end: isStart ? 'start' : 'end', of };
}

/** A text parameter that takes a date and a time together (ISO 8601 with a `T`, `date-time`). */
function takesDateTime(param: IndexedParam): boolean {
  return param.format === 'date-time' || /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(param.description);
}

/**
 * The value one end of a span gives `param`, or undefined when the schema does not admit it: a
 * number of the parameter's kind and unit, a date where dates go (with its time joined by `T`
 * where the parameter takes both), a time of day joined to the date before the span.
 */
function getEndValue(end: PlacedLiteral, param: IndexedParam, day: string | undefined): unknown {
  const { literal } = end;
  if (literal.kind === 'number') {
    if (
      param.type === 'list' ||
      (literal.unit !== undefined && param.dimension !== getDimension(literal.unit))
    )
      return undefined;
    const value = getPlacedValue(literal, param);
    return isAccepted(param, value) ? value : undefined;
  }
  if (param.type !== 'str' || !(param.holds.date || param.holds.time || param.format)) return undefined;
  const text = String(literal.value);
  if (literal.kind === 'time') {
    if (day !== undefined && takesDateTime(param)) return `${day}T${text}:00`;
    return day === undefined && (param.format === 'time' || param.holds.time) ? text : undefined;
  }
  if (!/\d:\d/.test(text)) return param.format === 'time' ? undefined : text;
  if (!takesDateTime(param)) return undefined;
  return text.replace(' ', 'T').replace(/T(\d{2}:\d{2})$/, 'T$1:00');
}

/**
 * "lines 120 to 180", "between 2025-03-01 and 2025-03-15", "on 2026-03-20 from 13:00 to 17:00":
 * the first end to the parameter that starts the span, the second to the one that ends it, when
 * the tool has one such pair that takes both. A span of numbers needs words that name the pair
 * ("lines", or a currency sign for a price): numbers alone say nothing of what they count.
 */
function fillSpanEnds(
  index: ToolIndex,
  params: IndexedParam[],
  all: readonly ClauseValue[],
  span: Span,
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  const [a, b] = span.ends;
  // "on 2026-03-20 from 13:00 to 17:00": the date the times fall on.
  const before = all[all.indexOf(a) - 1];
  const dated =
    a.placed.literal.kind === 'time' &&
    before?.clause === a.clause &&
    before.placed.literal.kind === 'date' &&
    !used.has(before.placed) &&
    !/\d:\d/.test(String(before.placed.literal.value))
      ? before
      : undefined;
  const day = dated ? String(dated.placed.literal.value) : undefined;
  const context = getContext(index, a.clause, a.i);
  const money = CURRENCY_BEFORE.test(a.placed.before);
  const fits: { start: IndexedParam; end: IndexedParam; values: [unknown, unknown]; named: number }[] = [];
  for (const start of params) {
    const s = getSpanEnd(start);
    if (s?.end !== 'start' || start.name in args) continue;
    for (const end of params) {
      const e = getSpanEnd(end);
      if (e?.end !== 'end' || e.of !== s.of || end.name in args) continue;
      const values: [unknown, unknown] = [getEndValue(a.placed, start, day), getEndValue(b.placed, end, day)];
      if (values.some((v) => v === undefined)) continue;
      const named =
        getNamingScore(start, a.placed, context) +
        getNamingScore(end, a.placed, context) +
        (money && MONEY_PARAM.test(`${start.name} ${start.description}`) ? 1 : 0);
      if (a.placed.literal.kind === 'number' && named === 0) continue;
      fits.push({ start, end, values, named });
    }
  }
  fits.sort((x, y) => y.named - x.named);
  // One pair, or one the words name more than any other.
  if (fits.length === 0 || (fits.length > 1 && fits[1].named >= fits[0].named)) return;
  const [fit] = fits;
  args[fit.start.name] = fit.values[0];
  args[fit.end.name] = fit.values[1];
  for (const e of dated ? [dated, a, b] : [a, b]) used.add(e.placed);
}

/**
 * "checking in March 3, 2026 and checking out March 7, 2026", "2026年4月3日入住，4月6日退房":
 * two dates the step gives apart from a span, for a tool with one pair of parameters that start
 * and end a period and no other place for a date. The earlier date starts the period: a stay
 * or a window does not end before it starts.
 */
export function fillDatePair(
  params: IndexedParam[],
  all: readonly ClauseValue[],
  args: Record<string, unknown>,
  used: Set<PlacedLiteral>,
): void {
  const dates = all.filter((a) => a.placed.literal.kind === 'date' && !used.has(a.placed));
  if (dates.length !== 2) return;
  // A date alone in its clause is an item of a list ("2024-01-05, 2024-01-20 and …"), not an end.
  const alone = (d: ClauseValue) =>
    !/[\p{L}]/u.test(d.clause.text.replace(String(d.placed.literal.value), ''));
  if (dates.some(alone)) return;
  const [first, second] = dates.map((d) => String(d.placed.literal.value)).sort();
  if (first === second) return;
  const takers = params.filter(
    (p) => !(p.name in args) && getEndValue(dates[0].placed, p, undefined) !== undefined,
  );
  const start = takers.filter((p) => getSpanEnd(p)?.end === 'start');
  const end = takers.filter((p) => getSpanEnd(p)?.end === 'end');
  if (takers.length !== 2 || start.length !== 1 || end.length !== 1) return;
  if (getSpanEnd(start[0])!.of !== getSpanEnd(end[0])!.of) return;
  const early = dates.find((d) => String(d.placed.literal.value) === first)!;
  const late = dates.find((d) => String(d.placed.literal.value) === second)!;
  const values = [
    getEndValue(early.placed, start[0], undefined),
    getEndValue(late.placed, end[0], undefined),
  ];
  if (values.some((v) => v === undefined)) return;
  args[start[0].name] = values[0];
  args[end[0].name] = values[1];
  used.add(early.placed);
  used.add(late.placed);
}
