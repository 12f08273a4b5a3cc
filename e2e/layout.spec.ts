import { expect, test, type Page } from '@playwright/test';
import {
  DESKTOP,
  EditorPage,
  expectNoPageScroll,
  expectNoSidewaysScroll,
  expectOnScreen,
  HomePage,
  PHONE,
  RunPage,
  SharePage,
  SHOTS,
} from './support/pages';
import {
  createMaterialsWorkflow,
  createMemoryWorkflow,
  createShareLink,
  runToEnd,
} from './support/workflows';

/**
 * Layouts that hold, as a person sees them on a desktop and on a phone: the editor never scrolls
 * as a page (its panels scroll), a run lays out the same whether reached by a link or by a click,
 * the JSON panel cuts no line off, and at 390 px nothing scrolls sideways. Each page is reached
 * by its URL and by navigation, and photographed (e2e/__screenshots__/layout-*.png).
 */

test.use({ viewport: DESKTOP });

/** The focused element, with its box: it must be on screen. */
async function getFocused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const box = el?.getBoundingClientRect();
    return { tag: el?.tagName ?? '', id: el?.id ?? '', top: box?.top ?? -1, bottom: box?.bottom ?? -1 };
  });
}

/** Selects the relax step, focuses the lowest field of its form, and checks the page holds. */
async function checkEditorHolds(editor: EditorPage) {
  const { page } = editor;
  await expectNoPageScroll(page);
  await editor.select('step_2');
  await expectNoPageScroll(page);
  const fields = page.getByTestId('inspector-form').locator('input, select, textarea');
  const last = fields.last();
  await last.focus();
  const focused = await getFocused(page);
  expect(focused.id).toBe(await last.getAttribute('id'));
  // The panel scrolled to the field; the page did not: the header and its actions stay.
  expect(focused.bottom).toBeLessThanOrEqual(DESKTOP.height);
  await expectNoPageScroll(page);
  const bar = await expectOnScreen(editor.bar);
  expect(bar.y).toBe(0);
  for (const id of ['open-share', 'run-open', 'export-json']) await expectOnScreen(page.getByTestId(id));
  // The frame fills the window to its bottom edge: no strip of page below it.
  const frame = await page.locator('.editor').boundingBox();
  expect(frame!.height).toBe(DESKTOP.height);
  // Each column reaches the bottom and scrolls inside itself.
  for (const part of [editor.palette, page.getByTestId('prompt-bar'), editor.side]) {
    const box = await expectOnScreen(part);
    expect(box.y + box.height).toBeGreaterThan(DESKTOP.height - 2);
  }
}

test('the editor page never scrolls: a selected step and its lowest field keep the header on screen, by URL and by navigation', async ({
  page,
}) => {
  const workflow = await createMaterialsWorkflow(page, 'No page scroll');
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);
  await checkEditorHolds(editor);
  await page.screenshot({ path: `${SHOTS}/layout-editor-desktop.png` });

  // Tab on through the form: still no page scroll.
  for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+Tab');
  await expectNoPageScroll(page);

  const home = new HomePage(page);
  await home.goto();
  await home.open('No page scroll');
  await expect(editor.node('step_2')).toBeVisible();
  await checkEditorHolds(editor);
});

/** Where the run view's parts are: the canvas left of the step panel, which reaches the right edge. */
async function getRunLayout(run: RunPage) {
  const canvas = await expectOnScreen(run.canvas);
  const side = await expectOnScreen(run.side);
  const bar = await expectOnScreen(run.bar);
  expect(bar.y).toBe(0);
  expect(canvas.x).toBe(0);
  expect(Math.round(side.x + side.width)).toBe(DESKTOP.width);
  expect(Math.round(canvas.x + canvas.width)).toBe(Math.round(side.x));
  expect(canvas.width).toBeGreaterThan(DESKTOP.width / 2);
  expect(Math.round(canvas.y + canvas.height)).toBe(DESKTOP.height);
  await expectNoPageScroll(run.page);
  return { canvas, side };
}

