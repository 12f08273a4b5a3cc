/**
 * The raw-JSON args editor's text. Its own module so the JSON diagnosis (jsonc-parser) loads
 * with that editor tab, not with the editor.
 */
import { isJsonObject } from '../tools/json-schema';
import { parseJsonText } from '../tools/json-text';

/**
 * Parse the raw-JSON args editor's text. It must be one JSON object of argument name → value;
 * a syntax error names its line and column.
 */
export function parseArgsText(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return {
      ok: false,
      message: parsed.error[0].message.replace('Fix the file', 'Fix the text'),
    };
  }
  if (!isJsonObject(parsed.value)) {
    const kind = Array.isArray(parsed.value)
      ? 'an array'
      : parsed.value === null
        ? 'null'
        : typeof parsed.value;
    return {
      ok: false,
      message: `The arguments must be a JSON object of name → value, not ${kind}. Wrap them in { }.`,
    };
  }
  return { ok: true, value: parsed.value };
}
