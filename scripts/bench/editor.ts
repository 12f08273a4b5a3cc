/**
 * Editor canvas performance in real Chromium (Playwright), side by side with bare React Flow:
 * time to first render of generated 100/500/1000-node workflows (about 1.4 edges per node), and
 * frame times (requestAnimationFrame deltas in the page) while dragging a node and while
 * panning at 500 nodes. `/bench/ours` is our editor canvas (store, node components, toolbar);
 * `/bench/bare` is the same graph in plain React Flow with default nodes and the same
 * background, minimap and controls. Ratios are ours ÷ bare.
 *
 *   npx tsx scripts/bench/editor.ts        alone (needs `npm run build` first)
 *   npm run bench -- editor                as a section of the bench table
 *   BENCH_URL=http://127.0.0.1:3000 …      against a server already started with
 *                                          TOOLFLOW_BENCH_PAGES=1 (the pages answer 404 without it)
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { startBenchServer } from './_server';
import type { BenchRow } from './types';

export const title = 'editor';

const SIZES = [100, 500, 1000] as const;
const RUNS = 5;
const FRAME_STEPS = 90;
const VIEWPORT = { width: 1400, height: 900 };
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
];

type Kind = 'ours' | 'bare';

declare global {
  interface Window {
    __benchFirstRender?: number;
    __benchFrames?: number[];
    __benchRecording?: boolean;
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** `next start` on the production build with the bench pages on (they need no database). */
const startServer = () =>
  startBenchServer({
    name: 'editor',
    readyPath: '/bench/bare?n=1',
    // The bench pages answer 404 without it (lib/bench/pages.ts).
    env: { TOOLFLOW_BENCH_PAGES: '1' },
    noBuildHint: ', or set BENCH_URL to a started server',
  });

async function openBenchPage(
  browser: Browser,
  url: string,
  kind: Kind,
  n: number,
): Promise<{ page: Page; firstRender: number }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const response = await page.goto(`${url}/bench/${kind}?n=${n}`);
  if (response?.status() === 404) {
    throw new Error(`${url}/bench/${kind} answered 404: start that server with TOOLFLOW_BENCH_PAGES=1.`);
  }
  await page.waitForFunction(() => window.__benchFirstRender !== undefined, null, { timeout: 120_000 });
  const firstRender = await page.evaluate(() => window.__benchFirstRender as number);
  return { page, firstRender };
}

/**
 * Time from navigation start to the first paint with every node rendered and measured, for
 * ours and bare alike. Loads alternate between the two pages, so a machine shared with other
 * work slows both sides of the ratio equally.
 */
async function measureFirstRenders(browser: Browser, url: string, n: number): Promise<Record<Kind, number>> {
  const times: Record<Kind, number[]> = { bare: [], ours: [] };
  // One unmeasured load of each page warms the server and the disk cache.
  for (let i = -1; i < RUNS; i++) {
    for (const kind of ['bare', 'ours'] as const) {
      const { page, firstRender } = await openBenchPage(browser, url, kind, n);
      if (i >= 0) times[kind].push(firstRender);
      await page.context().close();
    }
  }
  return { bare: median(times.bare), ours: median(times.ours) };
}

