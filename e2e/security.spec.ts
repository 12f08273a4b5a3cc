/**
 * Security in the real browser against the production server: hostile text in tool names,
 * descriptions, parameter names, values and workflow names is shown literally and never runs,
 * on every page that shows it; the share page cannot edit and its viewer's API writes fail;
 * another site's page cannot make a change with the visitor's cookie; and the server sends its
 * security headers. The API-level half is tests/security/ (npm test).
 */
import { expect, test, type Page } from '@playwright/test';
import { hashDeclaration } from '../lib/tools/canonical-json';
import type { ToolDeclaration } from '../lib/tools/types';

const LLM_PORT = Number(process.env.E2E_LLM_PORT ?? 3211);

// Each payload sets window.__xss and opens a dialog if it ever runs.
const IMG = `<img src=x onerror="window.__xss=1;alert('img')">`;
const SCRIPT = `<script>window.__xss=1;alert('script')</script>`;
const SVG = `"><svg onload="window.__xss=1;alert('svg')">`;
const JS_URL = `javascript:window.__xss=1;alert('url')`;
const TEMPLATE = `{{constructor.constructor('window.__xss=1;alert(1)')()}}`;
const PARAM = `<b onmouseover="window.__xss=1">p</b>`;

const TOOLKIT_NAME = `${SVG} kit`;
const WORKFLOW_NAME = `${IMG} ${SVG}`;

/** An MCP tools/list file whose every text field is hostile. */
const TOOLS_FILE = JSON.stringify({
  tools: [
    {
      name: IMG,
      description: `${SCRIPT} then ${TEMPLATE}`,
      inputSchema: {
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri', description: SVG },
          note: { type: 'string', description: IMG, default: SCRIPT },
          template: { type: 'string', description: TEMPLATE },
          [PARAM]: { type: 'string', description: 'a parameter whose name is markup' },
        },
        required: ['url'],
      },
    },
  ],
});

test.use({ viewport: { width: 1600, height: 960 } });

/** Records what would show that a payload ran, or that the CSP refused something of ours. */
function watch(page: Page) {
  const seen = { dialogs: [] as string[], csp: [] as string[] };
  // A refused eval is thrown and may be caught by the app, so listen for the event itself too.
  void page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.csp.push(message.text());
  });
  return seen;
}

/** Nothing ran: no flag, no dialog, and no element or URL the payloads would have made. */
async function expectInert(page: Page, seen: ReturnType<typeof watch>) {
  // Give an injected image time to fail and fire its handler, had there been one.
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(seen.dialogs).toEqual([]);
  await expect(
    page.locator(
      'img[src="x"], svg[onload], [onerror], [onload], [onmouseover], iframe, [href^="javascript:" i], [src^="javascript:" i], [action^="javascript:" i]',
    ),
  ).toHaveCount(0);
  const injectedScripts = await page
    .locator('script')
    .evaluateAll((els) => els.filter((el) => el.textContent?.trim().startsWith('window.__xss')).length);
  expect(injectedScripts).toBe(0);
}

