import { expect, test, type Locator, type Page } from '@playwright/test';
import { DESKTOP, EditorPage, HomePage, RunPage, SharePage, watchConsole } from './support/pages';
import {
  createMaterialsWorkflow,
  createMemoryWorkflow,
  createShareLink,
  runToEnd,
} from './support/workflows';

/**
 * The smaller things a person met: tool titles in the interface's language, a refusal that goes
 * away when the person moves on, a step's parameters on the share page, a favicon (no page logs a
 * 404), and unset optional parameters that read as unset, not as a chosen zero.
 */

test.use({ viewport: DESKTOP });

const CJK = /[\u3400-\u9fff]/;

async function center(locator: Locator) {
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drags a connection from one handle and drops it on another, as a mouse does. */
async function dragConnection(page: Page, from: Locator, to: Locator) {
  const a = await center(from);
  const b = await center(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 8 });
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

const handle = (page: Page, nodeId: string, handleId: string) =>
  page.getByTestId(`node-${nodeId}`).locator(`.react-flow__handle[data-handleid="${handleId}"]`);

test('built-in tools are titled in English only, in the editor, on the share page and in a run', async ({
  page,
}) => {
  const materials = await createMaterialsWorkflow(page, 'English titles');
  const titles = ['Build bulk structure', 'Optimize (relax) structure', 'Calculate phonons'];
  const check = async (node: (id: string) => Locator) => {
    for (const [i, title] of titles.entries()) {
      const shown = node(`step_${i + 1}`).getByTestId('node-title');
      await expect(shown).toHaveText(title);
      expect(await shown.innerText()).not.toMatch(CJK);
    }
  };
  const editor = new EditorPage(page);
  await editor.goto(materials.id);
  await check((id) => editor.node(id));
  // The declaration keeps both languages: the export is unchanged.
  const exported = await (await page.request.get(`/api/workflows/${materials.id}/export`)).json();
  expect(exported.tools.find((t: { name: string }) => t.name === 'optimize_structure').title).toMatch(CJK);

  const share = new SharePage(page);
  await share.goto(await createShareLink(page, materials.id));
  await check((id) => share.node(id));
});

test('"Not connected" goes away at the next unrelated action, or with its close button', async ({ page }) => {
  const materials = await createMaterialsWorkflow(page, 'Refusal');
  const editor = new EditorPage(page);
  await editor.goto(materials.id);
  const refused = page.getByTestId('connect-refused');

  await dragConnection(page, handle(page, 'step_1', 'out:num_atoms'), handle(page, 'step_3', 'in:supercell'));
  await expect(refused).toContainText('Not connected.');
  await expect(refused).toContainText('is int but input "supercell" takes list');
  // Clicking a step is another action: the refusal of the drop before it is gone.
  await editor.node('step_1').getByTestId('node-title').click();
  await expect(refused).toHaveCount(0);

  await dragConnection(page, handle(page, 'step_1', 'out:num_atoms'), handle(page, 'step_3', 'in:supercell'));
  await expect(refused).toBeVisible();
  await refused.getByTestId('connect-refused-dismiss').click();
  await expect(refused).toHaveCount(0);

  // An edit elsewhere (a value typed in the inspector) dismisses it too.
  await dragConnection(page, handle(page, 'step_1', 'out:num_atoms'), handle(page, 'step_3', 'in:supercell'));
  await expect(refused).toBeVisible();
  await editor.select('step_2');
  await expect(refused).toHaveCount(0);
});

test('clicking a step on the share page shows its parameters, read-only', async ({ page }) => {
  const materials = await createMaterialsWorkflow(page, 'Shared parameters');
  const share = new SharePage(page);
  await share.goto(await createShareLink(page, materials.id));
  await expect(page.getByTestId('json-panel-text')).toBeVisible();

  await share.node('step_2').getByTestId('node-title').click();
  await expect(page.getByTestId('shared-tab-step')).toHaveAttribute('aria-selected', 'true');
  const inspector = page.getByTestId('inspector');
  await expect(inspector).toHaveAttribute('data-node-id', 'step_2');
  await expect(page.getByTestId('inspector-tool')).toHaveText('optimize_structure');
  await expect(page.getByTestId('inspector-locked')).toHaveText('Read-only. Fork the workflow to change it.');
  await expect(page.getByTestId('inspector-param-model_path').locator('input')).toHaveValue(
    '/opt/models/dpa3.pt',
  );
  await expect(page.getByTestId('inspector-origin-model_path')).toHaveText('set');
  // Every field is there to read, none to change.
  const fields = page.getByTestId('inspector-form').locator('input, select, textarea');
  expect(await fields.count()).toBeGreaterThan(3);
  for (const field of await fields.all()) await expect(field).toBeDisabled();
  await expect(page.getByTestId('inspector-label')).toBeDisabled();

  // The JSON is a tab away.
  await page.getByTestId('shared-tab-json').click();
  await expect(page.getByTestId('json-panel-text')).toContainText('"tool_name": "optimize_structure"');
});

test('every page has a favicon and logs no error, by URL and by navigation', async ({ page }) => {
  const problems = watchConsole(page);
  const memory = await createMemoryWorkflow(page, 'No 404');
  const runId = await runToEnd(page, memory);
  const sharePath = await createShareLink(page, memory.id);

  const home = new HomePage(page);
  await home.goto();
  const icon = page.locator('link[rel="icon"]');
  await expect(icon).toHaveAttribute('type', 'image/svg+xml');
  const iconUrl = await icon.getAttribute('href');
  const served = await page.request.get(iconUrl!);
  expect(served.status()).toBe(200);
  expect(await served.text()).toContain('<svg');

  await home.open('No 404');
  await expect(page.getByTestId('node-step_1')).toBeVisible();
  await page.getByTestId('runs-open').click();
  await page.getByTestId('runs-dialog').getByTestId('runs-item').first().click();
  await new RunPage(page).ready();
  await page.goto('/toolkits');
  await expect(page.getByTestId('toolkit-card').first()).toBeVisible();
  await new EditorPage(page).goto(memory.id);
  await new RunPage(page).goto(memory.id, runId);
  await new SharePage(page).goto(sharePath);
  await home.goto();
  await page.getByTestId('nav-toolkits').click();
  await expect(page.getByTestId('toolkit-card').first()).toBeVisible();
  expect(problems).toEqual([]);
});

test('an optional parameter nobody set reads "unset · not sent", not as a zero; the export keeps its placeholder', async ({
  page,
}) => {
  const materials = await createMaterialsWorkflow(page, 'Unset parameters');
  const editor = new EditorPage(page);
  await editor.goto(materials.id);
  // lattice_constant: optional, no default, not in the task.
  const row = editor.node('step_1').getByTestId('param-lattice_constant');
  await expect(row).toHaveAttribute('data-origin', 'zero');
  await expect(row.getByTestId('param-value')).toHaveText('not sent');
  await expect(row.getByTestId('param-origin')).toHaveText('unset');
  await expect(row.getByTestId('param-origin')).toHaveAttribute('title', /a test-run does not send it/);
  await editor.select('step_1');
  await expect(page.getByTestId('inspector-origin-lattice_constant')).toHaveText('unset');
  await expect(page.getByTestId('inspector-param-lattice_constant').locator('input')).toHaveValue('');

  const exported = await (await page.request.get(`/api/workflows/${materials.id}/export`)).json();
  const param = exported.nodes[0].input_parameters.find(
    (p: { name: string }) => p.name === 'lattice_constant',
  );
  expect(param).toMatchObject({ value: 0, origin: 'zero', required: false });

  // Once chosen, even a zero is a value: "set", shown as 0.
  await page.getByTestId('inspector-param-lattice_constant').locator('input').fill('0');
  await expect(row.getByTestId('param-origin')).toHaveText('set');
  await expect(row.getByTestId('param-value')).toHaveText('0');
});
