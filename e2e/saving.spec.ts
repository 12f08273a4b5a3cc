import { expect, test, type Page } from '@playwright/test';

const document = {
  task: 'fetch then relax',
  nodes: [
    {
      id: 'step_1',
      tool: 'fetch_file',
      position: { x: 0, y: 0 },
      args: { url: 'https://example.org/a.cif' },
    },
    { id: 'step_2', tool: 'relax', position: { x: 420, y: 0 }, args: { steps: 10 } },
  ],
  edges: [],
  tools: {},
};

async function createWorkflow(page: Page, name: string) {
  await page.goto('/');
  const res = await page.request.post('/api/workflows', { data: { name, document } });
  expect(res.status()).toBe(201);
  return (await res.json()).workflow as { id: string };
}

async function rename(page: Page, nodeId: string, label: string) {
  await page.getByTestId(`node-${nodeId}`).getByTestId('node-title').dblclick();
  await page.getByTestId('node-title-input').fill(label);
  await page.getByTestId('node-title-input').press('Enter');
}

async function getSaved(page: Page, id: string) {
  return (await (await page.request.get(`/api/workflows/${id}`)).json()).workflow;
}

test('two tabs of one owner hit a conflict and merge it without losing either edit', async ({ context }) => {
  const tabA = await context.newPage();
  const workflow = await createWorkflow(tabA, 'Two tabs');
  const tabB = await context.newPage();
  await tabA.goto(`/w/${workflow.id}`);
  await tabB.goto(`/w/${workflow.id}`);
  await expect(tabB.getByTestId('node-step_2')).toBeVisible();

  await rename(tabA, 'step_1', 'Edited in A');
  await expect(tabA.getByTestId('save-state')).toHaveText('Saved');
  expect((await getSaved(tabA, workflow.id)).version).toBe(2);

  await rename(tabB, 'step_2', 'Edited in B');
  await expect(tabB.getByTestId('conflict-banner')).toBeVisible();
  await expect(tabB.getByTestId('save-state')).toHaveText('Changed elsewhere');
  await expect(tabB.getByTestId('conflict-merge-clean')).toBeVisible();
  // Nothing was overwritten while the banner waits.
  expect((await getSaved(tabB, workflow.id)).document.nodes[0].label).toBe('Edited in A');

  await tabB.getByTestId('conflict-merge').click();
  await expect(tabB.getByTestId('conflict-banner')).toHaveCount(0);
  await expect(tabB.getByTestId('save-state')).toHaveText('Saved');
  const merged = await getSaved(tabB, workflow.id);
  expect(merged.version).toBe(3);
  expect(merged.document.nodes.map((n: { label?: string }) => n.label)).toEqual([
    'Edited in A',
    'Edited in B',
  ]);
  await expect(tabB.getByTestId('node-step_1')).toContainText('Edited in A');

  // Tab A is now behind; its next edit conflicts too, and "Keep mine" writes on top, keeping B's.
  await rename(tabA, 'step_1', 'A again');
  await expect(tabA.getByTestId('conflict-banner')).toBeVisible();
  await tabA.getByTestId('conflict-keep-mine').click();
  await expect(tabA.getByTestId('save-state')).toHaveText('Saved');
  const kept = await getSaved(tabA, workflow.id);
  expect(kept.version).toBe(4);
  expect(kept.document.nodes[0].label).toBe('A again');

  // History keeps each side's version (a kept conflict is an entry of its own, never folded into);
  // each one is compared with the current version: A's copy relabelled step 1 and, kept whole,
  // undid B's label on step 2.
  await tabA.getByTestId('open-history').click();
  await expect(tabA.getByTestId('revisions-list').getByTestId('revision-entry')).toHaveCount(4);
  await tabA.getByTestId('revision-3').click();
  await expect(tabA.getByTestId('revision-summary')).toHaveText(
    'From this version to the current one (version 4): 2 nodes changed.',
  );
});

