/**
 * First-load JavaScript per route, as a browser meets it: a cold load of each route in a fresh
 * Chromium context (empty cache) against the production build, summing the bytes received
 * (CDP `Network.loadingFinished.encodedDataLength`, gzip as served by `next start`) of every
 * `.js` response until the network is idle. Prefetches of the routes a page links to are refused
 * (they load the next page's code, not this one's). Code loaded on demand later (a dialog opened, a
 * step inspected) is not counted; code a page imports on demand but loads anyway during the
 * first paint is.
 *
 * The budgets are in BUNDLE_BUDGETS_KB below, the one place they are stated: a route over its
 * budget misses its target, so `npm run bench -- bundle` exits 1 (the CI step in `.ci/run`).
 *
 *   npx tsx scripts/bench/bundle.ts        alone (needs `npm run build` first)
 *   npm run bench -- bundle                as a section of the bench table
 *   BENCH_URL=http://127.0.0.1:3000 …      against a server already started with `npm start`
 */
import { chromium, type Browser } from '@playwright/test';
import { generateWorkflow } from '../../lib/bench/generate-workflow';
import { CHROMIUM_LAUNCH } from '../chromium';
import { startBenchServer } from './_server';
import { runWhenCalledDirectly } from './_main';
import type { BenchRow } from './types';

export const title = 'bundle';

/**
 * First-load JavaScript budgets, KB (1,000 bytes) of gzip, per route: the one place they are
 * stated. ≤ 160 for `/` and `/toolkits`; ≤ 225 for the editor. Next.js's own scripts (~138) and
 * React Flow with its d3 parts (~57, whole: Turbopack does not drop its unused exports, so leaving
 * out the minimap saves 0.1) take ~196 of the editor's ~221 before any editor code, which is why
 * its edits, autosave, value checks, dialogs and menus load on demand. The editor's budget was 220
 * until the skip link, rename, the runnable marks and the typed-wiring check in the browser took
 * it to 221.2; what is left on first paint is what the first paint shows (docs/design.md §11).
 */
export const BUNDLE_BUDGETS_KB = {
  '/': 160,
  '/toolkits': 160,
  '/w/[id]': 225,
} as const;

type Route = keyof typeof BUNDLE_BUDGETS_KB;

/** Nodes of the workflow opened at /w/[id]: a real-looking graph from a built-in toolkit. */
const WORKFLOW_NODES = 12;

export interface RouteLoad {
  /** Bytes of `.js` received, headers included, as CDP counts them. */
  bytes: number;
  files: { url: string; bytes: number }[];
}

/** Loads `path` in a fresh context and sums what its `.js` responses put on the wire. */
export async function measureRouteJs(browser: Browser, base: string, path: string): Promise<RouteLoad> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    // /w/[id] belongs to the browser that created it: create it with this context's cookies.
    let target = path;
    if (path === '/w/[id]') {
      const created = await page.request.post(`${base}/api/workflows`, {
        data: { name: 'Bundle bench', document: generateWorkflow(WORKFLOW_NODES) },
      });
      if (created.status() !== 201) {
        throw new Error(`POST /api/workflows answered ${created.status()}: ${await created.text()}`);
      }
      target = `/w/${((await created.json()) as { workflow: { id: string } }).workflow.id}`;
    }
    const cdp = await context.newCDPSession(page);
    const urls = new Map<string, string>();
    const files: { url: string; bytes: number }[] = [];
    cdp.on('Network.responseReceived', (e) => {
      const url = new URL(e.response.url);
      if (url.pathname.endsWith('.js')) urls.set(e.requestId, url.pathname);
    });
    cdp.on('Network.loadingFinished', (e) => {
      const url = urls.get(e.requestId);
      if (url !== undefined) files.push({ url, bytes: e.encodedDataLength });
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    // Links prefetch the routes they point to once the page is idle (in production): that is
    // the next page's code, not this one's, so those requests are refused here.
    await page.route('**/*', (route) =>
      route.request().headers()['next-router-prefetch'] ? route.abort() : route.fallback(),
    );
    const response = await page.goto(base + target, { waitUntil: 'networkidle' });
    if (!response?.ok()) throw new Error(`${target} answered ${response?.status()}.`);
    files.sort((a, b) => b.bytes - a.bytes);
    return { bytes: files.reduce((sum, f) => sum + f.bytes, 0), files };
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => bytes / 1000;

export async function run(): Promise<BenchRow[]> {
  const external = process.env.BENCH_URL;
  const server = external
    ? { url: external.replace(/\/$/, ''), stop() {} }
    : await startBenchServer({ name: 'bundle', readyPath: '/api/health', migrate: true });
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const rows: BenchRow[] = [];
    for (const route of Object.keys(BUNDLE_BUDGETS_KB) as Route[]) {
      const load = await measureRouteJs(browser, server.url, route);
      if (process.env.BENCH_VERBOSE) {
        for (const f of load.files)
          process.stderr.write(`  ${route} ${kb(f.bytes).toFixed(1)} KB ${f.url}\n`);
      }
      rows.push({
        figure: `first-load JS ${route}`,
        value: kb(load.bytes),
        unit: 'KB gzip',
        target: BUNDLE_BUDGETS_KB[route],
        better: 'lower',
        note: `${load.files.length} .js files, cold load in a fresh Chromium context until network idle, link prefetches refused`,
      });
    }
    return rows;
  } finally {
    await browser.close();
    server.stop();
  }
}

// Run alone: print the rows.
runWhenCalledDirectly(import.meta.url, run, { digits: 1, failOnMissedTarget: true });
