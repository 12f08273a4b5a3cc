import { expect, test, type Page } from '@playwright/test';
import { DESKTOP, expectNoPageScroll, expectOnScreen, HomePage } from './support/pages';
import { createMaterialsWorkflow } from './support/workflows';

/**
 * Single sign-on as a person meets it (docs/design.md §13.1), against a real OpenID Connect
 * provider on this machine (e2e/support/oidc-provider.ts, started by playwright.config.ts, which
 * names it "Example ID" to the app): a guest's work comes into the account made at the first
 * sign-in, the next sign-in finds the same account, and a refusal at the provider or a forged
 * return comes back to /sign-in as a sentence.
 */

test.use({ viewport: DESKTOP });

const BUTTON = 'Sign in with Example ID';
/** The provider's port, as playwright.config.ts chooses it. */
const PROVIDER_PORT = process.env.E2E_OIDC_PORT ?? String(Number(process.env.E2E_PORT ?? 3210) + 5);

/** The provider's development pages import a web font; this machine has no network to fetch it. */
async function offline(page: Page) {
  await page.route(/^https:\/\/fonts\.(googleapis|gstatic)\.com\//, (route) => route.abort());
}

/** From /sign-in to the provider's login form. */
async function startAtProvider(page: Page) {
  await page.getByRole('button', { name: BUTTON }).click();
  await page.waitForURL((url) => url.port === PROVIDER_PORT);
  await expect(page.locator('input[name="login"]')).toBeVisible();
}

/** Signs in at the provider's login form and allows Toolflow on its consent page. */
async function signInAtProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password: the development form checks none');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** The signed-in account, as Better Auth reports it to this browser. */
async function sessionUser(page: Page): Promise<{ id: string; email: string; name: string }> {
  const response = await page.request.get('/api/auth/get-session');
  expect(response.status()).toBe(200);
  return (await response.json()).user;
}

test('a guest signs in with single sign-on, keeps their workflow, and finds the same account next time', async ({
  page,
}) => {
  await offline(page);
  const workflow = await createMaterialsWorkflow(page, 'Planned before single sign-on');
  const home = new HomePage(page);
  await home.goto();
  await page.getByTestId('nav-sign-in').click();
  await page.waitForURL('**/sign-in');
  await expectOnScreen(page.getByRole('button', { name: BUTTON }));
  await expectNoPageScroll(page);

  await startAtProvider(page);
  await signInAtProvider(page, 'lin');

  // Home, signed in as the provider's person, in their personal workspace, with the guest's work.
  await page.waitForURL((url) => url.pathname === '/' && url.port !== PROVIDER_PORT);
  await expect(page.getByTestId('account-email')).toHaveText('lin@example.com');
  await expect(page.getByTestId('workspace-switcher').locator('option:checked')).toHaveText(
    "Lin Okafor's workspace (owner)",
  );
  expect(await home.names()).toEqual(['Planned before single sign-on']);
  expect((await page.request.get(`/api/workflows/${workflow.id}`)).status()).toBe(200);
  const first = await sessionUser(page);
  expect(first).toMatchObject({ email: 'lin@example.com', name: 'Lin Okafor' });

  // Signed out, a guest again; signing in once more (the provider remembers the person) is the
  // same account, whose workflow is still there.
  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('nav-sign-in')).toBeVisible();
  expect(await home.names()).toEqual([]);
  await page.goto('/sign-up');
  await page.getByRole('button', { name: BUTTON }).click();
  await expect(page.getByTestId('account-email')).toHaveText('lin@example.com');
  expect((await sessionUser(page)).id).toBe(first.id);
  expect(await home.names()).toEqual(['Planned before single sign-on']);
});

test('cancelling at the provider, or a return the app did not start, comes back to /sign-in as a sentence', async ({
  page,
}) => {
  await offline(page);
  await page.goto('/sign-in');
  await startAtProvider(page);
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
  await page.waitForURL(/\/sign-in\?error=access_denied/);
  await expect(page.getByTestId('sso-error')).toHaveText(
    'Signing in with Example ID was cancelled or refused, so you are not signed in. Try again, or sign in with your e-mail and password.',
  );
  const session = await page.request.get('/api/auth/get-session');
  expect(session.status()).toBe(200);
  expect(await session.json()).toBeNull();

  // A callback with a forged state (as a link from someone else would carry) signs nobody in.
  await page.goto('/api/auth/callback/oidc?code=forged&state=forged');
  await page.waitForURL(/\/sign-in\?error=state_/);
  await expect(page.getByTestId('sso-error')).toContainText(
    'That sign-in with Example ID was started in another browser or tab, or took too long.',
  );
  await expect(page.locator('body')).not.toContainText(/\bat \S+:\d+|Error:/);
  // And the button still works afterwards.
  await startAtProvider(page);
  await signInAtProvider(page, 'sam');
  await expect(page.getByTestId('account-email')).toHaveText('sam@example.com');
});