test('while the server cannot save, edits are kept in the browser, survive a reload and are saved when it returns', async ({
  page,
}) => {
  const workflow = await createWorkflow(page, 'Outage');
  await page.goto(`/w/${workflow.id}`);
  await expect(page.getByTestId('node-step_1')).toBeVisible();

  // The database is down: every save answers 503, as lib/http/errors.ts does.
  await page.route(`**/api/workflows/${workflow.id}`, (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 'unavailable:database',
            message:
              'The database cannot be reached right now. Your change was not saved; try again in a moment.',
          }),
        })
      : route.continue(),
  );
  await rename(page, 'step_1', 'Made during the outage');
  await expect(page.getByTestId('offline-banner')).toContainText('kept in this browser');
  await expect(page.getByTestId('save-state')).toHaveText(/Offline/);

  await page.reload();
  await expect(page.getByTestId('restored-banner')).toBeVisible();
  await expect(page.getByTestId('node-step_1')).toContainText('Made during the outage');
  expect((await getSaved(page, workflow.id)).version).toBe(1);

  // The database is back: the scheduled retry saves without the user doing anything.
  await page.unroute(`**/api/workflows/${workflow.id}`);
  await expect(page.getByTestId('save-state')).toHaveText('Saved', { timeout: 20_000 });
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  const saved = await getSaved(page, workflow.id);
  expect(saved.version).toBe(2);
  expect(saved.document.nodes[0].label).toBe('Made during the outage');
  expect(await page.evaluate((id) => localStorage.getItem(`toolflow:unsaved:${id}`), workflow.id)).toBeNull();
});

test('offline at the first edit, before autosave has loaded: the edit is kept in the browser and saved once back online', async ({
  page,
  context,
}) => {
  const workflow = await createWorkflow(page, 'Offline from the start');
  await page.goto(`/w/${workflow.id}`);
  await expect(page.getByTestId('node-step_1')).toBeVisible();
  // The first pointerdown fetches the editing commands; autosave loads with the first change.
  let chunksRequested = 0;
  let chunksInFlight = 0;
  const isChunk = (url: string) => url.includes('/_next/static/chunks/');
  page.on('request', (r) => isChunk(r.url()) && (chunksRequested++, chunksInFlight++));
  page.on('requestfinished', (r) => isChunk(r.url()) && chunksInFlight--);
  page.on('requestfailed', (r) => isChunk(r.url()) && chunksInFlight--);
  await page.getByTestId('node-step_1').getByTestId('node-title').click();
  await expect.poll(() => chunksRequested > 0 && chunksInFlight === 0).toBe(true);

  await context.setOffline(true);
  await rename(page, 'step_1', 'Made offline');
  await expect(page.getByTestId('offline-banner')).toContainText('kept in this browser');
  // No retry countdown: no autosave engine runs yet (its code could not be fetched).
  await expect(page.getByTestId('offline-banner')).not.toContainText('Next try in');
  expect(await page.evaluate((id) => localStorage.getItem(`toolflow:unsaved:${id}`), workflow.id)).toContain(
    'Made offline',
  );

  await context.setOffline(false);
  await expect(page.getByTestId('save-state')).toHaveText('Saved', { timeout: 20_000 });
  await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  await expect(page.getByTestId('restored-banner')).toHaveCount(0);
  const saved = await getSaved(page, workflow.id);
  expect(saved.version).toBe(2);
  expect(saved.document.nodes[0].label).toBe('Made offline');
  expect(await page.evaluate((id) => localStorage.getItem(`toolflow:unsaved:${id}`), workflow.id)).toBeNull();
});

test('restoring an old version from History makes it the current one as a new version', async ({ page }) => {
  const workflow = await createWorkflow(page, 'Restore me');
  await page.goto(`/w/${workflow.id}`);
  await rename(page, 'step_2', 'Renamed');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.getByTestId('open-history').click();
  await page.getByTestId('revision-1').click();
  // Restoring asks first, saying that the current version stays in the history.
  await page.getByTestId('revision-restore').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('Restore version 1?');
  await expect(confirm).toContainText('stays in the history as version 2');
  await confirm.getByTestId('confirm-action').click();
  await expect(page.getByTestId('node-step_2')).not.toContainText('Renamed');
  const saved = await getSaved(page, workflow.id);
  expect(saved.version).toBe(3);
  expect(saved.document.nodes[1].label).toBeUndefined();
});

test('a workflow file dropped on the home page is imported; a broken one lists its problems with JSON paths', async ({
  page,
}) => {
  const workflow = await createWorkflow(page, 'Round trip');
  const exported = await (await page.request.get(`/api/workflows/${workflow.id}/export`)).text();
  await page.goto('/');

  const broken = JSON.parse(exported);
  delete broken.nodes[1].position;
  await page.getByTestId('import-file').setInputFiles({
    name: 'broken.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(broken)),
  });
  await expect(page.getByTestId('import-issues')).toContainText('/nodes/1/position');

  // Drag and drop onto the page.
  const dataTransfer = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'good.json', { type: 'application/json' }));
    return dt;
  }, exported);
  await page.dispatchEvent('body', 'dragenter', { dataTransfer });
  await expect(page.getByTestId('import-overlay')).toBeVisible();
  await page.dispatchEvent('body', 'drop', { dataTransfer });
  await page.waitForURL(/\/w\/wf_/);
  expect(page.url()).not.toContain(workflow.id);
  await expect(page.getByTestId('node-step_2')).toBeVisible();
});
