import { expect, test } from '@playwright/test';

test('a workflow created through the API opens on the canvas, and a dragged node stays where it was dropped', async ({
  page,
}) => {
  // page.request shares the page's cookies, so the workflow belongs to the browser that opens it.
  const request = page.request;
  const created = await request.post('/api/workflows', {
    data: {
      name: 'Foundation check',
      document: {
        task: 'optimise then phonons',
        nodes: [
          {
            id: 'step_1',
            tool: 'optimize_structure',
            position: { x: 0, y: 0 },
            args: { input_structure: 'a.cif' },
          },
          { id: 'step_2', tool: 'calculate_phonons', position: { x: 400, y: 0 }, args: { structure: '' } },
        ],
        edges: [
          { id: 'e1', source: 'step_1', sourceOutput: 'result', target: 'step_2', targetInput: 'structure' },
        ],
        tools: {},
      },
    },
  });
  expect(created.status()).toBe(201);
  const { workflow } = await created.json();

  await page.goto(`/w/${workflow.id}`);
  const first = page.getByTestId('node-step_1');
  await expect(first).toBeVisible();
  await expect(page.getByTestId('node-step_2')).toBeVisible();
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);

  const before = await first.boundingBox();
  const title = first.getByTestId('node-title');
  const box = (await title.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 120, { steps: 8 });
  await page.mouse.up();
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  const saved = await (await request.get(`/api/workflows/${workflow.id}`)).json();
  expect(saved.workflow.version).toBeGreaterThan(1);
  const moved = saved.workflow.document.nodes.find((n: { id: string }) => n.id === 'step_1').position;
  expect(moved.y).toBeGreaterThan(40);

  await page.reload();
  await expect(page.getByTestId('node-step_1')).toBeVisible();
  const after = await page.getByTestId('node-step_1').boundingBox();
  // fitView re-centres the graph, so compare the two nodes' relative placement, not absolute pixels.
  const second = await page.getByTestId('node-step_2').boundingBox();
  expect(after!.y - second!.y).toBeGreaterThan(10);
  expect(before).not.toBeNull();
});

test('the home page lists workflows', async ({ page }) => {
  await page.request.post('/api/workflows', { data: { name: 'Listed workflow' } });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Toolflow' })).toBeVisible();
  await expect(page.getByTestId('workflow-list')).toContainText('Listed workflow');
});
