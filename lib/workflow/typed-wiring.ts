/**
 * The one typed-wiring rule: which output may feed which input, and what a test-run does with
 * the value an edge carries. Pure; every road that writes or runs a document uses it:
 *
 * - `connect` (lib/workflow/commands/document.ts), which the editor, the planner and
 *   `toolflow build` call to make an edge, refuses an edge the rule refuses;
 * - import's integrity check (lib/workflow/import-integrity.ts), which is also the write check
 *   of create, save, import, restore and fork (lib/workflow/check.ts), refuses a file or
 *   document holding one, at the edge's JSON path;
 * - a stored document that holds one (saved before the rule was checked on every road) still
 *   loads: its target node shows a `type_mismatch` error (lib/workflow/params.ts), and a test-run
 *   blocks that node before anything is called (lib/run/preflight.ts);
 * - a test-run converts the value an edge carries with `convertFedValue`, which converts only
 *   on edges the rule accepts.
 *
 * The rule (docs/architecture.md says why):
 * - an output feeds an input of the same type; an `int` output also feeds a `float` input
 *   (every int is a float);
 * - `any` on either side fits everything: an output whose type is unknown until the call returns
 *   (the `result` of a tool without an output schema) or an input that takes anything;
 * - any other pair is refused: no typed value is turned into another type.
 *
 * At run time a value from a typed output passes unchanged (the input-schema check before the
 * call catches a tool that broke its own output schema). A value from an `any` output is read as
 * the input's type, because such a tool usually answers with text: see `convertFedValue`.
 */
import { err, ok, type Result } from '../result';
import { isJsonObject } from '../tools/json-schema';
import { parseJson } from '../tools/json-value';
import type { ParamType } from '../tools/types';

/** A typed end of an edge: an output of the source or an input of the target. */
export interface TypedPort {
  name: string;
  type: ParamType;
}

/** Whether an output of type `out` may feed an input of type `input`. */
export function isTypeCompatible(out: ParamType, input: ParamType): boolean {
  return out === input || out === 'any' || input === 'any' || (out === 'int' && input === 'float');
}

/**
 * Why output `out` may not feed input `input` (`Output "n" is int but input "q" takes str`), or
 * undefined when the rule accepts the edge. Callers add what to do, which depends on where the
 * person is (dragging a new edge, or holding a saved one).
 */
export function getTypeClash(out: TypedPort, input: TypedPort): string | undefined {
  if (isTypeCompatible(out.type, input.type)) return undefined;
  return `Output "${out.name}" is ${out.type} but input "${input.name}" takes ${input.type}`;
}

/** What to do about an edge that is already there and the rule refuses. */
export function getTypeClashRemedy(input: TypedPort): string {
  return `remove the edge, then set "${input.name}" or feed it from an output of type ${input.type} (or any)`;
}

const describe = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/**
 * The value a test-run passes to an input of type `input` from an output of type `out`, or why
 * it cannot. On an edge from a typed output the value passes unchanged. From an `any` output it
 * is read as the input's type:
 * - `any`: unchanged;
 * - `str`: a string unchanged; a number or boolean as written (`String`); null, an object or an
 *   array as compact JSON text;
 * - `int`: an integer unchanged; a string holding an integer (`"42"`, spaces allowed) parsed;
 * - `float`: a number unchanged; a string holding a finite number parsed;
 * - `bool`: a boolean unchanged; the strings `"true"` / `"false"` (any case) parsed;
 * - `list`: an array unchanged; a string holding a JSON array parsed;
 * - `dict`: an object unchanged; a string holding a JSON object parsed.
 * Anything else is refused: no value is guessed. An edge the rule refuses is refused here too
 * (a test-run blocks such a node before it starts, so this never converts one).
 */
export function convertFedValue(value: unknown, out: ParamType, input: ParamType): Result<unknown, string> {
  if (!isTypeCompatible(out, input))
    return err(`an output of type ${out} cannot feed an input of type ${input}`);
  if (out !== 'any') return ok(value);
  return readAs(value, input);
}

function readAs(value: unknown, type: ParamType): Result<unknown, string> {
  const refuse = (why = '') => err(`cannot turn ${describe(value)} into ${type}${why}`);
  switch (type) {
    case 'any':
      return ok(value);
    case 'str':
      if (typeof value === 'string') return ok(value);
      if (typeof value === 'number' || typeof value === 'boolean') return ok(String(value));
      return ok(JSON.stringify(value));
    case 'int': {
      if (typeof value === 'number')
        return Number.isInteger(value) ? ok(value) : refuse(' (not a whole number)');
      if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) {
        const n = Number(value);
        return Number.isSafeInteger(n) ? ok(n) : refuse(' (too large)');
      }
      return refuse();
    }
    case 'float': {
      if (typeof value === 'number') return ok(value);
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
        return ok(Number(value));
      return refuse();
    }
    case 'bool': {
      if (typeof value === 'boolean') return ok(value);
      if (typeof value === 'string' && /^\s*(true|false)\s*$/i.test(value))
        return ok(value.trim().toLowerCase() === 'true');
      return refuse();
    }
    case 'list':
    case 'dict': {
      const fits = (v: unknown) => (type === 'list' ? Array.isArray(v) : isJsonObject(v));
      if (fits(value)) return ok(value);
      if (typeof value === 'string') {
        try {
          const parsed: unknown = parseJson(value);
          if (fits(parsed)) return ok(parsed);
        } catch {
          return refuse(' (the text is not JSON)');
        }
      }
      return refuse();
    }
    default:
      return refuse();
  }
}
