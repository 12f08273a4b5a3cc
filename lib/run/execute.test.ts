import { describe, expect, it } from 'vitest';
import { err, ok, type Result } from '../result';
import { buildExport, tool } from './__fixtures__/exports';
import { executeRun, type RunPort, type ToolCall } from './execute';
import { planRun } from './preflight';
import type { NodeRunRecord, RunError, RunLimits, ToolCallResult } from './types';

const LIMITS: RunLimits = {
  concurrency: 4,
  nodeTimeoutMs: 1_000,
  serverStartTimeoutMs: 1_000,
  runTimeoutMs: 5_000,
  maxResultBytes: 10_000,
};
const text = (t: string): ToolCallResult => ({ content: [{ type: 'text', text: t }], isError: false });
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * A port answering with `answer(call)` after `delay` ms, recording every call in order; its
 * server takes `startMs` to start, once.
 */
function fakePort(
  answer: (call: ToolCall) => Result<ToolCallResult, RunError> = (c) => ok(text(`${c.tool} done`)),
  delay: (call: ToolCall) => number = () => 5,
  startMs = 0,
) {
  const calls: ToolCall[] = [];
  let running = 0;
  let peak = 0;
  let starting: Promise<void> | undefined;
  const port: RunPort = {
    async startServer(_server, { signal }) {
      starting ??= sleep(startMs);
      await Promise.race([starting, sleep(60_000, signal)]);
      return signal.aborted ? err({ code: 'stopped', message: 'aborted' }) : ok(undefined);
    },
    async callTool(call) {
      calls.push(call);
      running++;
      peak = Math.max(peak, running);
      await sleep(delay(call), call.signal);
      running--;
      if (call.signal.aborted) return err({ code: 'stopped', message: 'aborted' });
      return answer(call);
    },
  };
  return { port, calls, peak: () => peak };
}

const tools = [
  tool('make', { name: { type: 'string' } }, { readOnly: false }),
  tool('read', { path: { type: 'string' } }, { readOnly: true }),
  tool('count', { n: { type: 'integer' } }, { readOnly: true }),
];

function statusesOf(nodes: NodeRunRecord[]) {
  return Object.fromEntries(nodes.map((n) => [n.nodeId, n.status]));
}

