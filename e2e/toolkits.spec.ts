import { expect, test, type Page } from '@playwright/test';

/** A Gemini-format declarations file (OpenAPI-subset types in upper case), as a user would paste it. */
const GEMINI_FILE = JSON.stringify(
  {
    functionDeclarations: [
      {
        name: 'get_forecast',
        description: 'Weather forecast for a city. <img src=x onerror="window.__pwned=1"> is shown as text.',
        parameters: {
          type: 'OBJECT',
          properties: {
            city: { type: 'STRING', description: 'City name, e.g. "Lyon"' },
            days: { type: 'INTEGER', description: 'Days ahead (1–10)', minimum: 1, maximum: 10 },
            units: { type: 'STRING', enum: ['metric', 'imperial'], description: 'Unit system' },
            note: { type: 'STRING', nullable: true, description: 'Free text for the report, or null' },
          },
          required: ['city'],
        },
      },
      {
        name: 'get_air_quality',
        description: 'Air quality index for a city',
        parameters: {
          type: 'OBJECT',
          properties: { city: { type: 'STRING', description: 'City name' } },
          required: ['city'],
        },
      },
    ],
  },
  null,
  2,
);

// Wide enough for palette, canvas and inspector side by side, as on a desktop screen.
test.use({ viewport: { width: 1600, height: 960 } });

async function addPastedToolkit(page: Page, name: string, text: string) {
  await page.goto('/toolkits');
  // The first visit is given its owner identity by the list request: let it land first.
  await expect(page.getByTestId('toolkit-card').first()).toBeVisible();
  await page.getByTestId('add-toolkit-source-paste').click();
  await page.getByTestId('add-toolkit-name').fill(name);
  await page.getByTestId('add-toolkit-text').fill(text);
  await page.getByTestId('add-toolkit-submit').click();
}

test('a pasted Gemini file becomes a toolkit whose tools show in the palette and drop onto the canvas', async ({
  page,
}) => {
  await addPastedToolkit(page, 'Weather', GEMINI_FILE);
  const card = page.locator('[data-testid="toolkit-card"][data-toolkit-name="Weather"]');
  await expect(card).toBeVisible();
  await expect(card).toContainText('2 tools');
  await expect(card).toContainText('gemini format');

  // Each tool's schema, read back to JSON Schema; the description is text, never HTML.
  await card.getByTestId('toolkit-tools-toggle').click();
  const forecast = card.getByTestId('toolkit-tool-get_forecast');
  await expect(forecast).toContainText('<img src=x onerror="window.__pwned=1"> is shown as text.');
  await forecast.getByTestId('toolkit-tool-schema-toggle-get_forecast').click();
  const schema = JSON.parse(await card.getByTestId('toolkit-tool-schema-get_forecast').innerText());
  expect(schema.inputSchema.properties.days).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 });
  expect(schema.inputSchema.required).toEqual(['city']);
  await page.screenshot({ path: 'e2e/__screenshots__/toolkits-manager.png', fullPage: true });

  // A new workflow, made in this browser (the toolkit belongs to it).
  const created = await page.request.post('/api/workflows', { data: { name: 'Palette drop' } });
  expect(created.status()).toBe(201);
  const { workflow } = await created.json();
  await page.goto(`/w/${workflow.id}`);

  const group = page.locator('[data-testid="palette-group"]', { hasText: 'Weather' });
  await expect(group.getByTestId('palette-tool-get_forecast')).toBeVisible();
  await page.getByTestId('palette-search').fill('air quality');
  await expect(page.getByTestId('palette-tool-get_forecast')).toHaveCount(0);
  await expect(group.getByTestId('palette-tool-get_air_quality')).toBeVisible();
  await page.getByTestId('palette-search').fill('');

  // Drag onto the canvas: the node lands where it was dropped, built by the §1 rules.
  const canvas = page.getByTestId('canvas');
  const box = (await canvas.boundingBox())!;
  const drop = { x: box.width * 0.3, y: box.height * 0.35 };
  await group.getByTestId('palette-tool-get_forecast').dragTo(canvas, { targetPosition: drop });
  const node = page.getByTestId('node-step_1');
  await expect(node).toBeVisible();
  const nodeBox = (await node.boundingBox())!;
  expect(Math.abs(nodeBox.x - (box.x + drop.x))).toBeLessThan(40);
  expect(Math.abs(nodeBox.y - (box.y + drop.y))).toBeLessThan(40);
  await expect(page.getByTestId('inspector')).toBeVisible();
  await expect(page.getByTestId('inspector-tool')).toHaveText('get_forecast');
  await expect(page.getByTestId('inspector-origin-city')).toHaveText('missing');

  // The generated form: a bounded integer shows Ajv's error inline, an enum is a select, and
  // "reset" takes a value back out of tool_args.
  const days = page.getByTestId('inspector-param-days').locator('input');
  await expect(days).toHaveAttribute('max', '10');
  await days.fill('20');
  await expect(page.getByTestId('inspector-problems-days')).toContainText('must be <= 10');
  await expect(node.getByTestId('badge-invalid')).toBeVisible();
  await days.fill('3');
  await expect(page.getByTestId('inspector-problems-days')).toHaveCount(0);
  const units = page.getByTestId('inspector-param-units').locator('select');
  await units.selectOption('imperial');
  await expect(page.getByTestId('inspector-origin-units')).toHaveText('set');
  await page.getByTestId('inspector-reset-units').click();
  await expect(page.getByTestId('inspector-origin-units')).toHaveText('unset');
  await expect(units).toHaveValue('');
  await page.getByTestId('inspector-set-null-note').click();
  await expect(page.getByTestId('inspector-origin-note')).toHaveText('set');
  await expect(page.getByTestId('inspector-set-null-note')).toHaveCount(0);
  await page.getByTestId('inspector-label').fill('Forecast for Lyon');
  await page.getByTestId('inspector-label').press('Enter');
  await expect(node.getByTestId('node-title')).toHaveText('Forecast for Lyon');
  await page.getByTestId('inspector-param-city').locator('input').fill('Lyon');
  await expect(page.getByTestId('inspector-origin-city')).toHaveText('set');
  await expect(node.getByTestId('badge-missing')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/__screenshots__/inspector-form.png' });

  // Keyboard users: focus a tool and press Enter.
  await group.getByTestId('palette-tool-get_air_quality').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('node-step_2')).toBeVisible();

  await page.getByTestId('tab-json').click();
  const exported = JSON.parse(await page.getByTestId('json-panel-text').innerText());
  expect(exported.nodes.map((n: { tool_name: string }) => n.tool_name)).toEqual([
    'get_forecast',
    'get_air_quality',
  ]);
  expect(exported.nodes[0].input_parameters.map((p: { name: string }) => p.name)).toEqual([
    'city',
    'days',
    'units',
    'note',
  ]);
  expect(exported.nodes[0].input_parameters[3]).toMatchObject({ value: null, origin: 'arg' });
  expect(exported.nodes[0].label).toBe('Forecast for Lyon');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.screenshot({ path: 'e2e/__screenshots__/palette-drop.png' });
});

