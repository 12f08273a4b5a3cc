import { expect, test, type Locator, type Page } from '@playwright/test';
import { hashDeclaration } from '../lib/tools/canonical-json';
import type { ToolDeclaration } from '../lib/tools/types';

/**
 * Editing on the canvas, as a user does it with the mouse and keyboard:
 * connect typed ports, see an incompatible drop refused with the reason, disconnect and get the
 * value back, undo and redo; copy/paste, delete, and auto-layout without overlaps.
 */

const SHOTS = 'e2e/__screenshots__';

test.use({ viewport: { width: 1600, height: 960 } });

const fetchTool = {
  name: 'fetch_file',
  description: 'Download a file and return where it was saved',
  inputSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri', description: 'Where to download from' },
      retries: { type: 'integer', default: 3, minimum: 0 },
    },
    required: ['url'],
  },
  outputSchema: { type: 'object', properties: { path: { type: 'string' }, size: { type: 'integer' } } },
  source: { kind: 'mcp-http', server: 'http://127.0.0.1:3001/mcp', toolkit: 'files' },
};

const analyseTool = {
  name: 'analyse_structure',
  description: 'Analyse a structure file',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Structure file' },
      threshold: { type: 'number', default: 0.5 },
      tags: { type: 'array', items: { type: 'string' } },
      verbose: { type: 'boolean' },
    },
    required: ['path'],
  },
  source: { kind: 'builtin', toolkit: 'Materials science' },
};

const tools = {
  // Real hashes: a write refuses a snapshot whose hash is not one (lib/workflow/check.ts).
  fetch_file: { declaration: fetchTool, hash: hashDeclaration(fetchTool as ToolDeclaration) },
  analyse_structure: { declaration: analyseTool, hash: hashDeclaration(analyseTool as ToolDeclaration) },
};

type NodeSpec = { id: string; tool: keyof typeof tools; x: number; y: number; args: Record<string, unknown> };

/** Creates a workflow owned by this browser (page.request shares its cookies) and opens it. */
async function openWorkflow(page: Page, name: string, nodes: NodeSpec[], edges: object[] = []) {
  const created = await page.request.post('/api/workflows', {
    data: {
      name,
      document: {
        task: name,
        nodes: nodes.map((n) => ({
          id: n.id,
          tool: n.tool,
          position: { x: n.x, y: n.y },
          args: n.args,
          toolHash: tools[n.tool].hash,
        })),
        edges,
        tools,
      },
    },
  });
  expect(created.status()).toBe(201);
  const { workflow } = await created.json();
  await page.goto(`/w/${workflow.id}`);
  for (const n of nodes) await expect(page.getByTestId(`node-${n.id}`)).toBeVisible();
  return workflow.id as string;
}

const handle = (page: Page, nodeId: string, handleId: string) =>
  page.getByTestId(`node-${nodeId}`).locator(`.react-flow__handle[data-handleid="${handleId}"]`);

