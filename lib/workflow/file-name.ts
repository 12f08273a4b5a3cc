/**
 * The one file name of a workflow's export, used by the server's Export (`GET
 * /api/workflows/:id/export`, the share link's) and the editor's Download alike, so both save the
 * same file under the same name.
 */

/** The longest slug kept before the suffix. */
const MAX_SLUG = 80;

/**
 * A file name from a workflow name: accents dropped, other symbols removed, spaces as dashes, and
 * no run of dots or dashes ("… dpa.pt…", whose ellipsis decomposes to three dots, gives
 * `dpa.pt.toolflow.json`, not `dpa.pt....toolflow.json`); `workflow` when nothing is left.
 */
export function getExportFileName(name: string, suffix = '.toolflow.json'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w\s.-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    // A dot among dashes and dots stands for all of them; dashes alone become one.
    .replace(/[.-]*\.[.-]*/g, '.')
    .replace(/-{2,}/g, '-')
    .slice(0, MAX_SLUG)
    // The suffix starts with its own dot: the slug neither ends nor starts with one (or a dash).
    .replace(/^[.-]+|[.-]+$/g, '');
  return `${slug || 'workflow'}${suffix}`;
}
