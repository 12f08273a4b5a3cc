/**
 * A workflow's first name, taken from the task typed on the home page: its first sentence,
 * cut at a word boundary, so the workflow list reads like the tasks people typed.
 */

const MAX_NAME = 60;

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
  if (sentence.length <= MAX_NAME) return sentence;
  const cut = sentence.slice(0, MAX_NAME - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 12 ? cut.slice(0, space) : cut).replace(/[,;:]$/, '')}…`;
}
