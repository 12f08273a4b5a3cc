import { expect, test, type Page } from '@playwright/test';
import { DESKTOP, EditorPage, SHOTS } from './support/pages';
import {
  createFailingWorkflow,
  createInvalidWorkflow,
  createLongWorkflow,
  getRunStatus,
  runToEnd,
  startRun,
} from './support/workflows';

/**
 * Runs that read like a product: a failed step says what happened in words, with the code on a
 * details line and no server path; its dot is red; a cancelled run is a note, not an error; Run is
 * disabled with the reason while a step is invalid; a cancel that comes too late says so; the home
 * page's examples plan completely and run green; runnable toolkits are marked.
 */

test.use({ viewport: DESKTOP });

const RED = 'rgb(201, 42, 42)';

/** No absolute path of the server in what the page shows or holds. */
async function expectNoServerPaths(page: Page) {
  const html = await page.content();
  expect(html).not.toMatch(/\/samples\/[0-9a-f]{32}/);
  expect(html).not.toContain('/tmp/');
  expect(html).not.toContain(process.cwd());
}

test('a failed step: red dot, its error in words, the code and the tool’s words on a details line', async ({
  page,
}) => {
  const workflow = await createFailingWorkflow(page);
  const runId = await runToEnd(page, workflow, 'failed');
  await page.goto(`/w/${workflow.id}/runs/${runId}`);
  const failed = page.getByTestId('node-step_1');
  await expect(failed).toHaveAttribute('data-run-status', 'failed');
  await expect(failed.locator('.tn-dot')).toHaveCSS('background-color', RED);
  await expect(page.getByTestId('node-step_3')).toHaveAttribute('data-run-status', 'succeeded');
  await expect(page.getByTestId('node-step_3').locator('.tn-dot')).not.toHaveCSS('background-color', RED);
  const banner = page.getByTestId('run-banner');
  await expect(banner).toHaveAttribute('data-tone', 'error');
  await expect(banner).toHaveText(
    /^1 step failed, 1 skipped\. Step 1 \(Read Text File\): The file notes\/missing\.txt does not exist\.$/,
  );

  await failed.getByTestId('node-title').click();
  const detail = page.getByTestId('run-node-detail');
  await expect(detail.getByTestId('run-node-error-headline')).toHaveText(
    'The file notes/missing.txt does not exist.',
  );
  const details = detail.getByTestId('run-node-error-details');
  await expect(details).toContainText('tool_error');
  await expect(details).toContainText("ENOENT: no such file or directory, open 'notes/missing.txt'");
  // The headline carries no machine code.
  await expect(detail.getByTestId('run-node-error-headline')).not.toContainText(/tool_error|ENOENT/);
  // The tool's text is not repeated as a result below.
  await expect(detail.getByTestId('result-text')).toHaveCount(0);
  await expectNoServerPaths(page);
  await page.screenshot({ path: `${SHOTS}/run-failed-step.png` });

  // The step it fed was not called: a note, not an error.
  await page.getByTestId('node-step_2').getByTestId('node-title').click();
  const error = detail.getByTestId('run-node-error');
  await expect(error).toHaveClass('run-note');
  await expect(error.getByTestId('run-node-error-headline')).toHaveText(
    /^Not called: step 1 \(Read Text File\), which feeds it, failed\.$/,
  );

  // A step that succeeded shows its result once: structuredContent, not its text copy as well.
  await page.getByTestId('node-step_3').getByTestId('node-title').click();
  await expect(detail.getByTestId('run-node-status')).toHaveText('succeeded');
  await expect(detail.getByTestId('result-structured')).toHaveCount(1);
  await expect(detail.getByTestId('result-text')).toHaveCount(0);
});

test('a cancelled run is a note, not an error', async ({ page }) => {
  const workflow = await createLongWorkflow(page);
  const runId = await startRun(page, workflow);
  await page.request.post(`/api/runs/${runId}/cancel`);
  await expect.poll(() => getRunStatus(page, runId), { timeout: 30_000 }).toBe('cancelled');
  await page.goto(`/w/${workflow.id}/runs/${runId}`);
  await expect(page.getByTestId('run-status')).toHaveText('cancelled');
  const banner = page.getByTestId('run-banner');
  await expect(banner).toHaveAttribute('data-tone', 'note');
  await expect(banner).toHaveText(/^Cancelled: \d+ steps? stopped or not started/);
  await expect(banner).not.toHaveCSS('color', RED);
  const cancelled = page.locator('[data-run-status="cancelled"][data-node-id]').first();
  await expect(cancelled.locator('.tn-dot')).not.toHaveCSS('background-color', RED);
  await cancelled.getByTestId('node-title').click();
  await expect(page.getByTestId('run-node-error')).toHaveClass('run-note');
  await expect(page.getByTestId('run-node-error-headline')).toHaveText(/^Cancelled /);
  await page.screenshot({ path: `${SHOTS}/run-cancelled.png` });
});

