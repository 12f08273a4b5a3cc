import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  DESKTOP,
  expectNoPageScroll,
  expectNoSidewaysScroll,
  expectOnScreen,
  PHONE,
  SHOTS,
} from './support/pages';

/**
 * Editing through a "can edit" link (docs/design.md §13.4), two people in two browsers: the owner
 * makes the link in the Share dialog; the other opens it, is sent to sign in (and signs up), comes
 * back to the link's page and opens the editor; their saves meet the owner's with the same
 * conflict banner as two tabs of one owner; the owner revokes the link, and the other's very
 * next save is refused, saying why.
 */

test.use({ viewport: DESKTOP });

const PASSWORD = 'a long enough password';

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

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

async function fillSignUp(page: Page, email: string, name: string) {
  await page.getByTestId('auth-name').fill(name);
  await page.getByTestId('auth-email').fill(email);
  await page.getByTestId('auth-password').fill(PASSWORD);
  await page.getByTestId('auth-submit').click();
}

async function rename(page: Page, nodeId: string, label: string) {
  await page.getByTestId(`node-${nodeId}`).getByTestId('node-title').dblclick();
  await page.getByTestId('node-title-input').fill(label);
  await page.getByTestId('node-title-input').press('Enter');
}

async function getSaved(page: Page, id: string) {
  return (await (await page.request.get(`/api/workflows/${id}`)).json()).workflow;
}

test('an edit link: the other person signs up, edits, meets a conflict, and is refused once revoked', async ({
  browser,
}) => {
  const owner = await newPage(browser);
  const other = await newPage(browser);

  // The owner has an account and a workflow in their workspace.
  await owner.goto('/sign-up');
  await fillSignUp(owner, 'mae@example.com', 'Mae');
  await expect(owner.getByTestId('account-email')).toHaveText('mae@example.com');
  const made = await owner.request.post('/api/workflows', { data: { name: 'Copper phonons', document } });
  expect(made.status()).toBe(201);
  const workflow: { id: string } = (await made.json()).workflow;

  // The Share dialog makes a "can edit" link.
  await owner.goto(`/w/${workflow.id}`);
  await owner.getByTestId('open-share').click();
  const share = owner.getByTestId('share-dialog');
  await share.getByTestId('share-role').selectOption('editor');
  await expect(share.getByTestId('share-explained')).toContainText('who signs in can edit');
  await share.getByTestId('share-create').click();
  const link = await share.getByTestId('share-link').inputValue();
  expect(link).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/);
  await expect(share.getByTestId('share-item')).toContainText('Can edit');
  await share.getByTestId('share-close').click();

  // Not signed in, the link sends the other person to sign in, and back after signing up.
  const linkPath = new URL(link).pathname;
  await other.goto(linkPath);
  await other.waitForURL(/\/sign-in\?next=/);
  await other.getByRole('link', { name: 'Create one' }).click();
  await other.waitForURL(/\/sign-up\?next=/);
  await fillSignUp(other, 'otto@example.com', 'Otto');
  await other.waitForURL((url) => url.pathname === linkPath);

  // The link's page names the workflow and fits the screen, on a desktop and on a phone.
  const landing = other.getByTestId('edit-link');
  await expect(landing.getByRole('heading')).toHaveText('Edit “Copper phonons”');
  await expect(landing).toContainText('otto@example.com');
  await expectNoPageScroll(other);
  await expectOnScreen(other.getByTestId('edit-link-open'));
  await other.setViewportSize(PHONE);
  await expectNoPageScroll(other);
  await expectNoSidewaysScroll(other);
  await expectOnScreen(other.getByTestId('edit-link-open'));
  await other.screenshot({ path: `${SHOTS}/edit-link-phone.png` });
  await other.setViewportSize(DESKTOP);

  // The editor opens on that workflow, for editing; running, sharing and deleting stay with its workspace.
  await other.getByTestId('edit-link-open').click();
  await other.waitForURL(`**/w/${workflow.id}`);
  await expect(other.getByTestId('node-step_2')).toBeVisible();
  await expect(other.getByTestId('rename-workflow')).toBeVisible();
  for (const id of ['open-share', 'run-open', 'workflow-menu'])
    await expect(other.getByTestId(id)).toHaveCount(0);
  await expectNoPageScroll(other);

  // Both have version 1 open. The owner saves first; the other's save meets the conflict banner.
  await owner.reload();
  await expect(owner.getByTestId('node-step_2')).toBeVisible();
  await rename(owner, 'step_1', 'Edited by Mae');
  await expect(owner.getByTestId('save-state')).toHaveText('Saved');
  const conflicted = other.waitForResponse(
    (r) => r.url().endsWith(`/api/workflows/${workflow.id}`) && r.request().method() === 'PUT',
  );
  await rename(other, 'step_2', 'Edited by Otto');
  expect((await conflicted).status()).toBe(409);
  await expect(other.getByTestId('conflict-banner')).toBeVisible();
  await expect(other.getByTestId('save-state')).toHaveText('Changed elsewhere');
  await other.getByTestId('conflict-merge').click();
  await expect(other.getByTestId('save-state')).toHaveText('Saved');
  const merged = await getSaved(owner, workflow.id);
  expect(merged.version).toBe(3);
  expect(merged.document.nodes.map((n: { label?: string }) => n.label)).toEqual([
    'Edited by Mae',
    'Edited by Otto',
  ]);
  // It stays in the owner's workspace: not in the other's list.
  const theirs = await (await other.request.get('/api/workflows')).json();
  expect(theirs.workflows.map((w: { id: string }) => w.id)).not.toContain(workflow.id);

  // The owner revokes the link (asked to confirm first).
  await owner.getByTestId('open-share').click();
  await share.getByTestId('share-item').getByTestId('share-revoke').click();
  await expect(owner.getByTestId('confirm-dialog')).toContainText('their next save is refused');
  await owner.getByTestId('confirm-dialog').getByTestId('confirm-action').click();
  await expect(share.getByTestId('share-item')).toHaveCount(0);

  // The other's editor is still open; its next save is refused, saying why, and nothing is written.
  await rename(other, 'step_1', 'After the revocation');
  const refusal = other.getByTestId('save-error-banner');
  await expect(refusal).toContainText('the edit link you opened it with was revoked or has expired');
  await expect(refusal).toContainText('Your changes are kept in this browser');
  expect((await getSaved(owner, workflow.id)).version).toBe(3);
  await other.reload();
  await expect(other.getByTestId('not-your-workflow')).toBeVisible();
  await expect(other.getByTestId('node-step_1')).toHaveCount(0);
});
