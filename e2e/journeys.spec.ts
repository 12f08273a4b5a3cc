import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';

/**
 * The user journeys of the editor, as a new user would walk them: from the home
 * page prompt to a planned, fixed and exported workflow, with the offline planner and with the
 * scripted OpenAI-protocol server (second webServer in playwright.config.ts).
 */

const SEED_TASK =
  'Optimise the structure at https://example.org/structures/Cu_bulk.cif with the model https://example.org/models/dpa-2.4-7M.pt, then compute its phonons';

const SHOTS = 'e2e/__screenshots__';

// Wide enough for palette, canvas and inspector side by side, as on a desktop screen.
test.use({ viewport: { width: 1600, height: 960 } });

/** What the editor showed at one moment: the nodes on the canvas, the lock, the plan status. */
interface CanvasState {
  ids: string;
  locked: boolean;
  status: string | null;
}

/**
 * Records, in the page, every distinct state the editor showed, so streaming can be checked
 * afterwards however fast the machine is.
 */
async function recordCanvasStates(page: Page) {
  await page.addInitScript(() => {
    const states: { ids: string; locked: boolean; status: string | null }[] = [];
    (window as unknown as { __canvasStates: typeof states }).__canvasStates = states;
    const snapshot = () => {
      const ids = [...document.querySelectorAll('.react-flow__node')]
        .map((n) => n.getAttribute('data-id'))
        .join();
      const locked = document.querySelector('[data-testid="canvas-locked"]') !== null;
      const status =
        document.querySelector('[data-testid="plan-progress"]')?.getAttribute('data-status') ?? null;
      const last = states[states.length - 1];
      if (!last || last.ids !== ids || last.locked !== locked || last.status !== status) {
        states.push({ ids, locked, status });
      }
    };
    new MutationObserver(snapshot).observe(document, { childList: true, subtree: true, attributes: true });
  });
}

const getCanvasStates = (page: Page): Promise<CanvasState[]> =>
  page.evaluate(() => (window as unknown as { __canvasStates: CanvasState[] }).__canvasStates);

/** Types a task on the home page with the chosen planner and waits for the editor to open. */
async function planFromHome(page: Page, task: string, planner: 'offline' | 'llm', shot?: string) {
  await page.goto('/');
  await expect(page.getByTestId('toolkit-picker')).toBeVisible();
  await page.getByTestId('home-planner').selectOption(planner);
  await page.getByTestId('home-prompt-input').fill(task);
  if (shot) await page.screenshot({ path: `${SHOTS}/${shot}` });
  await page.getByTestId('home-prompt-input').press('Enter');
  await page.waitForURL(/\/w\/wf_[^/?]+$/);
  return page.url().split('/w/')[1];
}

async function selectNode(page: Page, id: string) {
  await page.getByTestId(`node-${id}`).getByTestId('node-title').click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', id);
}

async function readJsonPanel(page: Page) {
  await page.getByTestId('tab-json').click();
  return page.getByTestId('json-panel-text').innerText();
}

const param = (
  exported: { nodes: { id: string; input_parameters: { name: string }[] }[] },
  node: string,
  name: string,
) => exported.nodes.find((n) => n.id === node)!.input_parameters.find((p) => p.name === name);

/** Downloads the JSON panel's file and checks it is the panel's text and the server's Export, byte for byte. */
async function checkExport(page: Page, workflowId: string) {
  await expect(page.getByTestId('save-state')).toHaveText('Saved');
  await page.getByTestId('tab-json').click();
  const panel = await page.getByTestId('json-panel-text').textContent();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('json-download').click(),
  ]);
  const file = await readFile((await download.path())!, 'utf8');
  expect(file).toBe(panel);
  const server = await page.request.get(`/api/workflows/${workflowId}/export`);
  expect(server.status()).toBe(200);
  expect(await server.text()).toBe(file);
  expect(download.suggestedFilename()).toMatch(/\.toolflow\.json$/);
  return JSON.parse(file);
}

