/**
 * A schema pattern cannot freeze a tab: a workflow whose own tool declares `^(a+)+$` on a required
 * parameter, with a value of 40 `a`s and a `!` (about 2^40 steps for a backtracking engine), opens
 * in the editor with the inspector on that step, takes a new value (the browser then checks values
 * itself, with Ajv and RE2 loaded on demand), and shows on the share page, while a round trip into
 * the page stays fast. A pattern RE2 cannot express shows as a warning with its path. The server
 * half is tests/security/patterns.test.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { hashDeclaration } from '../lib/tools/canonical-json';
import type { ToolDeclaration } from '../lib/tools/types';

/** Far above a responsive page's round trip, far below what backtracking would take (hours). */
const RESPONSIVE_MS = 1_000;
const CATASTROPHIC = 'a'.repeat(40) + '!';

function declare(name: string, pattern: string): ToolDeclaration {
  return {
    name,
    description: `Checks x against ${pattern}.`,
    inputSchema: { type: 'object', properties: { x: { type: 'string', pattern } }, required: ['x'] },
  };
}

const SLOW = declare('slow_pattern', '^(a+)+$');
const UNSUPPORTED = declare('backreference', '^(a+)+\\1$');

/** How long a round trip into the page takes: the page's main thread must be free to answer. */
async function roundTrip(page: Page): Promise<number> {
  const started = Date.now();
  await page.evaluate(() => document.title);
  return Date.now() - started;
}

test('a catastrophic pattern leaves the editor, the inspector and the share page responsive', async ({
  page,
  browser,
}) => {
  await page.goto('/');
  // A first create warms the route up (a fresh server compiles it and opens its database).
  await page.request.post('/api/workflows', { data: { name: 'Warm-up' } });
  const started = Date.now();
  const created = await page.request.post('/api/workflows', {
    data: {
      name: 'Patterns',
      document: {
        task: '',
        nodes: [
          { id: 'slow', tool: SLOW.name, position: { x: 0, y: 0 }, args: { x: CATASTROPHIC } },
          {
            id: 'unsupported',
            tool: UNSUPPORTED.name,
            position: { x: 520, y: 0 },
            args: { x: CATASTROPHIC },
          },
        ],
        edges: [],
        tools: Object.fromEntries(
          [SLOW, UNSUPPORTED].map((d) => [d.name, { declaration: d, hash: hashDeclaration(d) }]),
        ),
      },
    },
  });
  expect(created.status()).toBe(201);
  expect(Date.now() - started).toBeLessThan(RESPONSIVE_MS);
  const { id } = (await created.json()).workflow as { id: string };

  // The editor, with the inspector on the step: the value was checked, and fails the pattern.
  await page.goto(`/w/${id}`);
  await page.getByTestId('node-slow').getByTestId('node-title').click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'slow');
  await expect(page.getByTestId('inspector-problems-x')).toContainText('must match pattern "^(a+)+$"');
  expect(await roundTrip(page)).toBeLessThan(RESPONSIVE_MS);

  // A new value: the browser loads its own checks (Ajv, RE2) and checks it, as fast.
  const field = page.getByTestId('inspector-param-x').locator('input');
  await field.fill('a'.repeat(60) + '!');
  await expect(page.getByTestId('inspector-origin-x')).toHaveText('set');
  expect(await roundTrip(page)).toBeLessThan(RESPONSIVE_MS);
  await expect(page.getByTestId('inspector-problems-x')).toContainText('must match pattern');
  await field.fill('a'.repeat(60));
  await expect(page.getByTestId('inspector-problems-x')).toHaveCount(0);
  expect(await roundTrip(page)).toBeLessThan(RESPONSIVE_MS);
  // Back to the value of the report, saved, for the share page below.
  await field.fill(CATASTROPHIC);
  await expect(page.getByTestId('inspector-problems-x')).toContainText('must match pattern');
  await expect(page.getByTestId('save-state')).toHaveText('Saved', { timeout: 15_000 });

  // The step whose pattern RE2 cannot express: reported with its path, never evaluated.
  await page.getByTestId('node-unsupported').getByTestId('node-title').click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'unsupported');
  await expect(page.getByTestId('inspector-problems-x')).toContainText(
    'at /properties/x/pattern of tool "backreference" uses a backreference "\\1"',
  );
  await expect(page.getByTestId('inspector-problems-x')).toContainText('Values are not checked against it');
  expect(await roundTrip(page)).toBeLessThan(RESPONSIVE_MS);

  // The share page, in another browser, with the step selected.
  const shared = await page.request.post(`/api/workflows/${id}/shares`, { data: {} });
  expect(shared.status()).toBe(201);
  const { path, token } = await shared.json();
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto(path);
  await viewer.getByTestId('node-slow').getByTestId('node-title').click();
  await expect(viewer.getByTestId('node-slow')).toContainText(CATASTROPHIC);
  expect(await roundTrip(viewer)).toBeLessThan(RESPONSIVE_MS);
  const exportStarted = Date.now();
  const exported = await viewer.request.get(`/api/shares/${token}/export`);
  expect(exported.status()).toBe(200);
  expect(Date.now() - exportStarted).toBeLessThan(RESPONSIVE_MS);
  await viewerContext.close();
});
