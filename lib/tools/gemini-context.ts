/**
 * What the steps of the Gemini conversion (`gemini-schema.ts`) share: where they report what
 * they changed, how type names are written, and the small edits several of them make.
 */
import type { Issue } from '../result';
import type { JsonSchema } from './types';

/** The state of one `toGeminiSchema` call, shared by every schema it converts. */
export interface ToGeminiContext {
  /** The whole input schema: local `$ref`s resolve against it. */
  root: JsonSchema;
  issues: Issue[];
  /** A JSON Schema type name as Gemini is sent it (`STRING`, or `string`). */
  typeName: (jsonType: string) => string;
}

/**
 * Convert a schema inside the one being converted (a property, a branch, the items), at `path`,
 * with the references inlined around it carried along.
 */
export type ConvertChild = (raw: unknown, path: string) => JsonSchema;

export function report(ctx: ToGeminiContext, path: string, code: string, message: string): void {
  ctx.issues.push({ path, code, message });
}

/** Keep a constraint Gemini cannot take as words the model still reads. */
export function appendDescription(out: JsonSchema, note: string): void {
  out.description =
    typeof out.description === 'string' && out.description !== '' ? `${out.description} (${note})` : note;
}
