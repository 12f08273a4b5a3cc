import { expect, test, type Page } from '@playwright/test';
import {
  DESKTOP,
  EditorPage,
  HistoryDialog,
  HomePage,
  PHONE,
  SHOTS,
  expectNoSidewaysScroll,
} from './support/pages';
import { MATERIALS_TASK, createMaterialsWorkflow } from './support/workflows';

/**
 * Workflows a person can manage: rename in place (on the home page and in the editor's header),
 * duplicate, delete after a question; names stored whole and shortened only on screen; a history
 * of a few entries that say what they are, a diff by step title with the values that changed,
 * and a restore that says what it did.
 */

test.use({ viewport: DESKTOP });

const LONG_NAME =
  'Relax a bulk fcc copper cell with the DPA-3 model, then compute its phonon band structure and density of states at 300 K for the thermal conductivity report';

async function getSaved(page: Page, id: string) {
  return (await (await page.request.get(`/api/workflows/${id}`)).json()).workflow;
}

/** Sets step_2's model path in the inspector and waits for the autosave. */
async function setModelPath(editor: EditorPage, value: string) {
  await editor.select('step_2');
  await editor.page.getByTestId('inspector-param-model_path').locator('input').fill(value);
  await editor.saved();
}

test('on the home page a workflow is renamed in place, duplicated, and deleted after a question', async ({
  page,
}) => {
  const first = await createMaterialsWorkflow(page, 'Copper phonons');
  const second = await createMaterialsWorkflow(page, 'Keep me');
  const home = new HomePage(page);
  await home.goto();
  expect(await home.names()).toEqual(['Keep me', 'Copper phonons']);

  // Rename: the whole name is stored; the list shortens it on screen and keeps it in the title.
  await home.rename(first.id, LONG_NAME);
  const link = home.row(first.id).getByRole('link');
  await expect(link).toHaveText(LONG_NAME);
  await expect(link).toHaveAttribute('title', LONG_NAME);
  expect(await link.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect((await getSaved(page, first.id)).name).toBe(LONG_NAME);
  await page.screenshot({ path: `${SHOTS}/home-manage.png` });
  // Escape leaves the name as it was.
  await home.row(first.id).getByTestId('rename-workflow').click();
  await home.row(first.id).getByTestId('workflow-name-input').fill('Not this');
  await home.row(first.id).getByTestId('workflow-name-input').press('Escape');
  await expect(home.row(first.id).getByTestId('rename-workflow')).toBeFocused();
  await expect(link).toHaveText(LONG_NAME);

  // Duplicate: the copy is mine, first in the list, under "Copy of …".
  await home.row(second.id).getByTestId('duplicate-workflow').click();
  await expect(home.status).toHaveText('Duplicated as “Copy of Keep me”, now first in the list.');
  await expect.poll(() => home.names()).toEqual(['Copy of Keep me', LONG_NAME, 'Keep me']);

  // Delete asks first; Cancel changes nothing, the second time it is gone.
  await home.row(second.id).getByTestId('delete-workflow').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('Delete this workflow?');
  await expect(confirm).toContainText('“Keep me” is deleted with its history');
  await expect(confirm.getByTestId('confirm-cancel')).toBeFocused();
  await confirm.getByTestId('confirm-cancel').click();
  await expect(home.row(second.id)).toBeVisible();
  await home.row(second.id).getByTestId('delete-workflow').click();
  await confirm.getByTestId('confirm-action').click();
  await expect(home.status).toHaveText('Deleted “Keep me”.');
  await expect(home.row(second.id)).toHaveCount(0);
  expect((await page.request.get(`/api/workflows/${second.id}`)).status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'My workflows' })).toBeFocused();
});

