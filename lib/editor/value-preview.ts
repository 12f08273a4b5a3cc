/**
 * One-line previews of parameter values for the canvas: short enough for a node row, exact
 * enough to recognise the value (the full JSON goes in the tooltip).
 */

const MAX_INLINE = 48;

/** A short text for a value: strings as written, numbers and booleans as JSON, containers summarised when long. */
export function getValuePreview(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (value === null || typeof value !== 'object') return String(value);
  const json = JSON.stringify(value);
  if (json.length <= MAX_INLINE) return json;
  if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? '' : 's'}]`;
  const keys = Object.keys(value);
  return `{${keys.length} key${keys.length === 1 ? '' : 's'}: ${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ', …' : ''}}`;
}

/** The full value for a tooltip: JSON, pretty-printed and capped. */
export function getValueTitle(value: unknown): string {
  const json = JSON.stringify(value, null, 2) ?? 'undefined';
  return json.length > 2000 ? `${json.slice(0, 2000)}…` : json;
}
