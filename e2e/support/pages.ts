/**
 * Page objects for the layout, dialog and accessibility specs: each page's parts by data-testid,
 * how to reach the page by URL and by navigation, and the layout checks a person would make
 * (the page does not scroll, nothing is off-screen).
 */
import { expect, type Locator, type Page } from '@playwright/test';

export const SHOTS = 'e2e/__screenshots__';
export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** How far the page itself scrolls, beside the viewport's size. */
export async function getPageScroll(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return {
      scrollHeight: root.scrollHeight,
      scrollWidth: root.scrollWidth,
      scrollTop: root.scrollTop,
      scrollLeft: root.scrollLeft,
      innerHeight: window.innerHeight,
      innerWidth: window.innerWidth,
    };
  });
}

/** The page is exactly the viewport: panels scroll inside themselves, the page never does. */
export async function expectNoPageScroll(page: Page) {
  const scroll = await getPageScroll(page);
  expect(scroll.scrollHeight, 'page height').toBeLessThanOrEqual(scroll.innerHeight);
  expect(scroll.scrollWidth, 'page width').toBeLessThanOrEqual(scroll.innerWidth);
  expect([scroll.scrollTop, scroll.scrollLeft]).toEqual([0, 0]);
}

/** The page may be taller than the screen, but it never scrolls sideways. */
export async function expectNoSidewaysScroll(page: Page) {
  const scroll = await getPageScroll(page);
  expect(scroll.scrollWidth, 'page width').toBeLessThanOrEqual(scroll.innerWidth);
}

/** The element's box lies wholly inside the viewport (a pixel of rounding allowed). */
export async function expectOnScreen(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, 'visible').not.toBeNull();
  const viewport = locator.page().viewportSize()!;
  expect(box!.x).toBeGreaterThanOrEqual(-1);
  expect(box!.y).toBeGreaterThanOrEqual(-1);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width + 1);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height + 1);
  return box!;
}

/** Console errors and failed requests (a 404 for a favicon is one) while the page is open. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  return problems;
}

export class HomePage {
  readonly list: Locator;
  readonly actions: Locator;
  constructor(readonly page: Page) {
    this.list = page.getByTestId('workflow-list');
    this.actions = page.getByTestId('home-actions');
  }
  async goto() {
    await this.page.goto('/');
    await expect(this.page.getByTestId('toolkit-picker')).toBeVisible();
  }
  /** Opens a workflow from the list, as a person clicks it. */
  async open(name: string) {
    await this.list.getByRole('link', { name }).click();
    await this.page.waitForURL(/\/w\/wf_[^/]+$/);
  }
  /** The row of a workflow in the list, by its id. */
  row(workflowId: string) {
    return this.list.locator(`[data-workflow-id="${workflowId}"]`);
  }
  /** The names in the list, top to bottom, as its links show them. */
  names() {
    return this.list.locator('.home__item-name').allTextContents();
  }
  /** What the list last said it did ("Renamed to …", "Deleted …"). */
  get status() {
    return this.page.getByTestId('workflow-list-status');
  }
  /** Renames a row in place, as a person does: Rename, type, Enter. */
  async rename(workflowId: string, name: string) {
    const row = this.row(workflowId);
    await row.getByTestId('rename-workflow').click();
    const input = row.getByTestId('workflow-name-input');
    await expect(input).toBeFocused();
    await input.fill(name);
    await input.press('Enter');
    await expect(this.status).toHaveText(`Renamed to “${name.trim()}”.`);
  }
}

