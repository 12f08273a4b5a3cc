/**
 * Browser downloads of JSON text: the JSON panel's Download and the toolkit manager's schema
 * download save exactly the text they show.
 */

/**
 * A file name from a workflow name, the same one the server's Export gives (`GET
 * /api/workflows/:id/export`): accents dropped, other symbols removed, spaces as dashes.
 */
export function getDownloadName(name: string, suffix = '.toolflow.json'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w\s.-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80);
  return `${slug || 'workflow'}${suffix}`;
}

/** Saves `text` as a file through a temporary object URL (browser only). */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked on the next tick: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
