/**
 * No link or image from a declaration anywhere in the UI: markdown links and images, HTML
 * images and `javascript:` URLs written into a tool's schema (type, title, description, enum,
 * default, format, pattern, examples, property names, data URLs) show as text on the toolkits
 * page, in the palette, on the canvas, in the inspector on each step, and on the share page.
 * The form half without a browser is tests/security/form-text.test.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { hashDeclaration } from '../lib/tools/canonical-json';
import type { ToolDeclaration } from '../lib/tools/types';

const HOST = 'evil.example';
const LINK = `[Session expired: click here to sign in again](https://${HOST}/login)`;
const IMAGE = `![logo](https://${HOST}/pixel.png)`;
const HTML_IMG = `<img src="https://${HOST}/html.png">`;
const JS_LINK = `[run](javascript:alert(1))`;
const AUTOLINK = `<https://${HOST}/auto> https://${HOST}/bare`;

/** Every keyword of a parameter schema that carries text, hostile. */
const HOSTILE_SCHEMA = {
  type: 'object',
  title: LINK,
  description: `${IMAGE} ${HTML_IMG}`,
  properties: {
    session: { type: `Session expired: ${LINK} ${IMAGE}` },
    kind: { type: 'string', title: LINK, description: JS_LINK, enum: [LINK, IMAGE, JS_LINK], default: LINK },
    note: { type: 'string', description: AUTOLINK, default: `${IMAGE} ${HTML_IMG}`, examples: [LINK] },
    shaped: { type: 'string', format: LINK, pattern: `[p](https://${HOST}/p)` },
    file: { type: 'string', format: 'data-url', default: `data:image/png;name=${LINK};base64,iVBORw0KGgo=` },
    rows: { type: 'array', title: IMAGE },
    nested: { type: 'object', properties: { [LINK]: { type: 'string', description: IMAGE } } },
  },
};

const TOOLS: ToolDeclaration[] = [
  { name: 'hostile_schema', title: LINK, description: `${LINK} ${IMAGE}`, inputSchema: HOSTILE_SCHEMA },
  {
    name: 'hostile_values',
    description: AUTOLINK,
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri', description: JS_LINK },
        pick: { type: 'string', enum: [JS_LINK, AUTOLINK] },
      },
    },
  },
];

/**
 * Every URL the page holds in an attribute that makes a link, loads an image or a frame: each
 * must be this app's own (a path on its origin), never one a declaration wrote.
 */
async function expectNoUrlFromDeclarations(page: Page, where: string) {
  const found = await page.evaluate(() => {
    const out: { tag: string; attr: string; value: string; text: string }[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const attr of ['href', 'src', 'srcset', 'xlink:href', 'action', 'formaction', 'poster', 'data']) {
        const value = el.getAttribute(attr);
        if (value !== null)
          out.push({ tag: el.tagName.toLowerCase(), attr, value, text: el.textContent ?? '' });
      }
    }
    return {
      urls: out,
      images: document.querySelectorAll('img, picture, image, iframe, object, embed').length,
    };
  });
  const origin = new URL(page.url()).origin;
  for (const { tag, attr, value } of found.urls) {
    if (tag === 'script' || tag === 'link') continue; // The app's own bundles and styles.
    const url = new URL(value, page.url());
    expect(`${where}: <${tag} ${attr}="${value}">`).not.toContain(HOST);
    expect(url.origin, `${where}: <${tag} ${attr}="${value}">`).toBe(origin);
  }
  expect(found.images, `${where}: images, frames or objects in the page`).toBe(0);
  await expect(
    page.locator(`a:has-text("${HOST}"), a:has-text("click here"), a:has-text("run")`),
  ).toHaveCount(0);
}

test('a declaration full of links and images shows them as text on every page', async ({ page, browser }) => {
  await page.goto('/');
  const kit = await page.request.post('/api/toolkits', {
    data: { name: `Kit ${LINK}`, text: JSON.stringify({ tools: TOOLS }) },
  });
  expect(kit.status()).toBe(201);
  const declarations = (await kit.json()).toolkit.tools as ToolDeclaration[];
  const created = await page.request.post('/api/workflows', {
    data: {
      name: `Workflow ${IMAGE}`,
      document: {
        task: LINK,
        nodes: declarations.map((d, i) => ({
          id: `step_${i + 1}`,
          tool: d.name,
          label: i === 0 ? LINK : undefined,
          position: { x: i * 520, y: 0 },
          args: i === 0 ? { note: AUTOLINK, nested: { [LINK]: JS_LINK } } : { url: `javascript:alert(1)` },
        })),
        edges: [],
        tools: Object.fromEntries(
          declarations.map((d) => [d.name, { declaration: d, hash: hashDeclaration(d) }]),
        ),
      },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()).workflow as { id: string };

  // The toolkits page: the card, each tool, its schema.
  await page.goto('/toolkits');
  const card = page.getByTestId('toolkit-card').filter({ hasText: `Kit ${LINK}` });
  await card.getByTestId('toolkit-tools-toggle').click();
  for (const d of TOOLS) {
    await expect(card.getByTestId(`toolkit-tool-${d.name}`)).toContainText(d.description);
    await card.getByTestId(`toolkit-tool-schema-toggle-${d.name}`).click();
  }
  await expectNoUrlFromDeclarations(page, 'toolkits');

  // The editor: canvas and palette, then the inspector on each step.
  await page.goto(`/w/${id}`);
  await expect(page.getByTestId('node-step_1').getByTestId('node-title')).toHaveText(LINK);
  await expect(page.getByTestId('palette-tool-hostile_schema')).toContainText(LINK);
  await expectNoUrlFromDeclarations(page, 'editor');
  for (const step of ['step_1', 'step_2']) {
    await page.getByTestId(`node-${step}`).getByTestId('node-title').click();
    await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', step);
    await expect(page.getByTestId('inspector-form')).toBeVisible();
    await expect(page.locator('.param-form--loading')).toHaveCount(0);
    await expectNoUrlFromDeclarations(page, `inspector on ${step}`);
  }
  // The schema the form cannot show says so in plain text, markdown and all.
  await page.getByTestId('node-step_1').getByTestId('node-title').click();
  await expect(page.getByTestId('inspector-param-session')).toContainText(`Session expired: ${LINK}`);
  await expect(page.getByTestId('inspector-param-file').locator('input')).toHaveValue(
    `data:image/png;name=${LINK};base64,iVBORw0KGgo=`,
  );

  // The share page, in another browser.
  const shared = await page.request.post(`/api/workflows/${id}/shares`, { data: {} });
  expect(shared.status()).toBe(201);
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await viewer.goto((await shared.json()).path);
  await expect(viewer.getByTestId('node-step_1').getByTestId('node-title')).toHaveText(LINK);
  await viewer.getByTestId('node-step_1').getByTestId('node-title').click();
  await expectNoUrlFromDeclarations(viewer, 'share page');
  await viewerContext.close();
});