/** Creates the hostile toolkit and workflow as the browser `page` belongs to; returns ids. */
async function createHostileWorkflow(page: Page) {
  await page.goto('/');
  const kit = await page.request.post('/api/toolkits', { data: { name: TOOLKIT_NAME, text: TOOLS_FILE } });
  expect(kit.status()).toBe(201);
  const declaration = (await kit.json()).toolkit.tools[0] as ToolDeclaration;
  expect(declaration.name).toBe(IMG);
  const created = await page.request.post('/api/workflows', {
    data: {
      name: WORKFLOW_NAME,
      task: SCRIPT,
      document: {
        task: SCRIPT,
        nodes: [
          {
            id: 'step_1',
            tool: IMG,
            position: { x: 0, y: 0 },
            args: { url: JS_URL, template: TEMPLATE, [PARAM]: IMG },
          },
          {
            id: 'step_2',
            tool: IMG,
            label: SVG,
            position: { x: 520, y: 0 },
            args: { url: JS_URL, note: SVG },
          },
        ],
        edges: [],
        tools: { [IMG]: { declaration, hash: hashDeclaration(declaration) } },
      },
    },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).workflow as { id: string };
}

test('hostile names, descriptions and values show as text and never run: home, toolkits, canvas, palette, inspector, JSON, share page', async ({
  page,
  browser,
}) => {
  const seen = watch(page);
  const workflow = await createHostileWorkflow(page);

  // Home list.
  await page.goto('/');
  await expect(page.getByTestId('workflow-list')).toContainText(WORKFLOW_NAME);
  await expectInert(page, seen);

  // Toolkit manager: the card, the tool, its description and its schema.
  await page.goto('/toolkits');
  const card = page.getByTestId('toolkit-card').filter({ hasText: TOOLKIT_NAME });
  await expect(card).toHaveCount(1);
  await card.getByTestId('toolkit-tools-toggle').click();
  const tool = card.getByTestId(`toolkit-tool-${IMG}`);
  await expect(tool).toContainText(IMG);
  await expect(tool).toContainText(`${SCRIPT} then ${TEMPLATE}`);
  await tool.getByTestId(`toolkit-tool-schema-toggle-${IMG}`).click();
  const schema = JSON.parse(await card.getByTestId(`toolkit-tool-schema-${IMG}`).innerText());
  expect(schema.inputSchema.properties.url.description).toBe(SVG);
  await expectInert(page, seen);

  // Editor: canvas nodes, palette.
  await page.goto(`/w/${workflow.id}`);
  await expect(page.getByTestId('workflow-name')).toHaveText(WORKFLOW_NAME);
  const first = page.getByTestId('node-step_1');
  const second = page.getByTestId('node-step_2');
  await expect(first.getByTestId('node-title')).toHaveText(IMG);
  await expect(second.getByTestId('node-title')).toHaveText(SVG);
  await expect(first.getByTestId('param-url').getByTestId('param-value')).toHaveText(JS_URL);
  await expect(first.getByTestId('param-template').getByTestId('param-value')).toHaveText(TEMPLATE);
  await expect(first.getByTestId(`param-${PARAM}`)).toContainText(PARAM);
  await expect(first.getByTestId(`param-${PARAM}`).getByTestId('param-value')).toHaveText(IMG);
  await expect(second.getByTestId('param-note').getByTestId('param-value')).toHaveText(SVG);
  // A parameter left to its default shows the default as text.
  await expect(first.getByTestId('param-note').getByTestId('param-value')).toHaveText(SCRIPT);
  const group = page.getByTestId('palette-group').filter({ hasText: TOOLKIT_NAME });
  await expect(group.getByTestId(`palette-tool-${IMG}`)).toContainText(IMG);
  await expect(group.getByTestId(`palette-tool-${IMG}`)).toContainText(SCRIPT);
  await expectInert(page, seen);

  // Inspector: form and raw JSON. Hovering the markup-named parameter fires nothing either.
  await first.getByTestId('node-title').click();
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toBeVisible();
  await expect(page.getByTestId('inspector-tool')).toHaveText(IMG);
  await expect(page.getByTestId('inspector-description')).toHaveText(`${SCRIPT} then ${TEMPLATE}`);
  await expect(page.getByTestId('inspector-param-url')).toContainText(SVG);
  await expect(page.getByTestId('inspector-param-url').locator('input')).toHaveValue(JS_URL);
  await expect(page.getByTestId('inspector-param-template').locator('input')).toHaveValue(TEMPLATE);
  await expect(page.getByTestId(`inspector-param-${PARAM}`)).toContainText(PARAM);
  await page.getByTestId(`inspector-param-${PARAM}`).hover();
  await first.getByTestId(`param-${PARAM}`).hover();
  // The hostile schema still compiles into a validator (nothing of ours is refused by the CSP).
  await expect(inspector).not.toContainText('could not be compiled');
  await page.getByTestId('inspector-tab-raw').click();
  const raw = JSON.parse(await page.getByTestId('inspector-raw-text').inputValue());
  expect(raw).toMatchObject({ url: JS_URL, template: TEMPLATE, [PARAM]: IMG });
  await expectInert(page, seen);

  // JSON panel.
  await page.getByTestId('tab-json').click();
  const exported = JSON.parse(await page.getByTestId('json-panel-text').innerText());
  expect(exported.name).toBe(WORKFLOW_NAME);
  expect(exported.nodes[0].tool_name).toBe(IMG);
  expect(exported.nodes[1].label).toBe(SVG);
  await expectInert(page, seen);

  // Share page, in another browser.
  const shared = await page.request.post(`/api/workflows/${workflow.id}/shares`, { data: {} });
  expect(shared.status()).toBe(201);
  const { path } = await shared.json();
  const viewerContext = await browser.newContext({ viewport: { width: 1600, height: 960 } });
  const viewer = await viewerContext.newPage();
  const viewerSeen = watch(viewer);
  await viewer.goto(path);
  await expect(viewer.getByTestId('shared-name')).toHaveText(WORKFLOW_NAME);
  await expect(viewer.getByTestId('shared-view')).toContainText(SCRIPT);
  await expect(viewer.getByTestId('node-step_1').getByTestId('node-title')).toHaveText(IMG);
  await expect(viewer.getByTestId('node-step_2').getByTestId('node-title')).toHaveText(SVG);
  await expect(
    viewer.getByTestId('node-step_1').getByTestId('param-url').getByTestId('param-value'),
  ).toHaveText(JS_URL);
  const sharedJson = JSON.parse(await viewer.getByTestId('json-panel-text').innerText());
  expect(sharedJson.nodes[0].tool_name).toBe(IMG);
  expect(await viewer.title()).toContain(WORKFLOW_NAME);
  await expectInert(viewer, viewerSeen);

  // None of this needed anything the Content-Security-Policy refuses.
  expect(seen.csp).toEqual([]);
  expect(viewerSeen.csp).toEqual([]);
  await viewerContext.close();
});

test('the share page cannot edit, its viewer cannot write through the API, and dead tokens all look alike', async ({
  page,
  browser,
}) => {
  const created = await createHostileWorkflow(page);
  const workflowUrl = `/api/workflows/${created.id}`;
  const before = (await (await page.request.get(workflowUrl)).json()).workflow;
  const { token, path, share } = await (
    await page.request.post(`${workflowUrl}/shares`, { data: {} })
  ).json();

  const viewerContext = await browser.newContext({ viewport: { width: 1600, height: 960 } });
  const viewer = await viewerContext.newPage();
  await viewer.goto(path);
  const view = viewer.getByTestId('shared-view');
  await expect(view).toBeVisible();
  // No control that edits: no inputs, no editor chrome, no inspector until a step is clicked, no save or share.
  await expect(view.locator('input, textarea, select, [contenteditable="true"]')).toHaveCount(0);
  for (const id of ['palette', 'inspector', 'save-state', 'open-share', 'prompt-bar', 'editor-actions'])
    await expect(viewer.getByTestId(id)).toHaveCount(0);
  await viewer.getByTestId('node-step_1').getByTestId('node-title').click();
  await viewer.keyboard.press('Delete');
  await viewer.keyboard.press('Backspace');
  await expect(viewer.getByTestId('node-step_1')).toBeVisible();
  // The click shows the step's parameters, read-only: no field in the view takes input.
  await expect(viewer.getByTestId('inspector')).toHaveAttribute('data-node-id', 'step_1');
  await expect(viewer.getByTestId('inspector-form')).toBeVisible();
  await expect(
    view.locator(
      'input:not(:disabled), textarea:not(:disabled), select:not(:disabled), [contenteditable="true"]',
    ),
  ).toHaveCount(0);

  // Writes through the API with the token, or to the workflow, are refused.
  const api = viewer.request;
  for (const method of ['put', 'patch', 'delete', 'post'] as const) {
    expect((await api[method](`/api/shares/${token}`, { data: { name: 'x' } })).status(), method).toBe(405);
    expect((await api[method](`/api/shares/${token}/export`, { data: {} })).status(), method).toBe(405);
  }
  expect((await api.put(workflowUrl, { data: { version: 1, document: before.document } })).status()).toBe(
    403,
  );
  expect((await api.delete(workflowUrl)).status()).toBe(403);
  expect((await api.post(`${workflowUrl}/shares`, { data: {} })).status()).toBe(403);
  expect((await api.delete(`${workflowUrl}/shares/${share.id}`)).status()).toBe(403);
  expect((await api.patch(`${workflowUrl}/revisions/1`, { data: { label: 'x' } })).status()).toBe(403);
  // A share token sent as a bearer credential is no API token (docs/design.md §13.5): 401.
  expect(
    (
      await api.put(workflowUrl, {
        data: { version: 1, document: before.document },
        headers: { authorization: `Bearer ${token}` },
      })
    ).status(),
  ).toBe(401);
  const after = (await (await page.request.get(workflowUrl)).json()).workflow;
  expect(after.version).toBe(before.version);
  expect(after.name).toBe(WORKFLOW_NAME);

  // Probing: a random token and near misses of the live one answer exactly alike.
  const flip = (at: number) => token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
  const answers = await Promise.all(
    ['A'.repeat(43), flip(0), flip(42), token.slice(0, 42), `${token}x`].map(async (t) => {
      const res = await api.get(`/api/shares/${t}`);
      return { status: res.status(), body: await res.text() };
    }),
  );
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  expect(answers[0].status).toBe(404);
  expect((await viewer.goto(`/s/${flip(7)}`))?.status()).toBe(404);
  await viewerContext.close();
});

test("another site's page cannot change anything with the visitor's cookie", async ({ page }) => {
  const created = await createHostileWorkflow(page);
  const { token } = await (
    await page.request.post(`/api/workflows/${created.id}/shares`, { data: {} })
  ).json();
  const appOrigin = new URL(page.url()).origin;
  const count = async () => (await (await page.request.get('/api/workflows')).json()).workflows.length;
  const before = await count();

  // Same site, other origin (another port on this host): the SameSite=Lax cookie is sent, so
  // the Origin check alone must refuse. A body-less POST needs no preflight.
  await page.goto(`http://127.0.0.1:${LLM_PORT}/v1/models`);
  const statuses: number[] = [];
  page.on('response', (res) => {
    if (res.url().startsWith(appOrigin)) statuses.push(res.status());
  });
  await page.evaluate(
    async ({ appOrigin, token, id }) => {
      const opts = { method: 'POST', mode: 'no-cors', credentials: 'include' } as const;
      await fetch(`${appOrigin}/api/shares/${token}/fork`, opts).catch(() => {});
      await fetch(`${appOrigin}/api/workflows`, { ...opts, body: '{"name":"csrf"}' }).catch(() => {});
      // A form post, the classic CSRF.
      const form = document.createElement('form');
      form.method = 'POST';
      form.action = `${appOrigin}/api/workflows/${id}/shares`;
      form.target = 'sink';
      const frame = document.createElement('iframe');
      frame.name = 'sink';
      document.body.append(frame, form);
      form.submit();
      await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    },
    { appOrigin, token, id: created.id },
  );
  await expect.poll(() => statuses.length).toBe(3);
  expect(statuses).toEqual([403, 403, 403]);

  await page.goto('/');
  expect(await count()).toBe(before);
  const shares = (await (await page.request.get(`/api/workflows/${created.id}/shares`)).json()).shares;
  expect(shares).toHaveLength(1);
});

test('the production server sends its security headers', async ({ page }) => {
  const created = await createHostileWorkflow(page);
  const { path } = await (
    await page.request.post(`/api/workflows/${created.id}/shares`, { data: {} })
  ).json();
  for (const url of ['/', '/toolkits', `/w/${created.id}`, path, '/api/health', '/api/workflows']) {
    const res = await page.request.get(url);
    const headers = res.headers();
    expect(headers['x-content-type-options'], url).toBe('nosniff');
    expect(headers['x-frame-options'], url).toBe('DENY');
    expect(headers['referrer-policy'], url).toBe(
      url.startsWith('/s/') ? 'no-referrer' : 'strict-origin-when-cross-origin',
    );
    const csp = headers['content-security-policy'] ?? '';
    expect(csp, url).toContain("frame-ancestors 'none'");
    expect(csp, url).toContain("object-src 'none'");
    expect(csp, url).toContain("base-uri 'self'");
    expect(csp, url).toContain("connect-src 'self'");
    expect(csp, url).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval'");
    expect(headers['x-powered-by'], url).toBeUndefined();
  }

  // The browser enforces them: a page of another origin cannot show Toolflow in a frame.
  await page.goto('/');
  const appOrigin = new URL(page.url()).origin;
  await page.goto(`http://127.0.0.1:${LLM_PORT}/v1/models`);
  await page.evaluate(async (src) => {
    const frame = document.createElement('iframe');
    frame.src = src;
    document.body.append(frame);
    await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  }, `${appOrigin}/`);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(frame).toBeDefined();
  await expect(frame!.locator('[data-testid="workflow-list"], [data-testid="no-workflows"]')).toHaveCount(0);
});

test('the production server does not serve the bench pages without TOOLFLOW_BENCH_PAGES=1', async ({
  request,
}) => {
  for (const path of ['/bench/ours?n=5', '/bench/bare?n=5']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(await response.text(), path).not.toContain('data-testid="bench-');
  }
});