async function center(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('element has no box');
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

/** Clicks the middle of an edge's path, which selects it. */
async function clickEdge(page: Page, edgeId: string) {
  const point = await page.evaluate((id) => {
    const path = document.querySelector<SVGPathElement>(
      `.react-flow__edge[data-id="${CSS.escape(id)}"] .react-flow__edge-interaction`,
    );
    if (!path) throw new Error(`no edge ${id}`);
    const p = path.getPointAtLength(path.getTotalLength() / 2);
    const m = path.getScreenCTM()!;
    return { x: p.x * m.a + p.y * m.c + m.e, y: p.x * m.b + p.y * m.d + m.f };
  }, edgeId);
  await page.mouse.click(point.x, point.y);
}

const param = (page: Page, nodeId: string, name: string) =>
  page.getByTestId(`node-${nodeId}`).getByTestId(`param-${name}`);

/** The saved document, once autosave has stored a version that passes `check`. */
async function savedDocument(page: Page, id: string, check: (doc: SavedDocument) => boolean) {
  let doc: SavedDocument | undefined;
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/workflows/${id}`);
      doc = (await res.json()).workflow.document;
      return check(doc!);
    })
    .toBe(true);
  return doc!;
}

interface SavedDocument {
  nodes: { id: string; label?: string; position: { x: number; y: number } }[];
  edges: { id: string; source: string; sourceOutput: string; target: string; targetInput: string }[];
}

test('connect, refuse an incompatible connection with the reason, disconnect, undo and redo', async ({
  page,
}) => {
  const id = await openWorkflow(page, 'Connect and refuse', [
    { id: 'fetch', tool: 'fetch_file', x: 0, y: 0, args: { url: 'https://example.org/Cu.cif' } },
    { id: 'analyse', tool: 'analyse_structure', x: 480, y: 0, args: { path: '/tmp/local.cif' } },
  ]);

  // The value the model set shows as set; an optional one nobody set shows as unset and not sent,
  // never as its zero-value placeholder.
  await expect(param(page, 'analyse', 'path')).toHaveAttribute('data-origin', 'arg');
  await expect(param(page, 'analyse', 'path').getByTestId('param-value')).toHaveText('/tmp/local.cif');
  await expect(param(page, 'analyse', 'tags')).toHaveAttribute('data-origin', 'zero');
  await expect(param(page, 'analyse', 'tags').getByTestId('param-origin')).toHaveText('unset');
  await expect(param(page, 'analyse', 'tags').getByTestId('param-value')).toHaveText('not sent');
  await expect(param(page, 'analyse', 'threshold').getByTestId('param-origin')).toHaveText('default');

  // An int output onto a list input: refused, and the canvas says why.
  await dragConnection(page, handle(page, 'fetch', 'out:size'), handle(page, 'analyse', 'in:tags'));
  const refused = page.getByTestId('connect-refused');
  await expect(refused).toBeVisible();
  await expect(refused).toContainText('Output "size" is int but input "tags" takes list');
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/editing-refused.png` });

  // str → str is fine: the input is now fed by the edge, its value blanked.
  await dragConnection(page, handle(page, 'fetch', 'out:path'), handle(page, 'analyse', 'in:path'));
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await expect(refused).toHaveCount(0);
  await expect(param(page, 'analyse', 'path')).toHaveAttribute('data-origin', 'edge');
  await expect(param(page, 'analyse', 'path').getByTestId('param-value')).toHaveText('← fetch.path');
  await page.screenshot({ path: `${SHOTS}/editing-connected.png` });
  const connected = await savedDocument(page, id, (d) => d.edges.length === 1);
  expect(connected.edges).toEqual([
    expect.objectContaining({
      source: 'fetch',
      sourceOutput: 'path',
      target: 'analyse',
      targetInput: 'path',
    }),
  ]);
  const edgeId: string = connected.edges[0].id;

  // Select the edge and delete it from the keyboard: the model's value comes back.
  await clickEdge(page, edgeId);
  await expect(page.locator(`.react-flow__edge[data-id="${edgeId}"]`)).toHaveClass(/selected/);
  await page.keyboard.press('Backspace');
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await expect(param(page, 'analyse', 'path')).toHaveAttribute('data-origin', 'arg');
  await expect(param(page, 'analyse', 'path').getByTestId('param-value')).toHaveText('/tmp/local.cif');

  // Undo brings the edge back; redo removes it again; the keyboard does the same.
  await page.getByTestId('toolbar-undo').click();
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await expect(param(page, 'analyse', 'path')).toHaveAttribute('data-origin', 'edge');
  await page.getByTestId('toolbar-redo').click();
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await expect(param(page, 'analyse', 'path')).toHaveAttribute('data-origin', 'arg');
  await page.keyboard.press('Control+z');
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await page.keyboard.press('Control+Shift+z');
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  await savedDocument(page, id, (d) => d.edges.length === 0);
});