test('a phone shows the managed list without scrolling sideways', async ({ page }) => {
  await createMaterialsWorkflow(page, LONG_NAME);
  await page.setViewportSize(PHONE);
  const home = new HomePage(page);
  await home.goto();
  await expect(page.getByTestId('workflow-item')).toHaveCount(1);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/home-manage-phone.png`, fullPage: true });
});

test('in the editor the name is renamed in the header through autosave, then duplicated and deleted', async ({
  page,
}) => {
  const workflow = await createMaterialsWorkflow(page, 'Header rename');
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);

  // A rename and an edit right after it are saved in order, neither refused as stale.
  await editor.rename('Copper, renamed in the header');
  await setModelPath(editor, '/opt/models/dpa3-renamed.pt');
  await expect(page.getByTestId('conflict-banner')).toHaveCount(0);
  const saved = await getSaved(page, workflow.id);
  expect(saved.name).toBe('Copper, renamed in the header');
  expect(saved.document.nodes[1].args.model_path).toBe('/opt/models/dpa3-renamed.pt');
  // One save or two, depending on how quickly the edit followed the rename.
  expect([2, 3]).toContain(saved.version);
  await expect(editor.title).toHaveAttribute('title', 'Copper, renamed in the header');
  await page.reload();
  await expect(editor.title).toHaveText('Copper, renamed in the header');

  // Escape keeps the old name.
  await editor.bar.getByTestId('rename-workflow').click();
  await editor.bar.getByTestId('workflow-name-input').fill('Not this one');
  await editor.bar.getByTestId('workflow-name-input').press('Escape');
  await expect(editor.title).toHaveText('Copper, renamed in the header');
  await expect(editor.bar.getByTestId('rename-workflow')).toBeFocused();

  // Duplicate opens the copy.
  await editor.openMenu();
  await page.keyboard.press('Escape');
  await expect(editor.bar.getByTestId('workflow-menu')).toBeFocused();
  await editor.openMenu();
  await editor.bar.getByTestId('duplicate-workflow').click();
  await page.waitForURL((url) => url.pathname !== `/w/${workflow.id}`);
  await expect(editor.title).toHaveText('Copy of Copper, renamed in the header');
  const copyId = new URL(page.url()).pathname.split('/').pop()!;

  // Delete asks first, then goes home, where the copy is gone and the original stays.
  await editor.openMenu();
  await editor.bar.getByTestId('delete-workflow').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('Delete this workflow?');
  await confirm.getByTestId('confirm-cancel').click();
  await expect(editor.bar.getByTestId('workflow-menu')).toBeFocused();
  await editor.openMenu();
  await editor.bar.getByTestId('delete-workflow').click();
  await confirm.getByTestId('confirm-action').click();
  await page.waitForURL((url) => url.pathname === '/');
  const home = new HomePage(page);
  await expect(home.row(workflow.id)).toBeVisible();
  await expect(home.row(copyId)).toHaveCount(0);
  expect((await page.request.get(`/api/workflows/${copyId}`)).status()).toBe(404);
});

test('history keeps one entry for a stretch of autosaves, diffs by step title, and confirms a restore', async ({
  page,
}) => {
  const workflow = await createMaterialsWorkflow(page, 'History of edits');
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);
  // Edit, wait for the autosave, edit again: three versions.
  await setModelPath(editor, '/opt/models/dpa3-a.pt');
  await setModelPath(editor, '/opt/models/dpa3-b.pt');
  await setModelPath(editor, '/opt/models/dpa3-c.pt');
  expect((await getSaved(page, workflow.id)).version).toBe(4);

  const history = new HistoryDialog(page);
  await history.open();
  expect(await history.headlines()).toEqual([
    ['4', 'Autosaved'],
    ['1', `Planned from: ${MATERIALS_TASK}`],
  ]);
  await expect(history.entry(4)).toContainText('versions 2–4');
  await expect(history.entry(4).getByTestId('revision-current')).toHaveText('current');

  // The first version against the current one: the step by its title, the value before and after.
  await history.show(1);
  await expect(history.dialog.getByTestId('revision-summary')).toHaveText(
    'From this version to the current one (version 4): 1 param changed.',
  );
  const change = history.dialog.getByTestId('step-change-step_2');
  await expect(change).toContainText('Optimize (relax) structure');
  await expect(change).toContainText('changed');
  await expect(change.getByTestId('param-change')).toHaveText(
    'model_path: "/opt/models/dpa3.pt" → "/opt/models/dpa3-c.pt"',
  );
  await page.screenshot({ path: `${SHOTS}/history-diff.png` });

  // Restore asks, then says what it did; the new current entry heads the list.
  await history.restore(1);
  await expect(history.dialog.getByTestId('revisions-status')).toHaveText('Restored version 1 as version 5.');
  await expect(history.entries.first()).toHaveAttribute('data-version', '5');
  await expect(history.entries.first().getByTestId('revision-headline')).toHaveText(
    'Restored from version 1',
  );
  await expect(history.entries.first().getByTestId('revision-current')).toHaveText('current');
  await expect(history.dialog.getByTestId('revision-5')).toBeFocused();
  await expect(history.entry(4).getByTestId('revision-current')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/history-restored.png` });
  await page.keyboard.press('Escape');
  await editor.select('step_2');
  await expect(page.getByTestId('inspector-param-model_path').locator('input')).toHaveValue(
    '/opt/models/dpa3.pt',
  );

  // Edits after a restore begin an entry of their own; the restore keeps its entry.
  await setModelPath(editor, '/opt/models/dpa3-d.pt');
  await history.open();
  expect((await history.headlines()).map(([version, headline]) => `${version} ${headline}`)).toEqual([
    '6 Autosaved',
    '5 Restored from version 1',
    '4 Autosaved',
    `1 Planned from: ${MATERIALS_TASK}`,
  ]);
});
