/**
 * Workflows, runs and share links for the layout, dialog and accessibility specs, made through
 * the API as the browser `page` belongs to (page.request shares its owner cookie). Plans come
 * from the offline planner and the built-in toolkits, so they hold real declarations.
 */
import { expect, type Page } from '@playwright/test';

export const MATERIALS_TASK =
  'Build a bulk fcc Cu structure, relax it with the model /opt/models/dpa3.pt, then calculate phonons';
export const MEMORY_TASK =
  "Create entities Alice and Bob, relate Alice to Bob as 'knows', then read the graph";

export interface CreatedWorkflow {
  id: string;
  version: number;
  name: string;
}

interface PlannedNode {
  id: string;
  args: Record<string, unknown>;
}

/** The document the offline planner makes for `task` with the given toolkits. */
export async function planDocument(page: Page, task: string, toolkitIds: string[]) {
  const res = await page.request.post('/api/plan', { data: { task, toolkitIds, llm: 'offline' } });
  expect(res.status()).toBe(200);
  const lines = (await res.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; document?: { nodes: PlannedNode[] } });
  const planned = lines.find((line) => line.type === 'document')?.document;
  if (!planned) throw new Error(`no document planned for "${task}"`);
  return planned;
}

async function createWorkflow(page: Page, name: string, document: unknown): Promise<CreatedWorkflow> {
  const res = await page.request.post('/api/workflows', { data: { name, document } });
  expect(res.status()).toBe(201);
  return (await res.json()).workflow as CreatedWorkflow;
}

/** Three materials-science steps (build → relax → phonons) with bilingual tool titles. */
export async function createMaterialsWorkflow(page: Page, name = 'Relax copper and compute its phonons') {
  return createWorkflow(page, name, await planDocument(page, MATERIALS_TASK, ['tk_builtin_materials']));
}

/** The runnable Memory sample: create two entities, relate them, read the graph. */
export async function createMemoryWorkflow(page: Page, name = 'Alice knows Bob') {
  const document = await planDocument(page, MEMORY_TASK, ['tk_builtin_memory']);
  // The task does not say the entities' type, which the tool requires.
  for (const entity of document.nodes[0].args.entities as Record<string, unknown>[])
    entity.entityType = 'person';
  return createWorkflow(page, name, document);
}

/** The Files sample: create a folder, write a file into it, list it (every value quoted). */
export const FILES_TASK =
  'Create the folder "notes", write "Buy milk" to "notes/todo.txt", then list the folder "notes"';
/** The Files sample: read a file that does not exist, write what it read, list the folder. */
export const FAILING_TASK =
  'Read the file "notes/missing.txt" and write it to "copy.txt", then list the folder "."';

/**
 * A run of it fails the first step (the file does not exist: the tool's own error), skips the
 * second, which it feeds, and runs the third.
 */
export async function createFailingWorkflow(page: Page, name = 'Read a missing file') {
  const document = await planDocument(page, FAILING_TASK, ['tk_builtin_files']);
  return createWorkflow(page, name, document);
}

/** The Memory sample with the entity type its first step requires left out: an invalid step. */
export async function createInvalidWorkflow(page: Page, name = 'Entities without a type') {
  return createWorkflow(page, name, await planDocument(page, MEMORY_TASK, ['tk_builtin_memory']));
}

/**
 * `steps` writes on the Files sample, one after another (a write is not read-only): a run long
 * enough to be cancelled, or to be watched running.
 */
export async function createLongWorkflow(page: Page, steps = 12, name = 'Many writes') {
  const document = (await planDocument(page, 'Write "x" to the file "x.txt"', ['tk_builtin_files'])) as {
    nodes: (PlannedNode & { position: { x: number; y: number } })[];
  };
  const [write] = document.nodes;
  document.nodes = Array.from({ length: steps }, (_, i) => ({
    ...write,
    id: `step_${i + 1}`,
    position: { x: (i % 4) * 320, y: Math.floor(i / 4) * 220 },
    args: { ...write.args, path: `x${i + 1}.txt` },
  }));
  return createWorkflow(page, name, document);
}

/** Starts a run of the saved version; returns its id at once. */
export async function startRun(page: Page, workflow: CreatedWorkflow): Promise<string> {
  const res = await page.request.post(`/api/workflows/${workflow.id}/runs`, {
    data: { version: workflow.version },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).run.id as string;
}

/** The run's status as the API gives it. */
export async function getRunStatus(page: Page, runId: string): Promise<string> {
  return (await (await page.request.get(`/api/runs/${runId}`)).json()).run.status as string;
}

/** Runs the saved version and waits until the run has finished as `status`; returns the run's id. */
export async function runToEnd(page: Page, workflow: CreatedWorkflow, status = 'succeeded'): Promise<string> {
  const runId = await startRun(page, workflow);
  await expect.poll(() => getRunStatus(page, runId), { timeout: 30_000 }).toBe(status);
  return runId;
}

/** A live read-only link to the workflow's saved version; returns its path (/s/<token>). */
export async function createShareLink(page: Page, workflowId: string): Promise<string> {
  const res = await page.request.post(`/api/workflows/${workflowId}/shares`, { data: {} });
  expect(res.status()).toBe(201);
  return (await res.json()).path as string;
}