test('copy and paste make a new node with a new id; Delete removes it; undo restores it', async ({
  page,
}) => {
  const id = await openWorkflow(page, 'Copy and paste', [
    { id: 'fetch', tool: 'fetch_file', x: 0, y: 0, args: { url: 'https://example.org/a.cif', retries: 5 } },
  ]);
  await page.getByTestId('node-fetch').getByTestId('node-title').click();
  await expect(page.getByTestId('selection-count')).toHaveText('1 selected');
  await page.keyboard.press('Control+c');
  await page.keyboard.press('Control+v');
  const copy = page.getByTestId('node-fetch_copy_1');
  await expect(copy).toBeVisible();
  await expect(param(page, 'fetch_copy_1', 'retries').getByTestId('param-value')).toHaveText('5');
  const doc = await savedDocument(page, id, (d) => d.nodes.length === 2);
  expect(doc.nodes.map((n) => n.id)).toEqual(['fetch', 'fetch_copy_1']);
  const [a, b] = doc.nodes;
  expect(b.position).toEqual({ x: a.position.x + 40, y: a.position.y + 40 });

  // Ctrl+click adds to the selection; Ctrl+A selects every node; Escape clears it.
  await page
    .getByTestId('node-fetch')
    .getByTestId('node-title')
    .click({ modifiers: ['Control'] });
  await expect(page.getByTestId('selection-count')).toHaveText('2 selected');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('selection-count')).toHaveCount(0);
  await page.keyboard.press('Control+a');
  await expect(page.getByTestId('selection-count')).toHaveText('2 selected');
  await page.getByTestId('node-fetch_copy_1').getByTestId('node-title').click();

  // Double-clicking the title renames the node; the tool name stays beside the label.
  await page.getByTestId('node-fetch_copy_1').getByTestId('node-title').dblclick();
  await page.getByTestId('node-title-input').fill('Mirror download');
  await page.getByTestId('node-title-input').press('Enter');
  await expect(page.getByTestId('node-fetch_copy_1').getByTestId('node-title')).toHaveText('Mirror download');
  await savedDocument(page, id, (d) => d.nodes.some((n) => n.label === 'Mirror download'));

  // Duplicate (Ctrl+D) works on the selection too, with its own id.
  await page.keyboard.press('Control+d');
  await expect(page.getByTestId('node-fetch_copy_2')).toBeVisible();

  // The pasted copy is selected; Delete removes the selection.
  await page.getByTestId('node-fetch_copy_2').getByTestId('node-title').click();
  await page.keyboard.press('Delete');
  await expect(page.getByTestId('node-fetch_copy_2')).toHaveCount(0);
  await expect(page.locator('.react-flow__node')).toHaveCount(2);
  await page.getByTestId('toolbar-undo').click();
  await expect(page.getByTestId('node-fetch_copy_2')).toBeVisible();
});

test('auto-layout puts a tangled graph left to right with no overlapping nodes', async ({ page }) => {
  // Five nodes piled on one spot; the analysers have more parameters, so they are taller.
  const nodes: NodeSpec[] = [
    { id: 'a1', tool: 'analyse_structure', x: 0, y: 0, args: {} },
    { id: 'f1', tool: 'fetch_file', x: 10, y: 10, args: { url: 'https://example.org/1.cif' } },
    { id: 'a2', tool: 'analyse_structure', x: 20, y: 20, args: { verbose: true } },
    { id: 'f2', tool: 'fetch_file', x: 30, y: 30, args: { url: 'https://example.org/2.cif' } },
    { id: 'a3', tool: 'analyse_structure', x: 40, y: 40, args: {} },
  ];
  const edges = [
    { id: 'e1', source: 'f1', sourceOutput: 'path', target: 'a1', targetInput: 'path' },
    { id: 'e2', source: 'f1', sourceOutput: 'path', target: 'a2', targetInput: 'path' },
    { id: 'e3', source: 'f2', sourceOutput: 'path', target: 'a3', targetInput: 'path' },
  ];
  const id = await openWorkflow(page, 'Tangled', nodes, edges);
  await page.getByTestId('toolbar-layout').click();
  await savedDocument(page, id, (d) => d.nodes.some((n) => n.position.x > 100));
  // Wait for the fit-view animation to end before measuring boxes on screen.
  await page.waitForTimeout(600);

  const boxes = await Promise.all(
    nodes.map(async (n) => ({ id: n.id, ...(await page.getByTestId(`node-${n.id}`).boundingBox())! })),
  );
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [p, q] = [boxes[i], boxes[j]];
      const overlap =
        p.x < q.x + q.width && q.x < p.x + p.width && p.y < q.y + q.height && q.y < p.y + p.height;
      expect(overlap, `${p.id} overlaps ${q.id}`).toBe(false);
    }
  }
  const x = Object.fromEntries(boxes.map((b) => [b.id, b.x]));
  for (const e of edges) expect(x[e.source], `${e.source} left of ${e.target}`).toBeLessThan(x[e.target]);
  await page.screenshot({ path: `${SHOTS}/editing-layout.png` });

  // One undo puts every node back where it was.
  await page.getByTestId('toolbar-undo').click();
  const before = JSON.stringify(nodes.map((n) => ({ x: n.x, y: n.y })));
  await savedDocument(page, id, (d) => JSON.stringify(d.nodes.map((n) => n.position)) === before);
});

