/**
 * Browser downloads of JSON text: the JSON panel's Download and the toolkit manager's schema
 * download save exactly the text they show (named by `getExportFileName`, lib/workflow/file-name).
 */

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
