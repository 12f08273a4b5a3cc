import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  DESKTOP,
  expectNoPageScroll,
  expectNoSidewaysScroll,
  expectOnScreen,
  HomePage,
  PHONE,
  SHOTS,
} from './support/pages';
import { createMaterialsWorkflow } from './support/workflows';

/**
 * Accounts as a person meets them (docs/design.md §13): a guest works as always, then signs up and
 * finds the same workflows in the account; signs out and is a guest again; signs back in. Two
 * people in two browsers: one makes a shared workspace and invites the other as a viewer, who sees
 * the workflow read-only, and becomes an editor. The account pages fit the screen, reached by
 * clicking and by URL.
 */

test.use({ viewport: DESKTOP });

const PASSWORD = 'a long enough password';

/** Signs up from the home page, as a person does: Sign in, then "Create one". */
async function signUp(page: Page, email: string, name: string) {
  await page.goto('/');
  await page.getByTestId('nav-sign-in').click();
  await page.waitForURL('**/sign-in');
  await page.getByRole('link', { name: 'Create one' }).click();
  await page.waitForURL('**/sign-up');
  await page.getByTestId('auth-name').fill(name);
  await page.getByTestId('auth-email').fill(email);
  await page.getByTestId('auth-password').fill(PASSWORD);
  await page.getByTestId('auth-submit').click();
  await expect(page.getByTestId('account-email')).toHaveText(email);
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/sign-in');
  await page.getByTestId('auth-email').fill(email);
  await page.getByTestId('auth-password').fill(password);
  await page.getByTestId('auth-submit').click();
}

async function newPage(browser: Browser) {
  const context = await browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

test('a guest signs up and keeps their workflows; signs out to an empty guest list; signs back in', async ({
  page,
}) => {
  const workflow = await createMaterialsWorkflow(page, 'Made as a guest');
  const guestOwner = (await (await page.request.get(`/api/workflows/${workflow.id}`)).json()).workflow
    .ownerId;
  const home = new HomePage(page);
  await home.goto();
  expect(await home.names()).toEqual(['Made as a guest']);

  // The sign-in and sign-up pages fit the screen, on a desktop and on a phone.
  await page.goto('/sign-up');
  await expectNoPageScroll(page);
  await expectOnScreen(page.getByTestId('auth-submit'));
  await page.setViewportSize(PHONE);
  await expectNoPageScroll(page);
  await expectOnScreen(page.getByTestId('auth-submit'));
  await page.screenshot({ path: `${SHOTS}/account-sign-up-phone.png` });
  await page.setViewportSize(DESKTOP);

  await signUp(page, 'ada@example.com', 'Ada');
  // The guest's workflow is now the account's, and opens in the editor.
  expect(await home.names()).toEqual(['Made as a guest']);
  const saved = await page.request.get(`/api/workflows/${workflow.id}`);
  expect(saved.status()).toBe(200);
  expect((await saved.json()).workflow.ownerId).not.toBe(guestOwner);
  await expectNoSidewaysScroll(page);
  for (const id of ['workspace-switcher', 'nav-members', 'sign-out'])
    await expectOnScreen(page.getByTestId(id));
  await page.screenshot({ path: `${SHOTS}/account-home-signed-in.png` });

  // Signed out, this browser is a guest again, with the guest workspace that was emptied.
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('nav-sign-in')).toBeVisible();
  expect(await home.names()).toEqual([]);
  expect((await page.request.get(`/api/workflows/${workflow.id}`)).status()).toBe(403);

  // A wrong password says so without saying whether the address exists.
  await signIn(page, 'ada@example.com', 'not the password');
  const wrong = await page.getByTestId('auth-error').textContent();
  await signIn(page, 'nobody@example.com', 'not the password');
  await expect(page.getByTestId('auth-error')).toHaveText(wrong!);

  await signIn(page, 'ada@example.com');
  await expect(page.getByTestId('account-email')).toHaveText('ada@example.com');
  expect(await home.names()).toEqual(['Made as a guest']);
});