test('a run lays out the same opened by its URL, reloaded, or reached from the editor', async ({ page }) => {
  const workflow = await createMemoryWorkflow(page, 'Run layout');
  const runId = await runToEnd(page, workflow);
  const run = new RunPage(page);

  await run.goto(workflow.id, runId);
  const byUrl = await getRunLayout(run);
  await page.getByTestId('node-step_3').getByTestId('node-title').click();
  await expect(page.getByTestId('run-node-detail')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/layout-run-desktop.png` });

  await page.reload();
  await run.ready();
  expect(await getRunLayout(run)).toEqual(byUrl);

  // By navigation: the editor's Runs dialog, then the run.
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);
  await page.getByTestId('runs-open').click();
  await page.getByTestId('runs-dialog').getByTestId('runs-item').first().click();
  await page.waitForURL(new RegExp(`/runs/${runId}$`));
  await run.ready();
  expect(await getRunLayout(run)).toEqual(byUrl);
});

/** The JSON text wraps inside its pane: no line is wider than the pane, and the pane is on screen. */
async function expectJsonNotClipped(page: Page) {
  const text = page.getByTestId('json-panel-text');
  await expect(text).toContainText('"input_parameters"');
  const fits = await text.evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(fits).toBe(true);
  await expectOnScreen(text);
}

test('the JSON panel wraps long lines instead of cutting them off, in the editor and on the share page', async ({
  page,
}) => {
  const workflow = await createMaterialsWorkflow(
    page,
    'A long name to show that the JSON text wraps at the edge',
  );
  const editor = new EditorPage(page);
  await editor.goto(workflow.id);
  await page.getByTestId('tab-json').click();
  await expectJsonNotClipped(page);
  await expectNoPageScroll(page);
  await page.screenshot({ path: `${SHOTS}/layout-json-panel.png` });

  const share = new SharePage(page);
  await share.goto(await createShareLink(page, workflow.id));
  await expectJsonNotClipped(page);
});

test('an import error leaves "New empty workflow" on one line', async ({ page }) => {
  const home = new HomePage(page);
  await home.goto();
  const button = page.getByTestId('new-workflow');
  const before = (await button.boundingBox())!;
  await page.getByTestId('import-file').setInputFiles({
    name: 'a-file-with-a-rather-long-name-that-is-not-a-workflow.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format": "something else", "nodes": "no"}'),
  });
  await expect(page.getByTestId('import-error')).toBeVisible();
  const after = (await button.boundingBox())!;
  expect(after.height).toBe(before.height);
  expect(after.width).toBe(before.width);
  await expectOnScreen(page.getByTestId('import-error'));
  await expectNoSidewaysScroll(page);
});

test.describe('on a 390 px phone', () => {
  test.use({ viewport: PHONE });

  test('the home page wraps its rows and never scrolls sideways, the toolkits page too', async ({ page }) => {
    await createMaterialsWorkflow(
      page,
      'Relax copper and compute its phonon band structure with a DPA model, then plot it',
    );
    const home = new HomePage(page);
    await home.goto();
    await expectNoSidewaysScroll(page);
    for (const item of await page.getByTestId('workflow-item').all()) {
      const box = (await item.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    }
    await expectOnScreen(page.getByTestId('new-workflow'));
    await page.screenshot({ path: `${SHOTS}/layout-home-phone.png` });

    await page.getByTestId('nav-toolkits').click();
    await expect(page.getByTestId('toolkit-card').first()).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/layout-toolkits-phone.png` });
    await page.goto('/toolkits');
    await expect(page.getByTestId('toolkit-card').first()).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('the editor shows the canvas to look at and says that editing needs a wider screen', async ({
    page,
  }) => {
    const workflow = await createMaterialsWorkflow(page, 'On a phone');
    const check = async () => {
      const editor = new EditorPage(page);
      await expect(editor.node('step_1')).toBeVisible();
      await expect(page.getByTestId('narrow-note')).toContainText('Editing needs a wider screen');
      await expect(editor.palette).toBeHidden();
      await expect(editor.side).toBeHidden();
      await expect(page.getByTestId('prompt-bar')).toBeHidden();
      await expectNoPageScroll(page);
      const canvas = await expectOnScreen(editor.canvas);
      expect(canvas.width).toBe(PHONE.width);
      // It opens on the first step at a zoom where its text can be read (not the outline look).
      await expectOnScreen(editor.node('step_1').getByTestId('node-title'));
      await expect(editor.node('step_1')).not.toHaveClass(/tn--compact/);
      await expect(editor.node('step_1').getByTestId('param-formula')).toBeVisible();
      // Share, Export and Run stay in reach; the toolbar offers what a viewer can use.
      for (const id of ['open-share', 'export-json', 'run-open']) await expectOnScreen(page.getByTestId(id));
      await expect(page.getByTestId('canvas-toolbar').getByRole('button')).toHaveCount(1);
      return editor;
    };
    await page.goto('/');
    await new HomePage(page).open('On a phone');
    const editor = await check();
    await page.screenshot({ path: `${SHOTS}/layout-editor-phone.png` });

    // Read-only: dragging a step does not move it.
    const before = (await editor.node('step_1').boundingBox())!;
    const other = (await editor.node('step_2').boundingBox())!;
    const title = (await editor.node('step_1').getByTestId('node-title').boundingBox())!;
    await page.mouse.move(title.x + 4, title.y + 4);
    await page.mouse.down();
    await page.mouse.move(title.x + 60, title.y + 90, { steps: 6 });
    await page.mouse.up();
    const after = (await editor.node('step_1').boundingBox())!;
    const otherAfter = (await editor.node('step_2').boundingBox())!;
    expect(Math.round(after.x - otherAfter.x)).toBe(Math.round(before.x - other.x));
    expect(Math.round(after.y - otherAfter.y)).toBe(Math.round(before.y - other.y));
    await expect(page.getByTestId('save-state')).toHaveText('Saved');

    await page.goto(`/w/${workflow.id}`);
    await check();
  });

  test('the share page and a run are usable read-only: canvas above, details below, a click shows a step', async ({
    page,
  }) => {
    const workflow = await createMaterialsWorkflow(page, 'Shared to a phone');
    const share = new SharePage(page);
    await share.goto(await createShareLink(page, workflow.id));
    await expectNoPageScroll(page);
    const canvas = await expectOnScreen(share.canvas);
    const side = await expectOnScreen(share.side);
    expect(canvas.width).toBe(PHONE.width);
    await expect(share.node('step_1')).not.toHaveClass(/tn--compact/);
    expect(side.y).toBeGreaterThanOrEqual(canvas.y + canvas.height - 1);
    await expectOnScreen(page.getByTestId('shared-fork'));
    await share.node('step_1').getByTestId('node-title').click();
    await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'step_1');
    await expectNoPageScroll(page);
    await page.screenshot({ path: `${SHOTS}/layout-share-phone.png` });

    const memory = await createMemoryWorkflow(page, 'Run on a phone');
    const runId = await runToEnd(page, memory);
    const run = new RunPage(page);
    await run.goto(memory.id, runId);
    await expectNoPageScroll(page);
    const runCanvas = await expectOnScreen(run.canvas);
    const runSide = await expectOnScreen(run.side);
    expect(runSide.y).toBeGreaterThanOrEqual(runCanvas.y + runCanvas.height - 1);
    await page.screenshot({ path: `${SHOTS}/layout-run-phone.png` });
  });
});

test('desktop pictures of the home, share and toolkits pages', async ({ page }) => {
  const workflow = await createMaterialsWorkflow(page, 'Relax copper and compute its phonons');
  const home = new HomePage(page);
  await home.goto();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/layout-home-desktop.png` });

  const share = new SharePage(page);
  await share.goto(await createShareLink(page, workflow.id));
  await share.node('step_2').getByTestId('node-title').click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'step_2');
  await expectNoPageScroll(page);
  await page.screenshot({ path: `${SHOTS}/layout-share-desktop.png` });

  await page.goto('/toolkits');
  await expect(page.getByTestId('toolkit-card').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/layout-toolkits-desktop.png` });
});
