/**
 * Editor canvas performance in real Chromium (Playwright), side by side with bare React Flow:
 * time to first render of generated 100/500/1000-node workflows (about 1.4 edges per node), and
 * frame times (requestAnimationFrame deltas in the page) while dragging a node and while
 * panning at 500 and 1,000 nodes: the median frame and the p95 frame, since a 60 Hz median
 * hides the stalls a person feels. `/bench/ours` is our editor canvas (store, node components, toolbar);
 * `/bench/bare` is the same graph in plain React Flow with default nodes and the same
 * background, minimap and controls. Ratios are ours ÷ bare.
 *
 * Made for a noisy, shared machine: the two sides alternate (and which goes first alternates
 * too), every figure is the median of several samples with its spread (interquartile range,
 * p25–p75), and each ratio is the median of the ratios of samples taken side by side, so a
 * burst of load elsewhere slows both sides of one ratio, not one side of the figure.
 *
 *   npx tsx scripts/bench/editor.ts        alone (needs `npm run build` first)
 *   npm run bench -- editor                as a section of the bench table
 *   BENCH_URL=http://127.0.0.1:3000 …      against a server already started with
 *                                          TOOLFLOW_BENCH_PAGES=1 (the pages answer 404 without it)
 *   BENCH_EDITOR_SIZES=500,1000 …          first renders at these sizes only
 *   BENCH_EDITOR_FRAME_SIZES=500 …         frames at these sizes only
 *
 * The load average is noted next to every figure (at the start and the end of its samples).
 */
