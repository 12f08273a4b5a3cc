import AxeBuilder from '@axe-core/playwright';
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
 * The account page as a person uses it (docs/design.md §13): reached from the e-mail in the
 * account bar; the name and the password changed; a second browser's session seen and signed out
 * after a question; an API token made for a workspace, shown once and copied, used by a script
 * over HTTP, and revoked after a question so the script is refused. The page fits the screen and
 * has no serious axe violation. Its addresses are its own: every spec shares one server.
 */

test.use({ viewport: DESKTOP });

const PASSWORD = 'a long enough password';

async function signUp(page: Page, email: string, name: string) {
  await page.goto('/sign-up');
  await page.getByTestId('auth-name').fill(name);
  await page.getByTestId('auth-email').fill(email);
  await page.getByTestId('auth-password').fill(PASSWORD);
  await page.getByTestId('auth-submit').click();
  await expect(page.getByTestId('account-email')).toHaveText(email);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/sign-in');
  await page.getByTestId('auth-email').fill(email);
  await page.getByTestId('auth-password').fill(password);
  await page.getByTestId('auth-submit').click();
}

async function newPage(browser: Browser) {
  const context = await browser.newContext({ viewport: DESKTOP });
  return context.newPage();
}

async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.help} — ${v.nodes[0].target.join(' ')}`);
  expect(serious).toEqual([]);
  await expect(page.locator('h1')).toHaveCount(1);
  await expect(page.getByRole('main')).toHaveCount(1);
}

test('a guest is sent to sign in; the account page fits the screen and changes the name and password', async ({
  page,
  browser,
}) => {
  await page.goto('/account');
  await page.waitForURL('**/sign-in');

  await signUp(page, 'hopper@account.example', 'Grace');
  await page.getByTestId('account-email').click();
  await page.waitForURL('**/account');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
  await expect(page.getByTestId('account-page-email')).toHaveText('hopper@account.example');
  await expect(page.getByTestId('account-workspaces').getByRole('link')).toHaveText(["Grace's workspace"]);
  await expectNoPageScroll(page);
  for (const id of ['profile-save', 'password-save', 'sessions-revoke-others', 'token-create'])
    await expectOnScreen(page.getByTestId(id));
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/account-page.png` });
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: `${SHOTS}/account-page-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);

  await page.getByTestId('profile-name').fill('Grace H.');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-done')).toHaveText('Saved.');
  await page.reload();
  await expect(page.getByTestId('profile-name')).toHaveValue('Grace H.');

  // A wrong current password changes nothing; the right one changes it.
  await page.getByTestId('password-current').fill('not my password');
  await page.getByTestId('password-new').fill('a new long password');
  await page.getByTestId('password-save').click();
  await expect(page.getByTestId('password-error')).toBeVisible();
  await page.getByTestId('password-current').fill(PASSWORD);
  await page.getByTestId('password-new').fill('a new long password');
  await page.getByTestId('password-save').click();
  await expect(page.getByTestId('password-done')).toHaveText('Password changed.');

  const other = await newPage(browser);
  await signIn(other, 'hopper@account.example', PASSWORD);
  await expect(other.getByTestId('auth-error')).toBeVisible();
  await signIn(other, 'hopper@account.example', 'a new long password');
  await expect(other.getByTestId('account-email')).toHaveText('hopper@account.example');
  await other.context().close();
});

test('another browser’s session is listed and signed out after a question', async ({ page, browser }) => {
  await signUp(page, 'torvalds@account.example', 'Linus');
  const other = await newPage(browser);
  await signIn(other, 'torvalds@account.example', PASSWORD);
  await expect(other.getByTestId('account-email')).toHaveText('torvalds@account.example');

  await page.goto('/account');
  await expect(page.getByTestId('session')).toHaveCount(2);
  await expect(page.getByTestId('session').first()).toContainText('this browser');
  await page.getByTestId('sessions-revoke-others').click();
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toBeVisible();
  await expectOnScreen(dialog);
  await expect(page.getByTestId('confirm-cancel')).toBeFocused();
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('sessions-done')).toHaveText('Other sessions signed out.');
  await expect(page.getByTestId('session')).toHaveCount(1);

  // The other browser is signed out at its next request; this one is not.
  await other.goto('/account');
  await other.waitForURL('**/sign-in');
  await page.reload();
  await expect(page.getByTestId('account-page-email')).toHaveText('torvalds@account.example');
  await other.context().close();
});

test('an API token is shown once, copied, works for a script, and is refused once revoked', async ({
  page,
  request,
}) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await signUp(page, 'thompson@account.example', 'Ken');
  await page.goto('/account');
  await expect(page.getByTestId('tokens-empty')).toBeVisible();
  await page.getByTestId('token-name').fill('Laptop');
  await page.getByTestId('token-create').click();
  const secret = (await page.getByTestId('token-secret').textContent()) ?? '';
  expect(secret).toMatch(/^tft_[A-Za-z0-9_-]{43}$/);
  await expectOnScreen(page.getByTestId('token-copy'));
  await page.getByTestId('token-copy').click();
  await expect(page.getByTestId('token-copy')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expect(page.getByTestId('token')).toHaveCount(1);
  await expect(page.getByTestId('token')).toContainText(secret.slice(0, 10));
  await expectNoPageScroll(page);
  await expectAccessible(page);
  await page.screenshot({ path: `${SHOTS}/account-token-made.png` });

  // A script with the token and no cookie acts in the token's workspace.
  const auth = { authorization: `Bearer ${secret}` };
  const made = await request.post('/api/workflows', {
    headers: auth,
    data: { name: 'From a script', document: { task: '', nodes: [], edges: [], tools: {} } },
  });
  expect(made.status()).toBe(201);
  const listed = await request.get('/api/workflows', { headers: auth });
  expect((await listed.json()).workflows.map((w: { name: string }) => w.name)).toEqual(['From a script']);

  // Shown once: after a reload only its first characters are.
  await page.reload();
  await expect(page.getByTestId('token-secret')).toHaveCount(0);
  await expect(page.getByTestId('token')).toContainText(secret.slice(0, 10));
  expect(await page.content()).not.toContain(secret);

  await page.getByTestId('token-revoke').click();
  await expect(page.getByTestId('confirm-dialog')).toContainText('Revoke the token “Laptop”?');
  await page.getByTestId('confirm-action').click();
  await expect(page.getByTestId('tokens-empty')).toBeVisible();
  const refused = await request.get('/api/workflows', { headers: auth });
  expect(refused.status()).toBe(401);
  expect((await refused.json()).message).toContain('unknown, revoked or expired');
});