test('(1) a task typed on the home page is planned offline, fixed in the inspector and exported', async ({
  page,
}) => {
  const workflowId = await planFromHome(page, SEED_TASK, 'offline', 'home.png');

  // Two steps appear, wired: the optimised structure feeds the phonon calculation.
  await expect(page.getByTestId('plan-progress')).toContainText(/offline planner .*finished/);
  await expect(page.getByTestId('plan-progress')).toContainText('2 steps, 1 edge');
  await expect(page.getByTestId('node-step_1')).toBeVisible();
  await expect(page.getByTestId('node-step_2')).toBeVisible();
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await page.getByTestId('tab-problems').click();
  await expect(page.getByTestId('problems-none')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/journey-1-planned.png` });

  await selectNode(page, 'step_2');
  await expect(page.getByTestId('inspector-tool')).toHaveText('calculate_phonons');
  await expect(page.getByTestId('inspector-edge-input_structure')).toHaveText(
    'connected from step_1.optimized_structure',
  );
  const before = JSON.parse(await readJsonPanel(page));
  expect(param(before, 'step_2', 'model_path')).toMatchObject({
    value: 'https://example.org/models/dpa-2.4-7M.pt',
    origin: 'arg',
  });

  // The person clears the model: a required value is now missing, on the node and in the list.
  await page.getByTestId('tab-inspector').click();
  await page.getByTestId('inspector-reset-model_path').click();
  await expect(page.getByTestId('inspector-origin-model_path')).toHaveText('missing');
  await expect(page.getByTestId('inspector-problems-model_path')).toContainText(
    'Required parameter "model_path" has no value',
  );
  await expect(page.getByTestId('node-step_2').getByTestId('badge-missing')).toHaveText('1 missing');
  await page.getByTestId('tab-problems').click();
  const problem = page.locator('[data-testid="problem-item"][data-code="missing_required"]');
  await expect(problem).toHaveCount(1);
  await expect(problem).toHaveAttribute('data-node-id', 'step_2');
  await page.screenshot({ path: `${SHOTS}/journey-1-missing.png` });

  // Clicking the problem opens the step in the inspector, where the value is fixed.
  await problem.click();
  await expect(page.getByTestId('inspector')).toHaveAttribute('data-node-id', 'step_2');
  const field = page.getByTestId('inspector-param-model_path').locator('input');
  await field.fill('https://example.org/models/dpa-3.0.pt');
  await expect(page.getByTestId('inspector-origin-model_path')).toHaveText('set');
  await expect(page.getByTestId('node-step_2').getByTestId('badge-missing')).toHaveCount(0);
  await page.getByTestId('tab-problems').click();
  await expect(page.getByTestId('problems-none')).toBeVisible();

  const after = JSON.parse(await readJsonPanel(page));
  expect(param(after, 'step_2', 'model_path')).toMatchObject({
    value: 'https://example.org/models/dpa-3.0.pt',
    origin: 'arg',
    required: true,
  });
  expect(after.nodes[1].missing_tool_args).toEqual([]);

  const exported = await checkExport(page, workflowId);
  expect(exported.edges).toEqual([
    {
      id: 'step_1.optimized_structure->step_2.input_structure',
      source: 'step_1',
      source_output: 'optimized_structure',
      target: 'step_2',
      target_input: 'input_structure',
    },
  ]);
  await page.getByTestId('tab-inspector').click();
  await page.getByTestId('toolbar-fit').click();
  await page.screenshot({ path: `${SHOTS}/journey-1-fixed.png` });
});

test('a task no tool matches plans nothing: no workflow is created, and the status says why, plainly', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.getByTestId('toolkit-picker')).toBeVisible();
  const count = async () =>
    ((await (await page.request.get('/api/workflows')).json()).workflows as []).length;
  const before = await count();
  await page.getByTestId('home-planner').selectOption('offline');
  const status = page.getByTestId('plan-progress');
  for (let attempt = 1; attempt <= 2; attempt++) {
    await page.getByTestId('home-prompt-input').fill('asdf qwerty');
    await page.getByTestId('home-prompt-input').press('Enter');
    // On the line itself, not under a collapsed list; in the planner's words, not the model's.
    await expect(status).toHaveAttribute('data-outcome', 'nothing');
    await expect(status).toBeVisible();
    await expect(status).toContainText('offline planner');
    await expect(status).toContainText('nothing could be planned: No tool matches the task');
    await expect(status).not.toContainText('the model');
    await expect(page.getByTestId('plan-notices')).toHaveCount(0);
    await expect(page.getByTestId('home-prompt-submit')).toHaveText('Plan workflow');
  }
  // Not the green of a finished job.
  const colours = await status.evaluate((el) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--ok)';
    document.body.append(probe);
    const ok = getComputedStyle(probe).color;
    probe.remove();
    return { line: getComputedStyle(el).color, ok };
  });
  expect(colours.line).not.toBe(colours.ok);
  await page.screenshot({ path: `${SHOTS}/home-nothing-planned.png` });
  expect(new URL(page.url()).pathname).toBe('/');
  expect(await count()).toBe(before);
  await page.reload();
  await expect(page.getByTestId('workflow-item').filter({ hasText: 'asdf qwerty' })).toHaveCount(0);
});

test('(2) the same task through the OpenAI protocol streams its steps and shows a hallucinated parameter and malformed arguments on their nodes', async ({
  page,
}) => {
  await recordCanvasStates(page);
  const workflowId = await planFromHome(page, SEED_TASK, 'llm');

  // Streaming: step 1 is on the canvas (locked) while the model is still writing step 2.
  await expect(page.getByTestId('node-step_1')).toBeVisible();
  if ((await page.getByTestId('plan-progress').getAttribute('data-status')) === 'running') {
    await page.screenshot({ path: `${SHOTS}/journey-2-streaming.png` });
  }
  await expect(page.getByTestId('plan-progress')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('plan-progress')).toContainText('openai-chat planner (scripted-model)');
  await expect(page.getByTestId('plan-progress')).toContainText('2 steps');
  const states = await getCanvasStates(page);
  expect(states).toContainEqual({ ids: 'step_1', locked: true, status: 'running' });
  expect(states[states.length - 1]).toEqual({ ids: 'step_1,step_2', locked: false, status: 'done' });
  await expect(page.getByTestId('prompt-cancel')).toHaveCount(0);

  // The hallucinated parameter: dropped from the node, flagged on it, listed as a warning.
  const step1 = page.getByTestId('node-step_1');
  await expect(step1.getByTestId('badge-unknown-args')).toHaveText('1 unknown arg');
  await page.getByTestId('tab-problems').click();
  await expect(
    page.locator('[data-testid="problem-item"][data-code="unknown_arg"][data-node-id="step_1"]'),
  ).toContainText('temperature');

  // The malformed call: the step exists without arguments, with the error and the raw text.
  const step2 = page.getByTestId('node-step_2');
  await expect(step2.getByTestId('badge-errors')).toBeVisible();
  await expect(step2.getByTestId('badge-missing')).toHaveText('2 missing');
  await selectNode(page, 'step_2');
  await expect(page.getByTestId('inspector-problems')).toContainText('not valid JSON');
  await page.getByTestId('inspector-tab-raw').click();
  await expect(page.getByTestId('inspector-raw-model')).toContainText('model_path = dpa-2.4-7M');
  await page.screenshot({ path: `${SHOTS}/journey-2-problems.png` });

  // Fix it: the raw JSON editor refuses bad JSON with a position, then takes the model path.
  const raw = page.getByTestId('inspector-raw-text');
  await raw.fill('{"model_path": "https://example.org/models/dpa-2.4-7M.pt",}');
  await page.getByTestId('inspector-raw-apply').click();
  await expect(page.getByTestId('inspector-raw-error')).toContainText('line 1, column');
  await raw.fill('{"model_path": "https://example.org/models/dpa-2.4-7M.pt"}');
  await page.getByTestId('inspector-raw-apply').click();
  await expect(page.getByTestId('inspector-raw-error')).toHaveCount(0);
  await expect(step2.getByTestId('badge-missing')).toHaveText('1 missing');

  // …and wires the structure by dragging from step 1's output to step 2's input.
  const out = step1.locator('.react-flow__handle[data-handleid="out:optimized_structure"]');
  const into = step2.locator('.react-flow__handle[data-handleid="in:input_structure"]');
  await out.dragTo(into);
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await expect(step2.getByTestId('badge-missing')).toHaveCount(0);

  const exported = await checkExport(page, workflowId);
  expect(exported.nodes[0].unknown_args).toEqual(['temperature']);
  expect(exported.nodes[1].problems.map((p: { code: string }) => p.code)).toContain('bad_json');
  expect(param(exported, 'step_2', 'input_structure')).toMatchObject({ value: '', origin: 'edge' });
});

test('(4) a follow-up prompt adds a step to the existing graph, as one undoable change', async ({ page }) => {
  await planFromHome(page, SEED_TASK, 'offline');
  await expect(page.getByTestId('plan-progress')).toContainText(/offline planner .*finished/);
  await expect(page.locator('.react-flow__node')).toHaveCount(2);

  const prompt = page.getByTestId('prompt-input');
  await expect(prompt).toHaveAttribute('aria-label', 'Describe a change to this workflow');
  // With a language model configured the editor offers it; this journey uses the offline planner.
  if ((await page.getByTestId('prompt-planner').count()) > 0) {
    await page.getByTestId('prompt-planner').selectOption('offline');
  }
  await prompt.fill('Then compute the band structure of the optimised structure');
  await prompt.press('Enter');

  await expect(page.getByTestId('plan-progress')).toContainText('finished');
  await expect(page.locator('.react-flow__node')).toHaveCount(3);
  const added = page.getByTestId('node-step_3');
  await expect(added).toBeVisible();
  await expect(added.getByTestId('node-title')).toHaveText(/band/i);
  // The new step is wired into the graph, and the old ones are untouched.
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  const doc = JSON.parse(await readJsonPanel(page));
  expect(doc.nodes.map((n: { id: string }) => n.id)).toEqual(['step_1', 'step_2', 'step_3']);
  expect(doc.edges.some((e: { target: string }) => e.target === 'step_3')).toBe(true);
  await page.screenshot({ path: `${SHOTS}/journey-4-follow-up.png` });

  // The whole AI change is one undo step.
  await page.getByTestId('toolbar-undo').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(2);
  await page.getByTestId('toolbar-redo').click();
  await expect(page.locator('.react-flow__node')).toHaveCount(3);
});

test('Cancel stops a running plan and keeps what arrived', async ({ page }) => {
  await planFromHome(page, SEED_TASK, 'llm');
  await expect(page.getByTestId('node-step_1')).toBeVisible();
  await page.getByTestId('prompt-cancel').click();
  await expect(page.getByTestId('plan-progress')).toHaveAttribute('data-status', 'cancelled');
  await expect(page.getByTestId('plan-progress')).toContainText('cancelled');
  await expect(page.getByTestId('canvas-locked')).toHaveCount(0);
  // The model's second step never arrives.
  await page.waitForTimeout(4000);
  await expect(page.locator('.react-flow__node')).toHaveCount(1);
});
