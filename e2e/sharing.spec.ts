import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';

const document = {
  task: 'fetch a structure, then relax it',
  nodes: [
    {
      id: 'step_1',
      tool: 'fetch_file',
      position: { x: 0, y: 0 },
      args: { url: 'https://example.org/a.cif' },
    },
    { id: 'step_2', tool: 'relax', position: { x: 420, y: 0 }, args: { steps: 10 } },
  ],
  edges: [{ id: 'e1', source: 'step_1', sourceOutput: 'result', target: 'step_2', targetInput: 'structure' }],
  tools: {},
};

/** Creates a workflow as the browser context `page` belongs to (its owner cookie). */
async function createWorkflow(page: Page, name: string, doc: unknown = document) {
  await page.goto('/');
  const res = await page.request.post('/api/workflows', { data: { name, document: doc } });
  expect(res.status()).toBe(201);
  return (await res.json()).workflow as { id: string };
}

async function rename(page: Page, nodeId: string, label: string) {
  await page.getByTestId(`node-${nodeId}`).getByTestId('node-title').dblclick();
  await page.getByTestId('node-title-input').fill(label);
  await page.getByTestId('node-title-input').press('Enter');
}

test('owner shares; another browser sees it read-only, cannot edit, forks and edits its copy; revoking removes the link', async ({
  browser,
}) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  const workflow = await createWorkflow(owner, 'Shared relax');
  await owner.goto(`/w/${workflow.id}`);
  await owner.getByTestId('open-share').click();
  await expect(owner.getByTestId('share-secrets')).toHaveCount(0);
  await owner.getByTestId('share-create').click();
  const link = await owner.getByTestId('share-link').inputValue();
  expect(link).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
  await expect(owner.getByTestId('share-item')).toHaveCount(1);

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  const opened = await viewer.goto(link);
  expect(opened?.status()).toBe(200);
  await expect(viewer.locator('meta[name="referrer"]')).toHaveAttribute('content', 'no-referrer');
  await expect(viewer.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
  await expect(viewer.locator('meta[property="og:title"]')).toHaveAttribute('content', /Shared relax/);
  await expect(viewer.getByTestId('shared-read-only')).toBeVisible();
  await expect(viewer.getByTestId('node-step_1')).toBeVisible();
  await expect(viewer.getByTestId('node-step_2')).toBeVisible();
  await expect(viewer.getByTestId('json-panel-text')).toContainText('"tool_name": "fetch_file"');
  // The toolbar offers only what a viewer can use: no greyed-out editing buttons.
  const toolbar = viewer.getByTestId('canvas-toolbar');
  await expect(toolbar.getByRole('button')).toHaveCount(1);
  await expect(toolbar.getByTestId('toolbar-fit')).toBeEnabled();
  await expect(toolbar.locator('button:disabled')).toHaveCount(0);

  // The UI does not edit: dragging a node does not move it relative to the others (the view may
  // pan), double-click does not rename it, and the JSON keeps the stored position.
  const node = viewer.getByTestId('node-step_1');
  const other = viewer.getByTestId('node-step_2');
  const offset = async () => {
    const [a, b] = [(await node.boundingBox())!, (await other.boundingBox())!];
    return { dx: Math.round(b.x - a.x), dy: Math.round(b.y - a.y) };
  };
  const before = await offset();
  const title = (await node.getByTestId('node-title').boundingBox())!;
  await viewer.mouse.move(title.x + 5, title.y + 5);
  await viewer.mouse.down();
  await viewer.mouse.move(title.x + 120, title.y + 140, { steps: 8 });
  await viewer.mouse.up();
  expect(await offset()).toEqual(before);
  await node.getByTestId('node-title').dblclick();
  await expect(viewer.getByTestId('node-title-input')).toHaveCount(0);
  // The click selected the step: its parameters show beside the canvas, read-only.
  await expect(viewer.getByTestId('inspector')).toHaveAttribute('data-node-id', 'step_1');
  await expect(viewer.getByTestId('inspector-locked')).toContainText('Fork');
  await expect(viewer.getByTestId('inspector-label')).toBeDisabled();
  await viewer.getByTestId('shared-tab-json').click();
  await expect(viewer.getByTestId('json-panel-text')).toContainText(/"position": \{\s+"x": 0,\s+"y": 0/);

  // Nor does the API: the viewer's browser is not the owner.
  const put = await viewer.request.put(`/api/workflows/${workflow.id}`, { data: { version: 1, document } });
  expect(put.status()).toBe(403);
  expect((await viewer.request.get(`/api/workflows/${workflow.id}`)).status()).toBe(403);
  await viewer.goto(`/w/${workflow.id}`);
  await expect(viewer.getByTestId('not-your-workflow')).toBeVisible();

  // Download JSON gives the v1 export.
  await viewer.goto(link);
  const [download] = await Promise.all([
    viewer.waitForEvent('download'),
    viewer.getByTestId('shared-download').click(),
  ]);
  expect(download.suggestedFilename()).toBe('Shared-relax.toolflow.json');

  // Fork: a copy of the viewer's own, which the viewer can edit.
  await viewer.getByTestId('shared-fork').click();
  await viewer.waitForURL(/\/w\/wf_/);
  const copyId = viewer.url().split('/w/')[1];
  expect(copyId).not.toBe(workflow.id);
  await rename(viewer, 'step_2', 'My relax');
  await expect(viewer.getByTestId('save-state')).toHaveText('Saved');
  const copy = (await (await viewer.request.get(`/api/workflows/${copyId}`)).json()).workflow;
  expect(copy.forkedFromId).toBe(workflow.id);
  expect(copy.document.nodes[1].label).toBe('My relax');
  const original = (await (await owner.request.get(`/api/workflows/${workflow.id}`)).json()).workflow;
  expect(original.version).toBe(1);
  expect(original.document.nodes[1].label).toBeUndefined();
  await viewer.goto('/');
  await expect(viewer.getByTestId('workflow-list')).toContainText('Shared relax (fork)');

  // The owner revokes, after confirming: the link is gone at once, and so is the box that showed it.
  await owner.getByTestId('share-revoke').click();
  await owner.getByTestId('confirm-dialog').getByTestId('confirm-action').click();
  await expect(owner.getByTestId('share-item')).toHaveCount(0);
  await expect(owner.getByTestId('share-created')).toHaveCount(0);
  await expect(owner.getByTestId('share-dialog')).toBeVisible();
  const gone = await viewer.goto(link);
  expect(gone?.status()).toBe(404);
  await expect(viewer.getByTestId('share-gone')).toBeVisible();
  expect(
    (await viewer.request.post(`${new URL(link).pathname.replace('/s/', '/api/shares/')}/fork`)).status(),
  ).toBe(404);

  await ownerContext.close();
  await viewerContext.close();
});

test('sharing a workflow with a secret-looking value warns, naming the field, and needs confirmation', async ({
  page,
}) => {
  const leaky = {
    ...document,
    nodes: [
      {
        ...document.nodes[0],
        args: { url: 'https://example.org/a.cif', api_key: 'sk-proj-abcdefghijklmnopqrstu123' },
      },
      document.nodes[1],
    ],
  };
  const workflow = await createWorkflow(page, 'Leaky', leaky);
  await page.goto(`/w/${workflow.id}`);
  await page.getByTestId('open-share').click();
  await expect(page.getByTestId('share-secret')).toHaveText([
    'step_1.api_key (fetch_file) looks like an OpenAI API key',
  ]);
  await expect(page.getByTestId('share-create')).toBeDisabled();
  await page.getByTestId('share-acknowledge').check();
  await page.getByTestId('share-create').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/\/s\//);
});

test('a link serves the workflow as last saved, from a rendered copy no browser or cache keeps, and stops at once when revoked', async ({
  browser,
}) => {
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  const workflow = await createWorkflow(owner, 'Cached relax');
  const created = await owner.request.post(`/api/workflows/${workflow.id}/shares`, { data: {} });
  expect(created.status()).toBe(201);
  const { path, share } = (await created.json()) as { path: string; share: { id: string } };

  const viewer = await (await browser.newContext()).newPage();
  const first = await viewer.request.get(path);
  expect(first.status()).toBe(200);
  // Served from one rendered copy per version, but only after the link was checked: never kept.
  expect(first.headers()['cache-control']).toBe('private, no-store');
  // Next renders the copy once; from then on the proxy answers with it from memory, the same bytes.
  const token = path.split('/').pop()!;
  const copyPath = `/s/v/${createHash('sha256').update(token).digest('hex')}/1`;
  await expect
    .poll(async () => (await viewer.request.get(path)).headers()['x-toolflow-share-copy'], {
      timeout: 10_000,
    })
    .toBe('memory');
  const again = await viewer.request.get(path); // Playwright asks for gzip and unpacks it
  expect(again.headers()['content-encoding']).toBe('gzip');
  expect(again.headers()['x-toolflow-share-copy']).toBe('memory');
  expect(again.headers()['cache-control']).toBe('private, no-store');
  expect(again.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(await again.text()).toBe(await first.text());
  // The page does not carry the token: the same copy serves everyone with the link.
  expect(await first.text()).not.toContain(token);

  // The owner saves: the very next request shows the new version.
  const put = await owner.request.put(`/api/workflows/${workflow.id}`, {
    data: { version: 1, name: 'Cached relax, renamed', document },
  });
  expect(put.status()).toBe(200);
  await viewer.goto(path);
  await expect(viewer.getByTestId('shared-name')).toHaveText('Cached relax, renamed');
  await expect(viewer.getByTestId('node-step_2')).toBeVisible();

  // The rendered copies are not addresses of their own: asked for directly, they are not there.
  expect(copyPath).toMatch(/^\/s\/v\/[0-9a-f]{64}\/1$/);
  expect((await viewer.request.get(copyPath)).status()).toBe(404);

  const revoked = await owner.request.delete(`/api/workflows/${workflow.id}/shares/${share.id}`);
  expect(revoked.status()).toBe(204);
  const gone = await viewer.goto(path);
  expect(gone?.status()).toBe(404);
  await expect(viewer.getByTestId('share-gone')).toBeVisible();
  await ownerContext.close();
});
