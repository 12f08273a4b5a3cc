/**
 * Workflow names: stored whole, up to WORKFLOW_NAME_MAX characters (a longer one is refused by
 * the API with 400), and shortened only where they are shown (an ellipsis in CSS, the whole name
 * in a `title`). Names the app makes itself (from a task, a copy, a fork, an imported file) are
 * fitted to the bound at a word boundary, without an ellipsis: what is stored is a name, not a
 * display.
 */

/** The longest workflow name, in UTF-16 code units (as JSON Schema's maxLength and `length` count). */
export const WORKFLOW_NAME_MAX = 200;

/**
 * `text` with its whitespace runs made single spaces and trimmed, cut to at most `max` characters
 * at the last space when there is one in the second half of the cut (else where the bound falls),
 * and without a trailing comma, semicolon or colon.
 */
export function fitName(text: string, max = WORKFLOW_NAME_MAX): string {
  const name = text.replace(/\s+/g, ' ').trim();
  if (name.length <= max) return name;
  const cut = name.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '');
}

/** The name of a duplicate: "Copy of <name>", fitted to the bound. */
export function getCopyName(name: string): string {
  return fitName(`Copy of ${name}`);
}
