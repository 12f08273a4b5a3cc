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

/**
 * The Memory sample with its first step left without the entity type it requires and feeding the
 * second: a run fails the first without a call, skips the second, and runs the third.
 */
export async function createPartlyRunnableWorkflow(page: Page, name = 'Half runnable') {
  const document = (await planDocument(page, MEMORY_TASK, ['tk_builtin_memory'])) as {
    nodes: PlannedNode[];
    edges: unknown[];
  };
  delete document.nodes[1].args.relations;
  document.edges.push({
    id: 'e_entities',
    source: 'step_1',
    sourceOutput: 'entities',
    target: 'step_2',
    targetInput: 'relations',
  });
  return createWorkflow(page, name, document);
}

/** Runs the saved version and waits until the run has finished as `status`; returns the run's id. */
export async function runToEnd(page: Page, workflow: CreatedWorkflow, status = 'succeeded'): Promise<string> {
  const res = await page.request.post(`/api/workflows/${workflow.id}/runs`, {
    data: { version: workflow.version },
  });
  expect(res.status()).toBe(201);
  const runId = (await res.json()).run.id as string;
  await expect
    .poll(async () => (await (await page.request.get(`/api/runs/${runId}`)).json()).run.status as string, {
      timeout: 30_000,
    })
    .toBe(status);
  return runId;
}

/** A live read-only link to the workflow's saved version; returns its path (/s/<token>). */
export async function createShareLink(page: Page, workflowId: string): Promise<string> {
  const res = await page.request.post(`/api/workflows/${workflowId}/shares`, { data: {} });
  expect(res.status()).toBe(201);
  return (await res.json()).path as string;
}
