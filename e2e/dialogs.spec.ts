import { expect, test, type Locator, type Page } from '@playwright/test';
import { DESKTOP, EditorPage, SHOTS } from './support/pages';
import { createMemoryWorkflow, runToEnd } from './support/workflows';

/**
 * Dialogs and the keyboard: every dialog takes focus when it opens, keeps it while open, closes on
 * Escape and gives focus back to the button that opened it; destructive actions ask first; and the
 * first step on the canvas is a few Tab presses from the top of the editor.
 */

test.use({ viewport: DESKTOP });

/** Whether focus is inside `dialog` now. */
const hasFocusInside = (dialog: Locator) => dialog.evaluate((el) => el.contains(document.activeElement));

/**
 * Opens the dialog from `opener` with the keyboard, checks that focus moved in and stays in
 * through Tab and Shift+Tab, closes it with Escape and checks that focus is back on the opener.
 */
async function checkDialog(page: Page, opener: Locator, dialog: Locator) {
  await opener.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('role', /dialog/);
  await expect.poll(() => hasFocusInside(dialog)).toBe(true);
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(key);
      expect(await hasFocusInside(dialog), `${key} ×${i + 1} stays in the dialog`).toBe(true);
    }
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
}

test('Run, Runs, History and Share take focus, keep it, close on Escape and give it back', async ({
  page,
}) => {
  const workflow = await createMemoryWorkflow(page, 'Dialogs');
  await runToEnd(page, workflow);
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);

  const run = page.getByTestId('run-dialog');
  await checkDialog(page, page.getByTestId('run-open'), run);
  await checkDialog(page, page.getByTestId('runs-open'), page.getByTestId('runs-dialog'));
  await checkDialog(page, page.getByTestId('open-history'), page.getByTestId('revisions-panel'));
  await checkDialog(page, page.getByTestId('open-share'), page.getByTestId('share-dialog'));

  // Named by its title, and the rest of the page is hidden from assistive technology meanwhile.
  await page.getByTestId('run-open').click();
  await expect(page.getByRole('dialog', { name: /Test-run version 1/ })).toBeVisible();
  await expect(run.getByTestId('run-confirm')).toBeEnabled();
  await page.screenshot({ path: `${SHOTS}/dialog-run.png` });
  await expect(page.getByRole('button', { name: 'History' })).toHaveCount(0);
  await expect(page.getByTestId('open-history')).toBeVisible();
  // A click outside closes it, as Close does.
  await page.mouse.click(10, DESKTOP.height - 10);
  await expect(run).toHaveCount(0);
  await page.getByTestId('run-open').click();
  await run.getByTestId('run-close').click();
  await expect(run).toHaveCount(0);
  await expect(page.getByTestId('run-open')).toBeFocused();
});

test('revoking a link asks first; Escape keeps the link, confirming removes it and the box that showed it', async ({
  page,
}) => {
  const workflow = await createMemoryWorkflow(page, 'Revoke with care');
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);
  await page.getByTestId('open-share').click();
  const share = page.getByTestId('share-dialog');
  await share.getByTestId('share-create').click();
  await expect(share.getByTestId('share-link')).toHaveValue(/\/s\//);
  await expect(share.getByTestId('share-item')).toHaveCount(1);

  const revoke = share.getByTestId('share-revoke');
  await revoke.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toHaveAttribute('role', 'alertdialog');
  await expect(confirm).toContainText('Revoke this link?');
  // Focus starts on the safe choice, and stays in the question.
  await expect(confirm.getByTestId('confirm-cancel')).toBeFocused();
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    expect(await hasFocusInside(confirm)).toBe(true);
  }
  await page.screenshot({ path: `${SHOTS}/dialog-confirm-revoke.png` });
  // Escape answers the question only: the share dialog stays, the link too.
  await page.keyboard.press('Escape');
  await expect(confirm).toHaveCount(0);
  await expect(share).toBeVisible();
  await expect(revoke).toBeFocused();
  await expect(share.getByTestId('share-item')).toHaveCount(1);

  await revoke.click();
  await confirm.getByTestId('confirm-action').click();
  await expect(share.getByTestId('share-item')).toHaveCount(0);
  // The dead link is no longer offered to copy, and focus is still in the dialog.
  await expect(share.getByTestId('share-created')).toHaveCount(0);
  await expect.poll(() => hasFocusInside(share)).toBe(true);
});

test('restoring a version asks first; Cancel changes nothing', async ({ page }) => {
  const workflow = await createMemoryWorkflow(page, 'Restore with care');
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);
  await editor.node('step_1').getByTestId('node-title').dblclick();
  await page.getByTestId('node-title-input').fill('Renamed');
  await page.getByTestId('node-title-input').press('Enter');
  await expect(page.getByTestId('save-state')).toHaveText('Saved');

  await page.getByTestId('open-history').click();
  await page.getByTestId('revision-1').click();
  await expect(page.getByTestId('revision-detail')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/dialog-history.png` });
  await page.getByTestId('revision-restore').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('Restore version 1?');
  await confirm.getByTestId('confirm-cancel').click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('revision-restore')).toBeFocused();
  await expect(editor.node('step_1')).toContainText('Renamed');
  const saved = (await (await page.request.get(`/api/workflows/${workflow.id}`)).json()).workflow;
  expect(saved.version).toBe(2);
});

test('the first step is a few Tab presses away; the skip link goes straight to it; the palette is one stop with arrow keys', async ({
  page,
}) => {
  const workflow = await createMemoryWorkflow(page, 'Keyboard');
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);
  await expect(page.getByTestId('palette-group').first()).toBeVisible();

  // From the top of the page, Tab by Tab, until a step on the canvas has focus.
  const inStep = () => page.evaluate(() => !!document.activeElement?.closest('.react-flow__node'));
  let presses = 0;
  while (presses < 40 && !(await inStep())) {
    await page.keyboard.press('Tab');
    presses += 1;
  }
  expect(await inStep()).toBe(true);
  expect(presses).toBeLessThanOrEqual(15);

  // The skip link is the first stop, shown when focused; Enter puts focus on the first step.
  await page.reload();
  await expect(editor.node('step_1')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByTestId('skip-to-canvas');
  await expect(skip).toBeFocused();
  const box = (await skip.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  await page.keyboard.press('Enter');
  await expect(page.locator('.react-flow__node[data-id="step_1"]')).toBeFocused();
  // Enter selects the focused step, and its inspector opens.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'step_1');

  // The palette: one Tab stop; the arrow keys move between tools; Tab leaves it.
  const tools = editor.palette.locator('.palette__tool');
  await tools.first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(tools.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(tools.last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(tools.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  expect(await editor.palette.locator('.palette__tool[tabindex="0"]').count()).toBe(1);
  await expect(tools.nth(1)).toHaveAttribute('tabindex', '0');
  await page.keyboard.press('Tab');
  expect(await editor.palette.evaluate((el) => el.contains(document.activeElement))).toBe(false);
  // Shift+Tab comes back to the tool last used.
  await page.keyboard.press('Shift+Tab');
  await expect(tools.nth(1)).toBeFocused();
});