import { loadavg } from 'node:os';
import { chromium, type Browser, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../chromium';
import { startBenchServer } from './_server';
import { runWhenCalledDirectly } from './_main';
import type { BenchRow } from './types';

export const title = 'editor';

const sizesFrom = (value: string | undefined, fallback: number[]) =>
  value
    ? value
        .split(',')
        .map(Number)
        .filter((n) => n > 0)
    : fallback;
/** First render at each of these sizes. */
const SIZES = sizesFrom(process.env.BENCH_EDITOR_SIZES, [100, 500, 1000]);
/** Pan and drag frames at each of these sizes. */
const FRAME_SIZES = sizesFrom(process.env.BENCH_EDITOR_FRAME_SIZES, [500, 1000]);
/** Sizes whose ratios carry the target (within 1.2× of bare React Flow). */
const TARGET_SIZES = new Set([500, 1000]);
/** First-render samples per side and size. */
const RUNS = Number(process.env.BENCH_EDITOR_RUNS ?? 9);
/** Frame rounds per side: each a fresh page, a pan, then a drag. */
const FRAME_ROUNDS = Number(process.env.BENCH_EDITOR_ROUNDS ?? 7);
const FRAME_STEPS = 90;
/** Ours within 1.2× of bare React Flow: first render, p95 pan and p95 drag frames. */
const RATIO_TARGET = 1.2;
const VIEWPORT = { width: 1400, height: 900 };
/** Frames are the measure: a page in the background must not be throttled. */
const CHROMIUM_ARGS = [
  ...CHROMIUM_LAUNCH.args,
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
/** Interpolated quantile (0…1) of a sample, for the interquartile range. */
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
};

/** Median and interquartile range of a sample. */
interface Spread {
  median: number;
  p25: number;
  p75: number;
  n: number;
}
const spreadOf = (values: number[]): Spread => ({
  median: median(values),
  p25: quantile(values, 0.25),
  p75: quantile(values, 0.75),
  n: values.length,
});
const formatSpread = (s: Spread, digits: number, unit = '') =>
  `median ${s.median.toFixed(digits)}${unit}, IQR ${s.p25.toFixed(digits)}–${s.p75.toFixed(digits)}${unit} (n=${s.n})`;

/** Which side goes first in round `i`: they take turns, so neither always meets a warmer machine. */
const orderOf = (i: number): Kind[] => (i % 2 === 0 ? ['bare', 'ours'] : ['ours', 'bare']);

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
 * ours and bare alike, side by side: each round loads both (in alternating order), so a
 * machine shared with other work slows both sides of that round's ratio alike.
 */
async function measureFirstRenders(
  browser: Browser,
  url: string,
  n: number,
): Promise<{ bare: Spread; ours: Spread; ratio: Spread }> {
  const times: Record<Kind, number[]> = { bare: [], ours: [] };
  const ratios: number[] = [];
  // One unmeasured load of each page warms the server and the disk cache.
  for (let i = -1; i < RUNS; i++) {
    const round: Partial<Record<Kind, number>> = {};
    for (const kind of orderOf(i)) {
      const { page, firstRender } = await openBenchPage(browser, url, kind, n);
      round[kind] = firstRender;
      await page.context().close();
    }
    if (i < 0) continue;
    times.bare.push(round.bare!);
    times.ours.push(round.ours!);
    ratios.push(round.ours! / round.bare!);
  }
  return { bare: spreadOf(times.bare), ours: spreadOf(times.ours), ratio: spreadOf(ratios) };
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

interface RoundFrames {
  /** Median frame of one pan and of one drag on a fresh page. */
  pan: number;
  drag: number;
  panP95: number;
  dragP95: number;
}

/**
 * One round on a fresh page: pan first (the viewport only), then drag a node. The drag's end
 * is the first change of the document, after which our editor loads Ajv and checks values as
 * it does for a person: the page is closed before that could overlap a measurement.
 */
async function measureRound(browser: Browser, url: string, kind: Kind, n: number): Promise<RoundFrames> {
  const { page } = await openBenchPage(browser, url, kind, n);
  try {
    // Let fitView and the first measurements settle before interacting.
    for (let i = 0; i < 10; i++) await nextFrame(page);
    const pan = await recordDrag(page, await findEmptyPane(page), { x: 4, y: 3 });
    for (let i = 0; i < 10; i++) await nextFrame(page);
    const drag = await recordDrag(page, await findNodeGrip(page), { x: 3, y: 2 });
    return {
      pan: median(pan),
      drag: median(drag),
      panP95: percentile(pan, 95),
      dragP95: percentile(drag, 95),
    };
  } finally {
    await page.context().close();
  }
}

type FrameKey = keyof RoundFrames;
const FRAME_KEYS: readonly FrameKey[] = ['pan', 'drag', 'panP95', 'dragP95'];

interface FrameFigures {
  ours: Record<FrameKey, Spread>;
  bare: Record<FrameKey, Spread>;
  /** Ours ÷ bare, round by round. */
  ratio: Record<FrameKey, Spread>;
}

/** FRAME_ROUNDS rounds, each both sides in alternating order, at `n` nodes. */
async function measureFrames(browser: Browser, url: string, n: number): Promise<FrameFigures> {
  const rounds: Record<Kind, RoundFrames[]> = { bare: [], ours: [] };
  for (let i = 0; i < FRAME_ROUNDS; i++) {
    for (const kind of orderOf(i)) rounds[kind].push(await measureRound(browser, url, kind, n));
  }
  const figures = (of: (what: FrameKey) => Spread) =>
    Object.fromEntries(FRAME_KEYS.map((k) => [k, of(k)])) as Record<FrameKey, Spread>;
  const side = (kind: Kind) => figures((k) => spreadOf(rounds[kind].map((r) => r[k])));
  return {
    ours: side('ours'),
    bare: side('bare'),
    ratio: figures((k) => spreadOf(rounds.ours.map((r, i) => r[k] / rounds.bare[i][k]))),
  };
}

/** The 1-minute load average now, for the notes. */
const loadNow = () => loadavg()[0];
const formatLoad = (from: number, to: number) => `load average ${from.toFixed(1)}→${to.toFixed(1)}`;

/** The editor section: first render at each size, frames while panning and dragging, ours ÷ bare. */
export async function run(): Promise<BenchRow[]> {
  const external = process.env.BENCH_URL;
  const server = external ? { url: external.replace(/\/$/, ''), stop() {} } : await startServer();
  const browser = await chromium.launch({ ...CHROMIUM_LAUNCH, args: CHROMIUM_ARGS });
  try {
    const rows: BenchRow[] = [];
    for (const n of SIZES) {
      // The machine may be shared: say how busy it was, since frame and load times depend on it.
      const loadFrom = loadNow();
      const first = await measureFirstRenders(browser, server.url, n);
      const load = formatLoad(loadFrom, loadNow());
      process.stderr.write(
        `  first render ${n}: ours ${formatSpread(first.ours, 0, ' ms')}; bare ${formatSpread(first.bare, 0, ' ms')}; ratio ${formatSpread(first.ratio, 2)}; ${load}\n`,
      );
      rows.push({
        figure: `first render, ${n} nodes (ours)`,
        value: first.ours.median,
        unit: 'ms',
        better: 'lower',
        ...(n === 500 ? { target: 1500 } : {}),
        note: `IQR ${first.ours.p25.toFixed(0)}–${first.ours.p75.toFixed(0)}; bare React Flow median ${first.bare.median.toFixed(0)} ms, IQR ${first.bare.p25.toFixed(0)}–${first.bare.p75.toFixed(0)}; ${RUNS} loads each, alternating, from navigation start; ${load}`,
      });
      rows.push({
        figure: `first render ratio ours ÷ bare, ${n} nodes`,
        value: first.ratio.median,
        unit: '×',
        ...(TARGET_SIZES.has(n) ? { target: RATIO_TARGET } : {}),
        better: 'lower',
        note: `median of ${RUNS} side-by-side ratios, IQR ${first.ratio.p25.toFixed(2)}–${first.ratio.p75.toFixed(2)}`,
      });
    }

    for (const n of FRAME_SIZES) {
      const loadFrom = loadNow();
      const frames = await measureFrames(browser, server.url, n);
      const load = formatLoad(loadFrom, loadNow());
      for (const [what, key, p95] of [
        ['panning', 'pan', 'panP95'],
        ['dragging a node', 'drag', 'dragP95'],
      ] as const) {
        const ours = frames.ours[key];
        const bare = frames.bare[key];
        process.stderr.write(
          `  ${what} ${n}: median ours ${formatSpread(ours, 1, ' ms')}; bare ${formatSpread(bare, 1, ' ms')}; p95 ours ${formatSpread(frames.ours[p95], 1, ' ms')}; bare ${formatSpread(frames.bare[p95], 1, ' ms')}; p95 ratio ${formatSpread(frames.ratio[p95], 2)}; ${load}\n`,
        );
        rows.push({
          figure: `p95 frame ${what}, ${n} nodes (ours)`,
          value: frames.ours[p95].median,
          unit: 'ms',
          better: 'lower',
          note: `median over rounds, IQR ${frames.ours[p95].p25.toFixed(1)}–${frames.ours[p95].p75.toFixed(1)}; bare ${frames.bare[p95].median.toFixed(1)} ms, IQR ${frames.bare[p95].p25.toFixed(1)}–${frames.bare[p95].p75.toFixed(1)}; median frame ours ${ours.median.toFixed(1)}, bare ${bare.median.toFixed(1)} ms; ${FRAME_ROUNDS} rounds of ${FRAME_STEPS} pointer moves each, alternating; ${load}`,
        });
        rows.push({
          figure: `p95 frame ratio ours ÷ bare, ${what}, ${n} nodes`,
          value: frames.ratio[p95].median,
          unit: '×',
          ...(TARGET_SIZES.has(n) ? { target: RATIO_TARGET } : {}),
          better: 'lower',
          note: `median of ${FRAME_ROUNDS} side-by-side ratios, IQR ${frames.ratio[p95].p25.toFixed(2)}–${frames.ratio[p95].p75.toFixed(2)}; median-frame ratio ${frames.ratio[key].median.toFixed(2)}`,
        });
      }
    }
    return rows;
  } finally {
    await browser.close();
    server.stop();
  }
}

// Run alone: print the rows as a small table.
runWhenCalledDirectly(import.meta.url, run);