/** Records every requestAnimationFrame delta into `window.__benchFrames` until recording stops. */
const FRAME_RECORDER = `(() => {
  window.__benchFrames = [];
  window.__benchRecording = true;
  let last;
  const tick = (t) => {
    if (last !== undefined) window.__benchFrames.push(t - last);
    last = t;
    if (window.__benchRecording) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

const nextFrame = (page: Page) =>
  page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));

/** Frame deltas while the pointer drags from `from` along a line, one pointer move per frame. */
async function recordDrag(
  page: Page,
  from: { x: number; y: number },
  step: { x: number; y: number },
): Promise<number[]> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  // A string, not a function: tsx's keepNames would wrap the inner function in a `__name`
  // helper that does not exist in the page.
  await page.evaluate(FRAME_RECORDER);
  for (let i = 1; i <= FRAME_STEPS; i++) {
    await page.mouse.move(from.x + step.x * i, from.y + step.y * i);
    await nextFrame(page);
  }
  await page.mouse.up();
  return page.evaluate(() => {
    window.__benchRecording = false;
    return window.__benchFrames ?? [];
  });
}

/** A point on the node nearest the canvas centre, on its header (where a drag grabs it). */
async function findNodeGrip(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(({ width, height }) => {
    const cx = width / 2;
    const cy = height / 2;
    let best: { x: number; y: number; d: number } | undefined;
    for (const el of document.querySelectorAll('.react-flow__node')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.bottom < 0 || r.top > height) continue;
      const x = r.left + r.width / 2;
      const y = r.top + Math.min(4, r.height / 4);
      const d = Math.hypot(x - cx, y - cy);
      if (!best || d < best.d) best = { x, y, d };
    }
    if (!best) throw new Error('No node on screen to drag.');
    return { x: best.x, y: best.y };
  }, VIEWPORT);
}

/** An empty spot of the pane (no node, edge or panel), where a drag pans the viewport. */
async function findEmptyPane(page: Page): Promise<{ x: number; y: number }> {
  return page.evaluate(({ width, height }) => {
    for (let y = 80; y < height - 200; y += 16) {
      for (let x = 80; x < width - 260; x += 16) {
        const el = document.elementFromPoint(x, y);
        if (el?.classList.contains('react-flow__pane')) return { x, y };
      }
    }
    throw new Error('No empty pane to pan from.');
  }, VIEWPORT);
}

interface FrameFigures {
  dragMedian: number;
  dragP95: number;
  panMedian: number;
  panP95: number;
}

async function measureFrames(browser: Browser, url: string, kind: Kind, n: number): Promise<FrameFigures> {
  const { page } = await openBenchPage(browser, url, kind, n);
  // Let fitView and the first measurements settle before interacting.
  for (let i = 0; i < 10; i++) await nextFrame(page);
  const drag = await recordDrag(page, await findNodeGrip(page), { x: 3, y: 2 });
  for (let i = 0; i < 10; i++) await nextFrame(page);
  const pan = await recordDrag(page, await findEmptyPane(page), { x: 4, y: 3 });
  await page.context().close();
  return {
    dragMedian: median(drag),
    dragP95: percentile(drag, 95),
    panMedian: median(pan),
    panP95: percentile(pan, 95),
  };
}

/** The editor section: first render at each size, frames at 500, and ours ÷ bare. */
export async function run(): Promise<BenchRow[]> {
  // The machine may be shared: say how busy it was, since frame and load times depend on it.
  const loadBefore = loadavg()[0];
  const external = process.env.BENCH_URL;
  const server = external ? { url: external.replace(/\/$/, ''), stop() {} } : await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const rows: BenchRow[] = [];
    const first: Record<Kind, Record<number, number>> = { ours: {}, bare: {} };
    for (const n of SIZES) {
      const measured = await measureFirstRenders(browser, server.url, n);
      first.bare[n] = measured.bare;
      first.ours[n] = measured.ours;
      process.stderr.write(
        `  first render ${n}: ours ${measured.ours.toFixed(0)} ms, bare ${measured.bare.toFixed(0)} ms\n`,
      );
    }
    for (const n of SIZES) {
      rows.push({
        figure: `first render, ${n} nodes (ours)`,
        value: first.ours[n],
        unit: 'ms',
        better: 'lower',
        ...(n === 500 ? { target: 1500 } : {}),
        note: `bare React Flow ${first.bare[n].toFixed(0)} ms; median of ${RUNS} alternating with bare, from navigation start${n === SIZES[0] ? `; load average ${loadBefore.toFixed(1)} at start` : ''}`,
      });
    }
    rows.push({
      figure: 'first render ratio ours ÷ bare, 500 nodes',
      value: first.ours[500] / first.bare[500],
      unit: '×',
      target: 1.5,
      better: 'lower',
    });

    const frames: Record<Kind, FrameFigures> = {
      bare: await measureFrames(browser, server.url, 'bare', 500),
      ours: await measureFrames(browser, server.url, 'ours', 500),
    };
    for (const [what, median, p95] of [
      ['dragging a node', 'dragMedian', 'dragP95'],
      ['panning', 'panMedian', 'panP95'],
    ] as const) {
      rows.push({
        figure: `median frame ${what}, 500 nodes (ours)`,
        value: frames.ours[median],
        unit: 'ms',
        target: 20,
        better: 'lower',
        note: `p95 ${frames.ours[p95].toFixed(1)} ms; bare median ${frames.bare[median].toFixed(1)}, p95 ${frames.bare[p95].toFixed(1)} ms; ${FRAME_STEPS} pointer moves`,
      });
      rows.push({
        figure: `median frame ratio ours ÷ bare, ${what}`,
        value: frames.ours[median] / frames.bare[median],
        unit: '×',
        target: 1.5,
        better: 'lower',
      });
    }
    return rows;
  } finally {
    await browser.close();
    server.stop();
  }
}

// Run alone: print the rows as a small table.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  run().then(
    (rows) => {
      for (const r of rows) {
        const target = r.target === undefined ? '' : ` (target ≤ ${r.target})`;
        process.stdout.write(
          `${r.figure}: ${r.value.toFixed(2)} ${r.unit}${target}${r.note ? ` — ${r.note}` : ''}\n`,
        );
      }
    },
    (error: Error) => {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    },
  );
}
