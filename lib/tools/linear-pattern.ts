/**
 * The one regular-expression engine for patterns that come from data (a schema's `pattern` and
 * `patternProperties` keys): RE2 (re2js, pure JavaScript), whose time grows with the length of
 * the value, never exponentially, so a pattern such as `^(a+)+$` cannot freeze the server or a
 * browser tab. Every Ajv in Toolflow takes `linearRegExp` as its `code.regExp` (the core's
 * schema-validator.ts, lib/http/body.ts, the inspector's form); the offline planner uses
 * `compileLinearPattern` directly.
 *
 * A pattern is first read as ECMAScript (the `u` flag, as Ajv reads it): one that is not valid
 * there throws a SyntaxError, as `new RegExp` would. A valid one that RE2 cannot express (a
 * backreference, a lookaround) is never evaluated: its matcher passes every value, and
 * schema-patterns.ts reports it on the tool with its path.
 *
 * Linear is not free: a check costs about (length of the value) × (size of the compiled
 * pattern), measured at up to ~20 ns per unit of `getCheckCost`, and compiling grows with the
 * pattern written out (`a{1000}` is a thousand copies). So a pattern longer than
 * MAX_PATTERN_LENGTH or larger than MAX_PATTERN_SIZE is not compiled (reported like one RE2
 * cannot express); one check larger than CHECK_LIMIT, and every check or compilation once
 * RUN_LIMIT_MS of pattern time is spent in one synchronous run of code (an export, a render of
 * the canvas), is skipped: the value passes, and `collectPatternSkips` tells the caller, which
 * reports the value as not checked.
 */
import { RE2JS } from 're2js';
import { translatePattern } from './pattern-syntax';

/** A compiled pattern: `test` as RegExp's (for Ajv), `match` undefined when it was not evaluated. */
export interface PatternMatcher {
  test(value: string): boolean;
  match(value: string): boolean | undefined;
  /** The size of the compiled program (0 when the pattern is never evaluated), for getCheckCost. */
  readonly size: number;
  toString(): string;
}

export type CompiledPattern =
  | { ok: true; matcher: PatternMatcher }
  /** Valid ECMAScript that RE2 cannot express: never evaluated. */
  | { ok: false; reason: string };

/** The per-character overhead of a check, in units of compiled-pattern size (measured). */
const CHARACTER_COST = 16;
/** Most units one check may cost: about 50 ms at the slowest measured rate. */
export const CHECK_LIMIT = 2_500_000;
/**
 * Most milliseconds of pattern checks in one synchronous run of code: far more than a real
 * document needs (a check of a short value takes microseconds), so only a document built to be
 * slow reaches it, and then what remains of it is reported unchecked instead of freezing.
 */
export const RUN_LIMIT_MS = 1_000;
/**
 * Largest pattern compiled, in the units of translatePattern's size estimate (a counted
 * repetition multiplies what it repeats): compiling one this size took up to about 200 ms in
 * re2js here; real patterns are a few hundred units at most.
 */
export const MAX_PATTERN_SIZE = 10_000;
/** Longest pattern read at all, in characters; real patterns are a few hundred at most. */
export const MAX_PATTERN_LENGTH = 5_000;
/** After a check of a value this long, the pattern's DFA cache is dropped (it can reach 8 MB). */
const DFA_RESET_LENGTH = 4_096;
/** Compiled patterns kept: at most this many, of at most this much program in all. */
const MAX_CACHED = 512;
const MAX_CACHED_SIZE = 200_000;

/** What one check of `value` against a pattern of `size` costs, in the units of CHECK_LIMIT. */
export function getCheckCost(size: number, length: number): number {
  return (length + 1) * (size + CHARACTER_COST);
}

const cache = new Map<string, CompiledPattern>();
let cachedSize = 0;
let runSpent = 0;
let runResetQueued = false;
let skipLog: Set<string> | undefined;

/**
 * Compile a pattern for linear-time matching. `flags` as RegExp's: `u` is implied, `i`, `m` and
 * `s` are honoured, `g`, `y` and `d` change nothing a test needs. Throws a SyntaxError when the
 * pattern is not a valid ECMAScript regular expression.
 */
export function compileLinearPattern(pattern: string, flags = 'u'): CompiledPattern {
  const key = `${flags}/${pattern}`;
  const cached = cache.get(key);
  if (cached) return cached;
  if (flags.includes('v')) throw new SyntaxError(`Invalid flags for a schema pattern: ${flags}`);
  if (pattern.length > MAX_PATTERN_LENGTH) {
    // Not even read: parsing costs time too (V8 takes about 0.1 ms per Unicode property).
    const tooLong = {
      ok: false as const,
      reason: `a length of ${pattern.length} characters (Toolflow checks patterns of at most ${MAX_PATTERN_LENGTH})`,
    };
    remember(key, tooLong);
    return tooLong;
  }
  // Compiling costs time too: once the run has spent its pattern time, a new pattern is not
  // compiled (nor remembered), and every value passes it as unchecked.
  if (runSpent >= RUN_LIMIT_MS) {
    skipLog?.add(pattern);
    return { ok: true, matcher: createDeferred(pattern, flags) };
  }
  const started = performance.now();
  try {
    // The ECMAScript reading decides what is valid; V8 parses without running, in linear time.
    new RegExp(pattern, `u${flags.replace(/[^ims]/g, '')}`);
    const compiled = compileTranslated(pattern, flags);
    remember(key, compiled);
    return compiled;
  } finally {
    chargeRun(performance.now() - started);
  }
}

