/**
 * `toolflow run FILE` against the real memory server and the test-run fault server: one line per
 * step as it finishes, a summary, exit 0 only when every step succeeded.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runServerConfig } from '../../lib/mcp/__fixtures__/servers';
import { buildExport } from '../../lib/run/__fixtures__/exports';
import { BUILTIN_TOOLKITS } from '../../lib/toolkits/builtin';
import { runCli } from '../cli';
import { createMemoryIo } from '../__fixtures__/memory-io';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const memoryTools = BUILTIN_TOOLKITS.find((k) => k.key === 'memory')!.tools;

const memoryExport = () =>
  JSON.stringify(
    buildExport(
      {
        steps: [
          {
            id: 'create',
            tool: 'create_entities',
            args: { entities: [{ name: 'Alice', entityType: 'person', observations: [] }] },
          },
          { id: 'read', tool: 'read_graph', args: {} },
        ],
      },
      memoryTools,
    ),
    null,
    2,
  );

afterEach(() => vi.unstubAllEnvs());

describe('toolflow run', () => {
  it('runs an export on the runnable sample, printing each step as it finishes', async () => {
    vi.stubEnv('TOOLFLOW_DATA_DIR', mkdtempSync(path.join(tmpdir(), 'toolflow-cli-run-')));
    const { io, out } = createMemoryIo({ 'wf.json': memoryExport() });
    expect(await runCli(['run', 'wf.json'], io)).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^toolflow run: wf\.json \(sha256:[0-9a-f]{64}\), 2 steps on memory$/);
    expect(lines[1]).toMatch(
      /^ {2}ok {3}create {2}create_entities \d+ ms {2}\{"entities":\[\{"name":"Alice"/,
    );
    expect(lines[2]).toMatch(/^ {2}ok {3}read {4}read_graph \d+ ms {2}\{"entities":/);
    expect(lines[3]).toBe('toolflow run: succeeded: 2 succeeded, 0 failed, 0 skipped');
  });

  it('exits 1 when a step fails, and skips what it feeds', async () => {
    vi.stubEnv('TOOLFLOW_MCP_SERVERS', runServerConfig('faulty'));
    vi.stubEnv('TOOLFLOW_SAMPLE_SERVERS', '0');
    const tools = ['echo', 'exit'].map((name) => ({
      name,
      description: name,
      inputSchema: { type: 'object', properties: name === 'echo' ? { text: { type: 'string' } } : {} },
      source: { kind: 'mcp-stdio' as const, server: 'faulty' },
    }));
    const file = buildExport(
      {
        steps: [
          { id: 'crash', tool: 'exit', args: {} },
          { id: 'after', tool: 'echo', args: { text: '{{crash.result}}' } },
        ],
      },
      tools,
    );
    const { io, out } = createMemoryIo({ 'wf.json': JSON.stringify(file) });
    expect(await runCli(['run', 'wf.json', '--json'], io)).toBe(1);
    expect(out.stderr).toMatch(/FAIL crash +exit \d+ ms +The server stopped during the call/);
    // What the client said follows on its own line, with the code.
    expect(out.stderr).toMatch(/\n +server_exited: MCP server faulty: call failed/);
    expect(out.stderr).toMatch(/skip after +echo {2}Not called: step 1 \(exit\), which feeds it, failed\./);
    const outcome = JSON.parse(out.stdout);
    expect(outcome.status).toBe('failed');
    expect(outcome.nodes.map((n: { status: string }) => n.status)).toEqual(['failed', 'skipped']);
  });

  it('calls every tool on --mcp-server NAME, for a file whose tools have no server', async () => {
    vi.stubEnv('TOOLFLOW_DATA_DIR', mkdtempSync(path.join(tmpdir(), 'toolflow-cli-run-')));
    const fromFile = memoryTools.map((t) => ({ ...t, source: { kind: 'file' as const, toolkit: 'mine' } }));
    const file = JSON.stringify(
      buildExport({ steps: [{ id: 'read', tool: 'read_graph', args: {} }] }, fromFile),
    );
    const plain = createMemoryIo({ 'wf.json': file });
    expect(await runCli(['run', 'wf.json'], plain.io)).toBe(1);
    expect(plain.out.stdout).toContain('comes from a declarations file (toolkit "mine")');
    const overridden = createMemoryIo({ 'wf.json': file });
    expect(await runCli(['run', 'wf.json', '--mcp-server', 'memory'], overridden.io)).toBe(0);
  });

  it('refuses an invalid file with its problems, and bad options with the usage', async () => {
    const { io, out } = createMemoryIo({ 'bad.json': '{"format":"toolflow.workflow","version":1}' });
    expect(await runCli(['run', 'bad.json'], io)).toBe(1);
    expect(out.stderr).toContain('bad.json /');
    expect(await runCli(['run'], createMemoryIo({}).io)).toBe(2);
    expect(await runCli(['run', 'x.json', '--timeout', 'soon'], createMemoryIo({}).io)).toBe(2);
    expect(
      await runCli(['run', 'x.json', '--mcp-server', 'a', '--mcp-url', 'b'], createMemoryIo({}).io),
    ).toBe(2);
  });

  it('works as the installed bin', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'toolflow-cli-bin-'));
    writeFileSync(path.join(dir, 'wf.json'), memoryExport());
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'bin/toolflow.mjs'), 'run', path.join(dir, 'wf.json')],
      { cwd: ROOT, env: { ...process.env, TOOLFLOW_DATA_DIR: dir } },
    );
    expect(stdout).toContain('toolflow run: succeeded: 2 succeeded');
  });
});