test('a big workflow opens zoomed out and, zoomed in, every port takes a connection', async ({ page }) => {
  // Forty nodes spread wide: the fitted view is zoomed out far enough for the compact look.
  const nodes: NodeSpec[] = Array.from({ length: 40 }, (_, i) => ({
    id: `n${i}`,
    tool: i % 2 ? 'analyse_structure' : 'fetch_file',
    x: (i % 10) * 420,
    y: Math.floor(i / 10) * 360,
    args: i % 2 ? {} : { url: `https://example.org/${i}.cif` },
  }));
  const edges = [{ id: 'e', source: 'n2', sourceOutput: 'path', target: 'n3', targetInput: 'path' }];
  await openWorkflow(page, 'Big and zoomed out', nodes, edges);
  await expect(page.locator('.tn--compact')).toHaveCount(40);
  await expect(page.locator('.react-flow__edge')).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/editing-overview.png` });

  // Zoom in between n0 and n1 with the wheel, as a user would, until they show their parameters.
  const [a, b] = [await center(page.getByTestId('node-n0')), await center(page.getByTestId('node-n1'))];
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2);
  for (let i = 0; i < 20; i++) {
    if (!((await page.getByTestId('node-n1').getAttribute('class')) ?? '').includes('tn--compact')) break;
    await page.mouse.wheel(0, -150);
    await page.waitForTimeout(100);
  }
  await expect(param(page, 'n1', 'path')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/editing-zoomed-in.png` });

  // The ports were first measured in the compact look; connecting one that had no edge works.
  await dragConnection(page, handle(page, 'n0', 'out:path'), handle(page, 'n1', 'in:path'));
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  await expect(param(page, 'n1', 'path')).toHaveAttribute('data-origin', 'edge');
});

test('Fit view animates the viewport back to the whole graph, frame by frame', async ({ page }) => {
  // React Flow animates through d3-transition; the browser build's d3-color is a stub
  // (lib/editor/d3-color-stub.ts), which must leave the zoom tween working.
  const nodes: NodeSpec[] = Array.from({ length: 6 }, (_, i) => ({
    id: `f${i}`,
    tool: i % 2 ? 'analyse_structure' : 'fetch_file',
    x: (i % 3) * 520,
    y: Math.floor(i / 3) * 420,
    args: i % 2 ? {} : { url: `https://example.org/${i}.cif` },
  }));
  await openWorkflow(page, 'Fit view animates', nodes);
  const viewport = page.locator('.react-flow__viewport');
  const fitted = await viewport.evaluate((el) => getComputedStyle(el).transform);

  const box = (await page.locator('.react-flow').boundingBox())!;
  await page.mouse.move(box.x + box.width / 3, box.y + box.height / 3);
  for (let i = 0; i < 4; i++) {
    await page.mouse.wheel(0, -200);
    await page.waitForTimeout(100);
  }
  await expect.poll(() => viewport.evaluate((el) => getComputedStyle(el).transform)).not.toBe(fitted);

  // Record the transform on every frame while the 250 ms animation runs.
  const frames = page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const el = document.querySelector('.react-flow__viewport')!;
        const seen: string[] = [];
        const start = performance.now();
        const tick = () => {
          seen.push(getComputedStyle(el).transform);
          if (performance.now() - start < 700) requestAnimationFrame(tick);
          else resolve(seen);
        };
        requestAnimationFrame(tick);
      }),
  );
  await page.getByTestId('toolbar-fit').click();
  const seen = await frames;
  const distinct = [...new Set(seen)];
  // Zoomed in, then at least one frame in between (a jump would have none), then the fitted view.
  expect(distinct.length).toBeGreaterThanOrEqual(3);
  const scale = (transform: string) => Number(/matrix\(([^,]+)/.exec(transform)?.[1]);
  expect(scale(seen[seen.length - 1])).toBeCloseTo(scale(fitted), 3);
});
