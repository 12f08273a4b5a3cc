/**
 * What the steps of the strict-mode conversion (`strict-schema.ts`) share: where they report what
 * they changed, and the small edits several of them make.
 */
import type { Issue } from '../result';
import type { JsonSchema } from './types';

/** The state of one `toStrictSchema` call, shared by every schema it converts. */
export interface StrictContext {
  /** The whole input schema: local `$ref`s resolve against it. */
  root: JsonSchema;
  issues: Issue[];
  /** JSON Pointers of optional properties that became null unions. */
  nullableOptional: string[];
  /** Properties in the whole schema so far (strict mode limits the total). */
  propertyCount: number;
}

/**
 * Convert a schema inside the one being converted (a property, a branch, the items, a
 * definition), at `path`, with the references inlined around it carried along.
 */
export type ConvertChild = (raw: unknown, path: string) => JsonSchema;

export function report(ctx: StrictContext, path: string, code: string, message: string): void {
  ctx.issues.push({ path, code, message });
}

/**
 * The type a schema that could not be kept is narrowed to: any JSON value but an object or an
 * array (strict mode cannot leave a value untyped). A fresh list each time, as each schema owns it.
 */
export function getScalarTypes(): string[] {
  return ['string', 'number', 'boolean', 'null'];
}

/** Keep a constraint strict mode cannot send as words the model still reads. */
export function appendDescription(out: JsonSchema, note: string): void {
  out.description =
    typeof out.description === 'string' && out.description !== '' ? `${out.description} (${note})` : note;
}