test('a file that is not tool declarations is refused with the reason and where', async ({ page }) => {
  await addPastedToolkit(page, 'Broken', '{"functionDeclarations": [{"description": "no name"}]}');
  const error = page.getByTestId('add-toolkit-error');
  await expect(error).toBeVisible();
  await expect(error).toContainText('/functionDeclarations/0');
  await expect(page.locator('[data-testid="toolkit-card"][data-toolkit-name="Broken"]')).toHaveCount(0);

  await page.getByTestId('add-toolkit-text').fill('{"functionDeclarations": [');
  await page.getByTestId('add-toolkit-submit').click();
  await expect(error).toContainText(/line 1, column \d+/);
});

test('a toolkit of mine can be deleted; built-in ones cannot', async ({ page }) => {
  await addPastedToolkit(page, 'Disposable', GEMINI_FILE);
  const card = page.locator('[data-testid="toolkit-card"][data-toolkit-name="Disposable"]');
  await expect(card).toBeVisible();
  const builtin = page.locator('[data-testid="toolkit-card"]', { hasText: 'Built-in sample' }).first();
  await expect(builtin).toBeVisible();
  await expect(builtin.getByTestId('toolkit-delete')).toHaveCount(0);

  // Deleting asks first; Cancel keeps it.
  await card.getByTestId('toolkit-delete').click();
  const confirm = page.getByTestId('confirm-dialog');
  await expect(confirm).toContainText('Delete the toolkit "Disposable"?');
  await expect(confirm.getByTestId('confirm-cancel')).toBeFocused();
  await confirm.getByTestId('confirm-cancel').click();
  await expect(confirm).toHaveCount(0);
  await expect(card.getByTestId('toolkit-delete')).toBeFocused();
  await card.getByTestId('toolkit-delete').click();
  await page.getByTestId('confirm-dialog').getByTestId('confirm-action').click();
  await expect(card).toHaveCount(0);
  await page.reload();
  await expect(page.locator('[data-testid="toolkit-card"][data-toolkit-name="Disposable"]')).toHaveCount(0);
});

test('the toolkit page lists what converting a toolkit to a provider format changes', async ({ page }) => {
  const mcpFile = JSON.stringify({
    tools: [
      {
        name: 'search',
        description: 'Search the docs',
        inputSchema: {
          type: 'object',
          properties: {
            query: { type: 'string' },
            tags: { type: 'array' },
            filter: { type: 'object', description: 'Any filter' },
          },
          required: ['query'],
        },
        outputSchema: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } } },
      },
    ],
  });
  await addPastedToolkit(page, 'Docs search', mcpFile);
  const card = page.locator('[data-testid="toolkit-card"][data-toolkit-name="Docs search"]');
  await expect(card).toBeVisible();
  await card.getByTestId('toolkit-conversion-toggle').click();
  const report = card.getByTestId('toolkit-conversion-report');

  // Strict auto: the tool stays non-strict, and the list says where strict mode would change it.
  await expect(report.getByTestId('toolkit-conversion-issues')).toContainText(
    'note search /inputSchema/properties/tags: Left non-strict',
  );
  await expect(report.getByTestId('toolkit-conversion-issues')).toContainText(
    'loss search /outputSchema: OpenAI Chat Completions has no field for an output schema',
  );

  // Gemini's subset: the free-form object travels as JSON text, a change of meaning.
  await report.getByTestId('toolkit-conversion-target').selectOption({ label: 'Gemini (parameters)' });
  await expect(report.getByTestId('toolkit-conversion-summary')).toHaveText(/^2 changes of meaning/);
  await expect(report.getByTestId('toolkit-conversion-issues')).toContainText(
    'loss search /inputSchema/properties/filter: Gemini rejects an object without declared properties',
  );

  // MCP keeps everything.
  await report.getByTestId('toolkit-conversion-target').selectOption({ label: 'MCP' });
  await expect(report.getByTestId('toolkit-conversion-summary')).toHaveText('Nothing changes.');
});