test('two people: a shared workspace, an invitation by e-mail, a viewer reads, an editor edits', async ({
  browser,
}) => {
  const owner = await newPage(browser);
  const member = await newPage(browser);
  await signUp(owner, 'grace@example.com', 'Grace');

  // The members page, reached by navigation: the personal workspace is Grace's alone.
  await owner.getByTestId('nav-members').click();
  await owner.waitForURL(/\/workspaces\//);
  await expect(owner.getByTestId('my-role')).toHaveText('owner');
  await expect(owner.getByTestId('invite-form')).toHaveCount(0);

  // A shared workspace; inviting an address that has no account yet leaves an invitation.
  await owner.getByTestId('new-workspace-name').fill('Materials lab');
  await owner.getByTestId('create-workspace').click();
  await expect(owner.getByTestId('workspace-name')).toHaveText('Materials lab');
  await owner.getByTestId('invite-email').fill('linus@example.com');
  await owner.getByTestId('invite-role').selectOption('viewer');
  await owner.getByTestId('invite-submit').click();
  await expect(owner.getByTestId('invitation')).toContainText('linus@example.com');
  await expectNoPageScroll(owner);
  await expectOnScreen(owner.getByTestId('invite-submit'));
  await owner.screenshot({ path: `${SHOTS}/account-members.png` });
  const membersUrl = owner.url();

  // A workflow in the shared workspace (the one Grace now works in).
  const workflow = await createMaterialsWorkflow(owner, 'Lab workflow');
  const home = new HomePage(owner);
  await home.goto();
  await expect(owner.getByTestId('workspace-switcher')).toHaveValue(/own_/);
  expect(await home.names()).toEqual(['Lab workflow']);

  // Linus signs up: the invitation is taken up, and the switcher offers the lab.
  await signUp(member, 'linus@example.com', 'Linus');
  expect((await member.request.get(`/api/workflows/${workflow.id}`)).status()).toBe(403);
  const labId = new URL(membersUrl).pathname.split('/').pop()!;
  await member.getByTestId('workspace-switcher').selectOption(labId);
  await expect.poll(() => new HomePage(member).names()).toEqual(['Lab workflow']);
  // As a viewer: the editor opens read-only, and a save is refused.
  await member.goto(`/w/${workflow.id}`);
  await expect(member.getByTestId('rename-workflow')).toHaveCount(0);
  const read = (await (await member.request.get(`/api/workflows/${workflow.id}`)).json()).workflow;
  const refused = await member.request.put(`/api/workflows/${workflow.id}`, {
    data: { version: read.version, name: 'Mine now', document: read.document },
  });
  expect(refused.status()).toBe(403);

  // Grace makes Linus an editor on the members page, reached by its URL.
  await owner.goto(membersUrl);
  await expectNoPageScroll(owner);
  const linus = owner.getByTestId('member').filter({ hasText: 'linus@example.com' });
  await linus.getByTestId('member-role').selectOption('editor');
  await expect(linus.getByTestId('member-role')).toHaveValue('editor');
  await member.goto(`/w/${workflow.id}`);
  await expect(member.getByTestId('rename-workflow')).toBeVisible();

  // The members page on a phone: nothing scrolls sideways, the invite button is on screen.
  await owner.setViewportSize(PHONE);
  await owner.goto(membersUrl);
  await expectNoSidewaysScroll(owner);
  await expectOnScreen(owner.getByTestId('invite-submit'));

  // Removed, Linus no longer reaches the lab's workflow.
  await owner.setViewportSize(DESKTOP);
  await owner.goto(membersUrl);
  await owner
    .getByTestId('member')
    .filter({ hasText: 'linus@example.com' })
    .getByTestId('member-remove')
    .click();
  await expect(owner.getByTestId('member').filter({ hasText: 'linus@example.com' })).toHaveCount(0);
  expect((await member.request.get(`/api/workflows/${workflow.id}`)).status()).toBe(403);
});
