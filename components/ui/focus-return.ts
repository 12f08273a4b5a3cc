/**
 * Where focus goes when a dialog closes: back to the element that opened it, or, when that one is
 * gone (a revoked link's button leaves with its row), to the dialog it was in, so focus is never
 * dropped on the page's body behind an open dialog.
 */
export interface Opener {
  element: HTMLElement | null;
  /** The dialog the opener sits in, if any. */
  within: HTMLElement | null;
}

/** The element focused now: call it as a dialog mounts, before the dialog takes focus. */
export function getOpener(): Opener {
  if (typeof document === 'undefined') return { element: null, within: null };
  const element = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return { element, within: element?.closest<HTMLElement>('[role="dialog"], [role="alertdialog"]') ?? null };
}

/** Focuses the opener if it is still on the page and focusable, else the dialog it was in. */
export function returnFocus({ element, within }: Opener): void {
  if (element?.isConnected && !element.matches(':disabled')) element.focus();
  else if (within?.isConnected) within.focus();
}
