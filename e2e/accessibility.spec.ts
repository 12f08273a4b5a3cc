import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { DESKTOP, EditorPage, HistoryDialog, HomePage, RunPage, SharePage, SHOTS } from './support/pages';
import {
  createMaterialsWorkflow,
  createMemoryWorkflow,
  createFailingWorkflow,
  createShareLink,
  runToEnd,
} from './support/workflows';

/**
 * axe-core on the five pages a person uses (home, editor, share link, run, toolkits), each with
 * its details open (a step selected), reached by URL and by navigation: no serious or critical
 * violation, and every page has one h1 and one main landmark.
 */

test.use({ viewport: DESKTOP });

/** Runs axe on the page as it is now; fails listing each serious or critical rule and where it hit. */
async function expectAccessible(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.help} — ${v.nodes[0].target.join(' ')}`);
  expect(serious, `${what}: serious or critical axe violations`).toEqual([]);
  await expect(page.locator('h1'), `${what}: one h1`).toHaveCount(1);
  await expect(page.getByRole('main'), `${what}: one main landmark`).toHaveCount(1);
}

test('home, editor, share page, run and toolkits have no serious axe violation, by URL', async ({ page }) => {
  const materials = await createMaterialsWorkflow(page, 'Axe materials');
  const memory = await createMemoryWorkflow(page, 'Axe memory');
  const runId = await runToEnd(page, memory);
  const sharePath = await createShareLink(page, materials.id);

  const home = new HomePage(page);
  await home.goto();
  await expect(page.getByTestId('workflow-item')).toHaveCount(2);
  await expectAccessible(page, 'home');

  const editor = new EditorPage(page);
  await editor.goto(materials.id);
  await expectAccessible(page, 'editor');
  await editor.select('step_2');
  await expectAccessible(page, 'editor with a step selected');
  await page.getByTestId('tab-json').click();
  await expectAccessible(page, 'editor JSON tab');

  const share = new SharePage(page);
  await share.goto(sharePath);
  await expectAccessible(page, 'share page');
  await share.node('step_2').getByTestId('node-title').click();
  await expect(page.getByTestId('inspector-form')).toBeVisible();
  await expectAccessible(page, 'share page with a step selected');

  const run = new RunPage(page);
  await run.goto(memory.id, runId);
  await page.getByTestId('node-step_3').getByTestId('node-title').click();
  await expect(page.getByTestId('run-node-detail')).toBeVisible();
  await expectAccessible(page, 'run with a step selected');

  await page.goto('/toolkits');
  await expect(page.getByTestId('toolkit-card').first()).toBeVisible();
  await expectAccessible(page, 'toolkits');
});

test('a run with a failed and a skipped step has no serious axe violation either', async ({ page }) => {
  const workflow = await createFailingWorkflow(page);
  const runId = await runToEnd(page, workflow, 'failed');
  await page.goto(`/w/${workflow.id}/runs/${runId}`);
  await expect(page.getByTestId('node-step_2')).toHaveAttribute('data-run-status', 'skipped');
  await expect(page.getByTestId('node-step_1')).toHaveAttribute('data-run-status', 'failed');
  await page.getByTestId('node-step_1').getByTestId('node-title').click();
  await expect(page.getByTestId('run-node-detail')).toBeVisible();
  await expectAccessible(page, 'run with a failed and a skipped step');
  await page.screenshot({ path: `${SHOTS}/run-failed-skipped.png` });
});

test('the same pages, reached by navigation, with a dialog open', async ({ page }) => {
  const memory = await createMemoryWorkflow(page, 'Axe by navigation');
  await runToEnd(page, memory);

  const home = new HomePage(page);
  await home.goto();
  await page.getByTestId('nav-toolkits').click();
  await expect(page.getByTestId('toolkit-card').first()).toBeVisible();
  await expectAccessible(page, 'toolkits, by navigation');

  await home.goto();
  await home.open('Axe by navigation');
  const editor = new EditorPage(page);
  await expect(editor.node('step_1')).toBeVisible();
  await expectAccessible(page, 'editor, by navigation');

  await page.getByTestId('open-share').click();
  await page.getByTestId('share-create').click();
  await expect(page.getByTestId('share-link')).toBeVisible();
  // With a dialog open the page behind it is hidden, so its main is not counted.
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await page.keyboard.press('Escape');

  await page.getByTestId('runs-open').click();
  await page.getByTestId('runs-dialog').getByTestId('runs-item').first().click();
  await new RunPage(page).ready();
  await expectAccessible(page, 'run, by navigation');
});

test('renaming, the More menu and History with a diff open have no serious axe violation', async ({
  page,
}) => {
  const workflow = await createMaterialsWorkflow(page, 'Axe managing');
  const home = new HomePage(page);
  await home.goto();
  await home.row(workflow.id).getByTestId('rename-workflow').click();
  await expect(home.row(workflow.id).getByTestId('workflow-name-input')).toBeFocused();
  await expectAccessible(page, 'home, renaming a workflow');
  await page.keyboard.press('Escape');

  const editor = new EditorPage(page);
  await editor.goto(workflow.id);
  await editor.bar.getByTestId('rename-workflow').click();
  await expectAccessible(page, 'editor, renaming the workflow');
  await page.keyboard.press('Escape');
  await editor.openMenu();
  await expectAccessible(page, 'editor, More menu open');
  await page.keyboard.press('Escape');

  await editor.select('step_2');
  await page.getByTestId('inspector-param-model_path').locator('input').fill('/opt/models/other.pt');
  await editor.saved();
  const history = new HistoryDialog(page);
  await history.open();
  await history.show(1);
  // With a dialog open the page behind it is hidden, so its main is not counted.
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
});