/** Keeps a compiled pattern, forgetting the oldest ones past MAX_CACHED or MAX_CACHED_SIZE. */
function remember(key: string, compiled: CompiledPattern): void {
  const sizeOf = (c: CompiledPattern) => (c.ok ? c.matcher.size : 0);
  cache.set(key, compiled);
  cachedSize += sizeOf(compiled);
  for (const [oldest, entry] of cache) {
    if (cache.size <= MAX_CACHED && cachedSize <= MAX_CACHED_SIZE) break;
    if (oldest === key) break;
    cache.delete(oldest);
    cachedSize -= sizeOf(entry);
  }
}

function compileTranslated(pattern: string, flags: string): CompiledPattern {
  const translated = translatePattern(pattern, flags.includes('s'));
  if (!translated.ok) return translated;
  if (translated.size > MAX_PATTERN_SIZE) {
    return {
      ok: false,
      reason: `a program too large to check quickly (about ${translated.size} steps once its counted repetitions are written out; at most ${MAX_PATTERN_SIZE})`,
    };
  }
  try {
    let re2Flags = 0;
    if (flags.includes('i')) re2Flags |= RE2JS.CASE_INSENSITIVE;
    if (flags.includes('m')) re2Flags |= RE2JS.MULTILINE;
    return { ok: true, matcher: createMatcher(pattern, flags, RE2JS.compile(translated.source, re2Flags)) };
  } catch (error) {
    // RE2's own limits: a repetition over 1000, nesting too deep.
    const message = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : '';
    return { ok: false, reason: `something RE2 does not accept (${message})` };
  }
}

function createMatcher(pattern: string, flags: string, re: RE2JS): PatternMatcher {
  const size = re.programSize();
  const match = (value: string): boolean | undefined => {
    if (getCheckCost(size, value.length) > CHECK_LIMIT || runSpent >= RUN_LIMIT_MS) {
      skipLog?.add(pattern);
      return undefined;
    }
    const start = performance.now();
    try {
      return re.test(value);
    } finally {
      chargeRun(performance.now() - start);
      if (value.length > DFA_RESET_LENGTH) re.re2().lazyDFA = null as never;
    }
  };
  return {
    test: (value) => match(String(value)) ?? true,
    match,
    size,
    // Ajv keys the patterns of a validator by this text.
    toString: () => `/${pattern}/${flags}`,
  };
}

/** Counts pattern time against the current synchronous run; the count restarts after it. */
function chargeRun(ms: number): void {
  runSpent += ms;
  if (!runResetQueued) {
    runResetQueued = true;
    queueMicrotask(() => {
      runSpent = 0;
      runResetQueued = false;
    });
  }
}

/** A matcher for a pattern that is never evaluated: every value passes. */
function createUnevaluated(pattern: string, flags: string): PatternMatcher {
  return { test: () => true, match: () => undefined, size: 0, toString: () => `/${pattern}/${flags}` };
}

/** A matcher for a pattern left uncompiled for lack of time: every value passes, as skipped. */
function createDeferred(pattern: string, flags: string): PatternMatcher {
  const match = () => {
    skipLog?.add(pattern);
    return undefined;
  };
  return { test: () => match() ?? true, match, size: 0, toString: () => `/${pattern}/${flags}` };
}

/**
 * Ajv's `code.regExp` engine. A pattern RE2 cannot express passes every value (the caller
 * reports it, see schema-patterns.ts); an invalid one throws, failing the schema's compilation.
 */
export const linearRegExp = Object.assign(
  (pattern: string, flags: string): PatternMatcher => {
    const compiled = compileLinearPattern(pattern, flags);
    return compiled.ok ? createLookup(pattern, flags) : createUnevaluated(pattern, flags);
  },
  { code: 'linearRegExp' },
);

/**
 * What Ajv keeps of a pattern: its text. An Ajv instance keeps every pattern it has compiled for
 * as long as it lives, so the compiled program stays in this module's bounded cache instead,
 * found again (or compiled again) at each check.
 */
function createLookup(pattern: string, flags: string): PatternMatcher {
  const resolve = () => {
    const compiled = compileLinearPattern(pattern, flags);
    return compiled.ok ? compiled.matcher : createUnevaluated(pattern, flags);
  };
  return {
    test: (value) => resolve().test(value),
    match: (value) => resolve().match(value),
    get size() {
      return resolve().size;
    },
    toString: () => `/${pattern}/${flags}`,
  };
}

/**
 * Runs `fn` and lists the patterns whose checks it skipped (too long a value, or the run's
 * pattern time spent), so the caller can say which values were not checked.
 */
export function collectPatternSkips<T>(fn: () => T): { value: T; skipped: string[] } {
  const outer = skipLog;
  const log = new Set<string>();
  skipLog = log;
  try {
    const value = fn();
    return { value, skipped: [...log] };
  } finally {
    skipLog = outer;
    for (const pattern of log) outer?.add(pattern);
  }
}