/** The editor's History dialog. */
export class HistoryDialog {
  readonly dialog: Locator;
  readonly entries: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByTestId('revisions-panel');
    this.entries = this.dialog.getByTestId('revision-entry');
  }
  async open() {
    await this.page.getByTestId('open-history').click();
    await expect(this.dialog).toBeVisible();
    await expect(this.entries.first()).toBeVisible();
  }
  entry(version: number) {
    return this.dialog.locator(`[data-testid="revision-entry"][data-version="${version}"]`);
  }
  /** Each entry's version and headline, newest first. */
  async headlines(): Promise<[string, string][]> {
    const rows = await this.entries.all();
    return Promise.all(
      rows.map(async (row) => [
        (await row.getAttribute('data-version')) ?? '',
        (await row.getByTestId('revision-headline').textContent()) ?? '',
      ]),
    );
  }
  /** Opens an entry's details: what changed between it and the current version. */
  async show(version: number) {
    const row = this.dialog.getByTestId(`revision-${version}`);
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    await expect(row).toHaveAttribute('aria-expanded', 'true');
    await expect(this.entry(version).getByTestId('revision-detail')).toBeVisible();
  }
  /** Restores an entry after saying yes to the question. */
  async restore(version: number) {
    await this.show(version);
    await this.dialog.getByTestId('revision-restore').click();
    await this.page.getByTestId('confirm-dialog').getByTestId('confirm-action').click();
  }
}

export class EditorPage {
  readonly bar: Locator;
  readonly palette: Locator;
  readonly canvas: Locator;
  readonly side: Locator;
  constructor(readonly page: Page) {
    this.bar = page.getByTestId('editor-bar');
    this.palette = page.getByTestId('palette');
    this.canvas = page.getByTestId('canvas');
    this.side = page.getByTestId('side-panel');
  }
  node(id: string) {
    return this.page.getByTestId(`node-${id}`);
  }
  async goto(workflowId: string, firstNode = 'step_1') {
    await this.page.goto(`/w/${workflowId}`);
    await expect(this.node(firstNode)).toBeVisible();
  }
  /** The workflow's name, the page's heading. */
  get title() {
    return this.page.getByTestId('workflow-name');
  }
  /** Waits until the editor says everything is saved. */
  async saved() {
    await expect(this.page.getByTestId('save-state')).toHaveText('Saved');
  }
  /** Renames the workflow in the header, as a person does: Rename, type, Enter. */
  async rename(name: string) {
    await this.bar.getByTestId('rename-workflow').click();
    const input = this.bar.getByTestId('workflow-name-input');
    await expect(input).toBeFocused();
    await input.fill(name);
    await input.press('Enter');
    await expect(this.title).toHaveText(name.trim());
  }
  /** Opens the header's "More" menu (Duplicate, Delete). */
  async openMenu() {
    await this.bar.getByTestId('workflow-menu').click();
    await expect(this.bar.getByTestId('duplicate-workflow')).toBeFocused();
  }
  /** Selects a step by clicking its title, and waits for its inspector. */
  async select(id: string) {
    await this.node(id).getByTestId('node-title').click();
    await expect(this.page.getByTestId('inspector')).toHaveAttribute('data-node-id', id);
    await expect(this.page.getByTestId('inspector-form')).toBeVisible();
  }
}

export class RunPage {
  readonly bar: Locator;
  readonly canvas: Locator;
  readonly side: Locator;
  constructor(readonly page: Page) {
    this.bar = page.getByTestId('run-bar');
    this.canvas = page.getByTestId('canvas');
    this.side = page.getByTestId('run-side');
  }
  async goto(workflowId: string, runId: string) {
    await this.page.goto(`/w/${workflowId}/runs/${runId}`);
    await this.ready();
  }
  async ready() {
    await expect(this.page.getByTestId('run-status')).toHaveText('succeeded');
    await expect(this.page.getByTestId('node-step_1')).toBeVisible();
  }
}

export class SharePage {
  readonly bar: Locator;
  readonly canvas: Locator;
  readonly side: Locator;
  constructor(readonly page: Page) {
    this.bar = page.getByTestId('shared-bar');
    this.canvas = page.getByTestId('canvas');
    this.side = page.getByTestId('shared-side');
  }
  node(id: string) {
    return this.page.getByTestId(`node-${id}`);
  }
  async goto(path: string) {
    await this.page.goto(path);
    await expect(this.node('step_1')).toBeVisible();
  }
}
