/**
 * The schema-pattern scenario (`npm run load -- --scenario patterns`): CLIENTS owners send
 * workflows whose own tools carry patterns that take a backtracking engine exponential time
 * (`^(a+)+$` against 25–40 `a`s and a `!`, and the like), and read them back every way the server
 * re-checks values (export, preflight, the share link's export, the editor page, a plan), while a
 * separate connection asks `/api/health` ten times a second. Pattern checks are linear (RE2,
 * lib/tools/linear-pattern.ts), so health stays fast: the run fails when its p99 reaches
 * HEALTH_LIMIT_MS. A first phase sends the same requests with a harmless pattern, so the two
 * health figures compare side by side in one sitting; a short unmeasured warm-up before it lets a
 * fresh server compile its routes first.
 */
import { hashDeclaration } from '../../lib/tools/canonical-json';
import { CATASTROPHIC_PATTERNS } from '../../tests/fixtures/catastrophic-patterns';
import type { ToolDeclaration } from '../../lib/tools/types';
import { createHttpClient, type HttpReply } from './http';
import { createRandom, type Random } from './random';
import { percentile } from './stats';

const HARMLESS_PATTERN = '^[a-z!]+$';
/** What health must stay under, at the 99th percentile. */
export const HEALTH_LIMIT_MS = 50;
const HEALTH_INTERVAL_MS = 100;
const WARM_UP_SECONDS = 5;
/** Creates and plans per client per minute: under the server's limits (120 and 30). */
const CREATES_PER_MINUTE = 60;
const PLANS_PER_MINUTE = 20;

const OPERATIONS = ['create', 'export', 'preflight', 'share-export', 'editor', 'plan'] as const;
type PatternOperation = (typeof OPERATIONS)[number];

export interface PatternScenarioOptions {
  baseUrl: string;
  clients: number;
  /** Seconds of each phase (harmless, then catastrophic). */
  seconds: number;
  /** Pause after each request of a client, in ms. */
  thinkMs: number;
  timeoutMs: number;
  seed: number;
}