describe('executeRun', () => {
  it('passes an upstream result along an edge and records exactly what was sent', async () => {
    const file = buildExport(
      {
        steps: [
          { id: 'a', tool: 'make', args: { name: 'x' } },
          { id: 'b', tool: 'read', args: { path: '{{a.result}}' } },
        ],
      },
      tools,
    );
    const { port, calls } = fakePort((c) => ok(text(c.tool === 'make' ? '/data/x' : 'content')));
    const seen: string[] = [];
    const outcome = await executeRun(file, planRun(file), port, {
      limits: LIMITS,
      onNode: (r) => void seen.push(`${r.nodeId}:${r.status}`),
    });
    expect(outcome.status).toBe('succeeded');
    expect(calls.map((c) => [c.tool, c.args])).toEqual([
      ['make', { name: 'x' }],
      ['read', { path: '/data/x' }],
    ]);
    expect(outcome.nodes[1].arguments).toEqual({ path: '/data/x' });
    expect(outcome.nodes[1].result).toEqual(text('content'));
    expect(outcome.nodes.every((n) => typeof n.durationMs === 'number')).toBe(true);
    expect(seen.filter((s) => s.startsWith('a:'))).toEqual([
      'a:queued',
      'a:running',
      'a:running',
      'a:succeeded',
    ]);
  });

  it('runs independent read-only branches in parallel, bounded by the concurrency', async () => {
    const steps = Array.from({ length: 8 }, (_, i) => ({
      id: `r${i}`,
      tool: 'read',
      args: { path: `p${i}` },
    }));
    const file = buildExport({ steps }, tools);
    const fake = fakePort(undefined, () => 20);
    const outcome = await executeRun(file, planRun(file), fake.port, {
      limits: { ...LIMITS, concurrency: 3 },
    });
    expect(outcome.status).toBe('succeeded');
    expect(fake.peak()).toBe(3);
  });

  it('fails a node whose tool reports isError, skips its dependants and goes on with the rest', async () => {
    const file = buildExport(
      {
        steps: [
          { id: 'a', tool: 'read', args: { path: 'bad' } },
          { id: 'b', tool: 'read', args: { path: '{{a.result}}' } },
          { id: 'c', tool: 'read', args: { path: '{{b.result}}' } },
          { id: 'd', tool: 'read', args: { path: 'fine' } },
        ],
      },
      tools,
    );
    const { port, calls } = fakePort((c) =>
      c.args.path === 'bad'
        ? ok({ content: [{ type: 'text', text: 'no such file' }], isError: true })
        : ok(text('ok')),
    );
    const outcome = await executeRun(file, planRun(file), port, { limits: LIMITS });
    expect(statusesOf(outcome.nodes)).toEqual({ a: 'failed', b: 'skipped', c: 'skipped', d: 'succeeded' });
    // The tool's own words are the headline; the code is for the details line.
    expect(outcome.nodes[0].error).toEqual({ code: 'tool_error', message: 'no such file.' });
    expect(outcome.nodes[1].error?.message).toBe('Not called: step 1 (read), which feeds it, failed.');
    expect(outcome.nodes[2].error?.message).toBe(
      'Not called: step 2 (read), which feeds it, was not called either.',
    );
    expect(outcome.error?.message).toBe('1 step failed, 2 skipped. Step 1 (read): no such file.');
    expect(calls.map((c) => c.args.path)).toEqual(['bad', 'fine']);
    expect(outcome.status).toBe('failed');
  });

  it('does not call a node whose arguments fail the schema, and says which value', async () => {
    const file = buildExport({ steps: [{ id: 'a', tool: 'count', args: { n: 'many' } }] }, tools);
    const { port, calls } = fakePort();
    const outcome = await executeRun(file, planRun(file), port, { limits: LIMITS });
    expect(calls).toEqual([]);
    expect(outcome.nodes[0]).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_arguments', path: '/n' },
    });
    expect(outcome.nodes[0].error?.message).toContain('"n" (value "many") must be integer');
  });

  it('fails a node that outlasts its timeout and keeps going', async () => {
    const file = buildExport(
      {
        steps: [
          { id: 'slow', tool: 'read', args: { path: 's' } },
          { id: 'fast', tool: 'read', args: { path: 'f' } },
        ],
      },
      tools,
    );
    const { port } = fakePort(undefined, (c) => (c.args.path === 's' ? 10_000 : 5));
    const outcome = await executeRun(file, planRun(file), port, { limits: { ...LIMITS, nodeTimeoutMs: 50 } });
    expect(statusesOf(outcome.nodes)).toEqual({ slow: 'failed', fast: 'succeeded' });
    expect(outcome.nodes[0].error?.code).toBe('timeout');
  });

  it("gives a server's start-up its own limit: the step's limit counts only the call", async () => {
    const file = buildExport(
      {
        steps: [
          { id: 'a', tool: 'read', args: { path: 'a' } },
          { id: 'b', tool: 'read', args: { path: 'b' } },
        ],
      },
      tools,
    );
    // The server takes 150 ms to start and each call 30 ms: both steps fit a 100 ms step limit.
    const { port } = fakePort(undefined, () => 30, 150);
    const outcome = await executeRun(file, planRun(file), port, {
      limits: { ...LIMITS, nodeTimeoutMs: 100, serverStartTimeoutMs: 1_000 },
    });
    expect(statusesOf(outcome.nodes)).toEqual({ a: 'succeeded', b: 'succeeded' });
  });

  it('fails a step whose server does not start within the start-up limit, without calling it', async () => {
    const file = buildExport({ steps: [{ id: 'a', tool: 'read', args: { path: 'a' } }] }, tools);
    const { port, calls } = fakePort(undefined, () => 5, 10_000);
    const outcome = await executeRun(file, planRun(file), port, {
      limits: { ...LIMITS, serverStartTimeoutMs: 50 },
    });
    expect(calls).toEqual([]);
    expect(outcome.nodes[0]).toMatchObject({ status: 'failed', error: { code: 'server_start_timeout' } });
    expect(outcome.nodes[0].error?.message).toContain('did not start within 50 ms');
  });

  it('cancels: running calls stop, nodes not started are cancelled, nothing is left running', async () => {
    const steps = ['a', 'b', 'c'].map((id) => ({ id, tool: 'make', args: { name: id } }));
    const file = buildExport({ steps }, tools);
    const controller = new AbortController();
    const { port, calls } = fakePort(undefined, () => 10_000);
    setTimeout(() => controller.abort(), 30);
    const outcome = await executeRun(file, planRun(file), port, {
      limits: LIMITS,
      signal: controller.signal,
    });
    expect(outcome.status).toBe('cancelled');
    expect(calls).toHaveLength(1);
    expect(statusesOf(outcome.nodes)).toEqual({ a: 'cancelled', b: 'cancelled', c: 'cancelled' });
  });

  it('stops at the run time limit', async () => {
    const steps = ['a', 'b'].map((id) => ({ id, tool: 'make', args: { name: id } }));
    const file = buildExport({ steps }, tools);
    const { port } = fakePort(undefined, () => 10_000);
    const outcome = await executeRun(file, planRun(file), port, {
      limits: { ...LIMITS, nodeTimeoutMs: 60_000, runTimeoutMs: 40 },
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.error?.code).toBe('run_time_limit');
    expect(statusesOf(outcome.nodes)).toEqual({ a: 'failed', b: 'cancelled' });
  });

  it('caps a large result in storage, marks the node, and still passes the whole value on', async () => {
    const big = 'x'.repeat(50_000);
    const file = buildExport(
      {
        steps: [
          { id: 'a', tool: 'make', args: { name: 'x' } },
          { id: 'b', tool: 'read', args: { path: '{{a.result}}' } },
        ],
      },
      tools,
    );
    const { port, calls } = fakePort((c) => ok(text(c.tool === 'make' ? big : 'ok')));
    const outcome = await executeRun(file, planRun(file), port, {
      limits: { ...LIMITS, maxResultBytes: 1_000 },
    });
    expect(calls[1].args.path).toHaveLength(50_000);
    const stored = outcome.nodes[0];
    expect(JSON.stringify(stored.result).length).toBeLessThanOrEqual(1_000);
    expect(stored.result?.isError).toBe(false);
    expect(stored.truncated).toEqual(['result/content/0/text: 50,002 bytes cut to 947']);
    expect(outcome.nodes[1].truncated?.[0]).toMatch(/^arguments\/path: 50,002 bytes cut to/);
  });

  it('marks nodes that cannot run as failed without calling them', async () => {
    const fileTool = tool('local', { q: { type: 'string' } }, { kind: 'file' });
    const file = buildExport(
      {
        steps: [
          { id: 'a', tool: 'local', args: { q: 'x' } },
          { id: 'b', tool: 'read', args: { path: '{{a.result}}' } },
        ],
      },
      [...tools, fileTool],
    );
    const { port, calls } = fakePort();
    const outcome = await executeRun(file, planRun(file), port, { limits: LIMITS });
    expect(calls).toEqual([]);
    expect(outcome.nodes.map((n) => [n.status, n.error?.code])).toEqual([
      ['failed', 'no_server'],
      ['skipped', 'upstream_failed'],
    ]);
  });

  it('reports a dead server as the node failure the port gives', async () => {
    const file = buildExport({ steps: [{ id: 'a', tool: 'read', args: { path: 'p' } }] }, tools);
    const { port } = fakePort(() => err({ code: 'server_exited', message: 'MCP server test exited' }));
    const outcome = await executeRun(file, planRun(file), port, { limits: LIMITS });
    expect(outcome.nodes[0]).toMatchObject({ status: 'failed', error: { code: 'server_exited' } });
  });
});
