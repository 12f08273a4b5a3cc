import { expect, test } from '@playwright/test';

/**
 * A test-run as a new user meets it: plan the memory example with the offline planner
 * and the runnable Memory sample, type the entity type the task does not say, Run, confirm the
 * pre-flight list, watch every node turn green, open the last node's result, reload and find the
 * run as it was.
 */

const TASK = "Create entities Alice and Bob, relate Alice to Bob as 'knows', then read the graph";
const SHOTS = 'e2e/__screenshots__';
const MEMORY = 'tk_builtin_memory';

test.use({ viewport: { width: 1600, height: 960 } });

test('plan the memory example offline, run it, every node green, the graph on the last node', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByTestId('toolkit-picker')).toBeVisible();
  // Only the runnable Memory sample.
  for (const chip of await page.locator('[data-testid^="toolkit-chip-"]').all()) {
    const id = (await chip.getAttribute('data-testid'))!.replace('toolkit-chip-', '');
    if ((await chip.isChecked()) !== (id === MEMORY)) await chip.click();
  }
  await page.getByTestId('home-planner').selectOption('offline');
  await page.getByTestId('home-prompt-input').fill(TASK);
  await page.getByTestId('home-prompt-input').press('Enter');
  await page.waitForURL(/\/w\/wf_[^/?]+$/);
  const workflowId = page.url().split('/w/')[1];

  for (const [id, tool] of [
    ['step_1', 'Create Entities'],
    ['step_2', 'Create Relations'],
    ['step_3', 'Read Graph'],
  ])
    await expect(page.getByTestId(`node-${id}`)).toContainText(tool, { timeout: 20_000 });

  // The planner read the names and the relation from the task; the entity type the task does not
  // say is left missing, and the person types it into each item's field of the form.
  await page.getByTestId('node-step_2').getByTestId('node-title').click();
  await page.getByTestId('inspector-tab-raw').click();
  expect(JSON.parse(await page.getByTestId('inspector-raw-text').inputValue())).toEqual({
    relations: [{ from: 'Alice', to: 'Bob', relationType: 'knows' }],
  });
  await page.getByTestId('node-step_1').getByTestId('node-title').click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'step_1');
  await page.getByTestId('inspector-tab-raw').click();
  expect(JSON.parse(await page.getByTestId('inspector-raw-text').inputValue())).toEqual({
    entities: [
      { name: 'Alice', observations: [] },
      { name: 'Bob', observations: [] },
    ],
  });
  await page.getByTestId('inspector-tab-form').click();
  for (const i of [0, 1]) await page.locator(`#step_1__entities_${i}_entityType`).fill('person');
  await page.getByTestId('inspector-tab-raw').click();
  expect(JSON.parse(await page.getByTestId('inspector-raw-text').inputValue())).toEqual({
    entities: [
      { name: 'Alice', entityType: 'person', observations: [] },
      { name: 'Bob', entityType: 'person', observations: [] },
    ],
  });
  await expect(page.getByTestId('save-state')).toHaveText('Saved', { timeout: 15_000 });

  await page.getByTestId('run-open').click();
  const dialog = page.getByTestId('run-dialog');
  await expect(dialog.getByTestId('run-server')).toContainText('memory');
  await expect(dialog.getByTestId('run-server')).toContainText(
    'create_entities, create_relations, read_graph',
  );
  // Where the sample keeps this person's data, in plain words.
  await expect(dialog.getByTestId('run-server')).toContainText('(runnable sample)');
  await expect(dialog.getByTestId('run-server-data')).toHaveText(
    /^Your own Memory graph, kept by this Toolflow server; only your runs see it/,
  );
  await expect(dialog).toContainText('Every step can run');
  await page.screenshot({ path: `${SHOTS}/run-preflight.png` });
  await dialog.getByTestId('run-confirm').click();
  await page.waitForURL(new RegExp(`/w/${workflowId}/runs/run_[^/?]+$`));

  for (const id of ['step_1', 'step_2', 'step_3'])
    await expect(page.getByTestId(`node-${id}`)).toHaveAttribute('data-run-status', 'succeeded', {
      timeout: 30_000,
    });
  await expect(page.getByTestId('run-status')).toHaveText('succeeded');
  await expect(page.getByTestId('node-step_1').getByTestId('node-run-status')).toContainText(
    /succeeded · \d/,
  );

  await page.getByTestId('node-step_3').getByTestId('node-title').click();
  const detail = page.getByTestId('run-node-detail');
  await expect(detail.getByTestId('run-node-status')).toHaveText('succeeded');
  const structured = await detail.getByTestId('result-structured').innerText();
  expect(JSON.parse(structured)).toEqual({
    entities: [
      { name: 'Alice', entityType: 'person', observations: [] },
      { name: 'Bob', entityType: 'person', observations: [] },
    ],
    relations: [{ from: 'Alice', to: 'Bob', relationType: 'knows' }],
  });
  await page.screenshot({ path: `${SHOTS}/run-memory-graph.png` });

  // The arguments shown are the ones sent.
  await page.getByTestId('node-step_2').getByTestId('node-title').click();
  expect(JSON.parse(await detail.getByTestId('run-node-arguments').innerText())).toEqual({
    relations: [{ from: 'Alice', to: 'Bob', relationType: 'knows' }],
  });

  // A reload resumes from the stored state; the run is listed with its version.
  await page.reload();
  await expect(page.getByTestId('node-step_3')).toHaveAttribute('data-run-status', 'succeeded');
  await page.getByTestId('run-tab-runs').click();
  await expect(page.getByTestId('runs-item').first()).toContainText('succeeded');
  await expect(page.getByTestId('runs-item').first()).toContainText(/version \d+/);

  // Back in the editor, Runs lists it too.
  await page.getByTestId('run-back').click();
  await page.waitForURL(new RegExp(`/w/${workflowId}$`));
  await page.getByTestId('runs-open').click();
  await expect(page.getByTestId('runs-dialog').getByTestId('runs-item')).toHaveCount(1);
});