interface Figures {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export interface PhaseReport {
  patterns: 'harmless' | 'catastrophic';
  requests: Record<PatternOperation, Figures & { errors: Record<string, number> }>;
  health: Figures & { errors: number };
}

export interface PatternScenarioReport {
  command: string;
  clients: number;
  seconds: number;
  thinkMs: number;
  phases: PhaseReport[];
  passed: boolean;
  failures: string[];
}

function summarize(latencies: number[]): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** A document whose tool puts `pattern` on a parameter, in a list and on property names. */
export function buildPatternDocument(random: Random, pattern: string) {
  const declaration: ToolDeclaration = {
    name: 'check',
    description: 'Checks a code.',
    inputSchema: {
      type: 'object',
      properties: {
        code: { type: 'string', pattern },
        codes: { type: 'array', items: { type: 'string', pattern } },
        env: { type: 'object', patternProperties: { [pattern]: { type: 'string' } } },
      },
      required: ['code'],
    },
  };
  const value = () =>
    random.pick(['a', 'ab', 'a1', 'a ']).repeat(random.between(25, 40)) + random.pick(['!', '', '@']);
  const nodes = Array.from({ length: 3 }, (_, i) => ({
    id: `step_${i + 1}`,
    tool: 'check',
    position: { x: i * 400, y: 0 },
    args: { code: value(), codes: [value(), value(), value()], env: { [value()]: 'x' } },
  }));
  return {
    task: `Check the code "${value()}"`,
    nodes,
    edges: [],
    tools: { check: { declaration, hash: hashDeclaration(declaration) } },
  };
}

/**
 * Runs the two phases against a server already up at `opts.baseUrl` and reports each phase's
 * request and health figures. Bounded: each phase stops at its deadline.
 */
export async function runPatternScenario(
  opts: PatternScenarioOptions,
  log: (line: string) => void,
): Promise<Omit<PatternScenarioReport, 'command'>> {
  log(`load: warming the server up for ${WARM_UP_SECONDS} s…`);
  await runPhase({ ...opts, seconds: WARM_UP_SECONDS }, 'harmless');
  const phases: PhaseReport[] = [];
  for (const patterns of ['harmless', 'catastrophic'] as const) {
    log(`load: ${opts.clients} clients, ${opts.seconds} s with ${patterns} patterns…`);
    phases.push(await runPhase(opts, patterns));
  }
  const failures: string[] = [];
  for (const phase of phases) {
    if (!(phase.health.p99 < HEALTH_LIMIT_MS))
      failures.push(
        `${phase.patterns}: /api/health p99 ${phase.health.p99.toFixed(1)} ms ≥ ${HEALTH_LIMIT_MS} ms`,
      );
    if (phase.health.errors > 0)
      failures.push(`${phase.patterns}: ${phase.health.errors} health requests failed`);
    for (const [operation, figures] of Object.entries(phase.requests)) {
      const errors = Object.values(figures.errors).reduce((a, b) => a + b, 0);
      if (errors > 0) failures.push(`${phase.patterns}: ${errors} failed ${operation} requests`);
    }
  }
  return {
    clients: opts.clients,
    seconds: opts.seconds,
    thinkMs: opts.thinkMs,
    phases,
    passed: failures.length === 0,
    failures,
  };
}

async function runPhase(
  opts: PatternScenarioOptions,
  patterns: PhaseReport['patterns'],
): Promise<PhaseReport> {
  const http = createHttpClient(opts.baseUrl, opts.clients);
  const healthHttp = createHttpClient(opts.baseUrl, 1);
  const latencies = new Map<PatternOperation, number[]>(OPERATIONS.map((o) => [o, []]));
  const errors = new Map<PatternOperation, Record<string, number>>(OPERATIONS.map((o) => [o, {}]));
  const origin = { origin: opts.baseUrl, 'content-type': 'application/json' };
  const send = async (
    operation: PatternOperation,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ): Promise<HttpReply | undefined> => {
    const started = performance.now();
    try {
      const reply = await http.send(
        method,
        path,
        headers,
        body === undefined ? undefined : JSON.stringify(body),
        opts.timeoutMs,
      );
      latencies.get(operation)!.push(performance.now() - started);
      if (reply.status >= 400) {
        const outcome = errors.get(operation)!;
        outcome[reply.status] = (outcome[reply.status] ?? 0) + 1;
      }
      return reply;
    } catch (error) {
      const outcome = errors.get(operation)!;
      const kind = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
      outcome[kind] = (outcome[kind] ?? 0) + 1;
      return undefined;
    }
  };

  const deadline = performance.now() + opts.seconds * 1000;
  const client = async (index: number) => {
    const random = createRandom(opts.seed * 1000 + index + (patterns === 'harmless' ? 0 : 500));
    const pattern = () => (patterns === 'harmless' ? HARMLESS_PATTERN : random.pick(CATASTROPHIC_PATTERNS));
    // One owner per client: its cookie, one workflow, and a share link to it.
    const first = await http.send('GET', '/api/workflows', {}, undefined, opts.timeoutMs);
    const cookie = String(first.headers['set-cookie'] ?? '').split(';')[0];
    const headers = { ...origin, cookie };
    const create = async () => {
      const reply = await send('create', 'POST', '/api/workflows', headers, {
        name: 'Patterns',
        document: buildPatternDocument(random, pattern()),
      });
      return reply?.status === 201
        ? (JSON.parse(reply.text) as { workflow: { id: string } }).workflow.id
        : undefined;
    };
    const id = await create();
    if (id === undefined) return;
    const shared = await http.send('POST', `/api/workflows/${id}/shares`, headers, '{}', opts.timeoutMs);
    const token = shared.status === 201 ? (JSON.parse(shared.text) as { token: string }).token : undefined;
    let lastCreate = performance.now();
    let lastPlan = 0;
    while (performance.now() < deadline) {
      const now = performance.now();
      const operation = random.pick(OPERATIONS);
      if (operation === 'create') {
        if (now - lastCreate < 60_000 / CREATES_PER_MINUTE) continue;
        lastCreate = now;
        await create();
      } else if (operation === 'export') await send(operation, 'GET', `/api/workflows/${id}/export`, headers);
      else if (operation === 'preflight')
        await send(operation, 'GET', `/api/workflows/${id}/runs/preflight`, headers);
      else if (operation === 'share-export' && token !== undefined)
        await send(operation, 'GET', `/api/shares/${token}/export`, {});
      else if (operation === 'editor') await send(operation, 'GET', `/w/${id}`, { cookie });
      else if (operation === 'plan') {
        if (now - lastPlan < 60_000 / PLANS_PER_MINUTE) continue;
        lastPlan = now;
        const document = buildPatternDocument(random, pattern());
        await send(operation, 'POST', '/api/plan', headers, {
          task: document.task,
          llm: 'offline',
          tools: [document.tools.check.declaration],
        });
      }
      if (opts.thinkMs > 0) await new Promise((resolve) => setTimeout(resolve, opts.thinkMs));
    }
  };

  const health: number[] = [];
  let healthErrors = 0;
  const poll = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      try {
        const reply = await healthHttp.send('GET', '/api/health', {}, undefined, opts.timeoutMs);
        health.push(performance.now() - started);
        if (reply.status !== 200) healthErrors++;
      } catch {
        healthErrors++;
      }
      await new Promise((resolve) => setTimeout(resolve, HEALTH_INTERVAL_MS));
    }
  };
  await Promise.all([poll(), ...Array.from({ length: opts.clients }, (_, i) => client(i))]);
  http.close();
  healthHttp.close();
  const requests = Object.fromEntries(
    OPERATIONS.map((o) => [o, { ...summarize(latencies.get(o)!), errors: errors.get(o)! }]),
  ) as PhaseReport['requests'];
  return { patterns, requests, health: { ...summarize(health), errors: healthErrors } };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : '–');

/** The report as the terminal shows it. */
export function formatPatternReport(report: PatternScenarioReport): string {
  const lines = [
    `Schema-pattern scenario: ${report.command}`,
    `${report.clients} clients, ${report.seconds} s per phase, ${report.thinkMs} ms between a client's requests; /api/health every ${HEALTH_INTERVAL_MS} ms on its own connection.`,
  ];
  for (const phase of report.phases) {
    const h = phase.health;
    lines.push(
      '',
      `${phase.patterns} patterns — /api/health: ${h.count} requests, p50 ${ms(h.p50)}, p95 ${ms(h.p95)}, p99 ${ms(h.p99)}, max ${ms(h.max)}${h.errors ? `, ${h.errors} failed` : ''}`,
    );
    for (const [operation, f] of Object.entries(phase.requests)) {
      const failed = Object.entries(f.errors).map(([status, n]) => `${n} × ${status}`);
      lines.push(
        `  ${operation.padEnd(13)} ${String(f.count).padStart(5)} requests, p50 ${ms(f.p50)}, p95 ${ms(f.p95)}, max ${ms(f.max)}${failed.length ? `, failed: ${failed.join(', ')}` : ''}`,
      );
    }
  }
  lines.push('', report.passed ? 'PASSED' : `FAILED: ${report.failures.join('; ')}`, '');
  return lines.join('\n');
}