test('Cancel that arrives after the run finished says so, instead of a plain "succeeded"', async ({
  page,
}) => {
  const workflow = await createLongWorkflow(page, 12, 'Short writes');
  const runId = await startRun(page, workflow);
  // The page keeps showing the run as it was rendered, as a slow connection would.
  await page.route('**/api/runs/*/events', () => {});
  await page.goto(`/w/${workflow.id}/runs/${runId}`);
  const cancel = page.getByTestId('run-cancel');
  await expect(cancel).toBeVisible();
  await expect.poll(() => getRunStatus(page, runId), { timeout: 30_000 }).toBe('succeeded');
  await cancel.click();
  const banner = page.getByTestId('run-banner');
  await expect(banner).toHaveText('The run had already finished when Cancel arrived: it succeeded.');
  await expect(banner).toHaveAttribute('data-tone', 'note');
});

test('Run is disabled with the reason while a step is invalid', async ({ page }) => {
  const workflow = await createInvalidWorkflow(page);
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);
  await expect(editor.node('step_1').getByTestId('badge-invalid')).toHaveText('2 invalid');
  await page.getByTestId('run-open').click();
  const dialog = page.getByTestId('run-dialog');
  const confirm = dialog.getByTestId('run-confirm');
  await expect(confirm).toHaveText('Fix 1 invalid step first');
  await expect(confirm).toBeDisabled();
  await expect(dialog.getByTestId('run-refusal')).toHaveText(
    /^Fix 1 invalid step first \(1\. create_entities\): a run starts only when every step is valid\.$/,
  );
  await expect(dialog.getByTestId('run-invalid')).toContainText('entityType');
  await page.screenshot({ path: `${SHOTS}/run-dialog-invalid.png` });
});

test('toolkits a run can call are marked runnable, on the home page and the Toolkits page', async ({
  page,
}) => {
  await page.goto('/');
  for (const [id, runnable] of [
    ['tk_builtin_memory', 'true'],
    ['tk_builtin_files', 'true'],
    ['tk_builtin_materials', 'false'],
  ]) {
    await expect(page.getByTestId(`toolkit-chip-${id}`).locator('xpath=..')).toHaveAttribute(
      'data-runnable',
      runnable,
    );
  }
  await expect(page.getByTestId('toolkit-legend')).toContainText('Runnable: a test-run calls these tools');
  await page.goto('/toolkits');
  const card = (name: string) => page.locator(`[data-testid="toolkit-card"][data-toolkit-name="${name}"]`);
  await expect(card('Files (runnable sample)').getByTestId('toolkit-runnable')).toHaveText('▶ Runnable');
  await expect(card('Materials science').getByTestId('toolkit-runnable')).toHaveText('Declarations only');
  await expect(card('Materials science').getByTestId('toolkit-runnable-note')).toContainText(
    'no server runs its tools',
  );
});

test('each example on the home page plans completely, runs as planned, and every step succeeds', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('/');
  const examples = page.getByTestId('home-example');
  await expect(examples).toHaveCount(3);
  const titles = await examples.allInnerTexts();
  for (const [i, title] of titles.entries()) {
    await page.goto('/');
    await page.getByTestId('home-example').filter({ hasText: title }).click();
    const prompt = page.getByTestId('home-prompt-input');
    await expect(prompt).not.toHaveValue('');
    await expect(page.getByTestId('home-planner')).toHaveValue('offline');
    // Only the example's sample is ticked.
    const ticked = page.locator('[data-testid^="toolkit-chip-"]:checked');
    await expect(ticked).toHaveCount(1);
    await expect(ticked).toHaveAttribute('data-testid', /toolkit-chip-tk_builtin_(files|memory)/);
    if (i === 0) await page.screenshot({ path: `${SHOTS}/home-examples.png` });
    await page.getByTestId('home-prompt-submit').click();
    await page.waitForURL(/\/w\/wf_[^/?]+/);
    await expect(page.getByTestId('plan-status')).toContainText(/planned everything/i, { timeout: 20_000 });
    // Nothing left to fill in: no step is marked missing or invalid.
    await expect(page.locator('[data-testid="badge-missing"], [data-testid="badge-invalid"]')).toHaveCount(0);
    await expect(page.getByTestId('save-state')).toHaveText('Saved', { timeout: 15_000 });
    await page.getByTestId('run-open').click();
    const dialog = page.getByTestId('run-dialog');
    await expect(dialog).toContainText('Every step can run');
    const confirm = dialog.getByTestId('run-confirm');
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await page.waitForURL(/\/runs\/run_[^/?]+$/);
    await expect(page.getByTestId('run-status')).toHaveText('succeeded', { timeout: 30_000 });
    const steps = page.locator('[data-node-id][data-run-status]');
    expect(await steps.count()).toBeGreaterThan(1);
    for (const step of await steps.all()) await expect(step).toHaveAttribute('data-run-status', 'succeeded');
  }
});
