/**
 * A workflow's first name, taken from the task typed on the home page: its first sentence, whole
 * (fitted to the stored bound only when longer), so the workflow list reads like the tasks people
 * typed. Where the list or the editor has less room, CSS shortens it for display.
 */
import { fitName } from '../workflow/name';

/** The name for a workflow planned from `task` ("Untitled workflow" for a blank task). */
export function getWorkflowNameFromTask(task: string): string {
  // A URL reads better as its file name: "…/structures/Cu_bulk.cif" → "Cu_bulk.cif".
  const text = task
    .replace(/\bhttps?:\/\/[^\s]*?(?=[),.;]*(?:\s|$))/g, (url) => url.split('/').filter(Boolean).pop() ?? url)
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return 'Untitled workflow';
  // The first sentence; a full stop inside a URL or a number ("dpa-2.4-7M.pt") does not end it.
  const sentence = text.split(/(?<=[.!?。！？])\s/)[0].replace(/[.!?。！？]+$/, '');
  return fitName(sentence);
}
