/**
 * The server commands without a server: usage mistakes, a file that is not an export, and the
 * answers a server (a stand-in fetch here; bin/commands/remote.test.ts has the real app) can give.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryIo } from '../__fixtures__/memory-io';
import { runCli } from '../cli';

const env = { TOOLFLOW_URL: 'http://toolflow.test/', TOOLFLOW_TOKEN: 'tft_x' };

async function cli(argv: string[], files: Record<string, string> = {}, fetch?: typeof globalThis.fetch) {
  const { io, out } = createMemoryIo(files);
  const seen: Request[] = [];
  const code = await runCli(argv, {
    ...io,
    env,
    fetch: async (input, init) => {
      seen.push(new Request(input, init));
      if (!fetch) throw new Error('no request expected');
      return fetch(input, init);
    },
  });
  return { code, seen, ...out };
}

describe('toolflow push and pull without a server', () => {
  it('refuses usage mistakes before any request', async () => {
    for (const argv of [
      ['push', 'a.json'],
      ['push', '--workflow', 'wf_1'],
      ['push', 'a.json', '--workflow', 'wf_1', '--base', '0'],
      ['pull'],
      ['pull', 'wf_1', '--version', 'latest'],
    ]) {
      const result = await cli(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.seen).toEqual([]);
    }
  });

  it('checks the file before sending it: a non-export is listed and never pushed', async () => {
    const result = await cli(['push', 'a.json', '--workflow', 'wf_1'], { 'a.json': '{"nodes": 3}' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a.json is not a workflow export Toolflow can read; nothing was pushed.');
    expect(result.seen).toEqual([]);
  });

  it('sends the token as a bearer header to the address without its trailing slash', async () => {
    const result = await cli(['pull', 'wf_1', '--version', '3'], {}, async () =>
      Response.json({ nodes: [] }, { headers: { 'x-toolflow-version': '3' } }),
    );
    expect(result.code).toBe(0);
    expect(result.seen.map((r) => [r.url, r.headers.get('authorization')])).toEqual([
      ['http://toolflow.test/api/workflows/wf_1/export?version=3', 'Bearer tft_x'],
    ]);
    expect(result.stdout).toBe('{"nodes":[]}');
  });

  it('says when to retry after a 429, and where a redirect went', async () => {
    const limited = await cli(['pull', 'wf_1'], {}, async () =>
      Response.json(
        { code: 'rate_limited', message: 'Too many requests.' },
        { status: 429, headers: { 'retry-after': '7' } },
      ),
    );
    expect(limited.stderr).toBe(
      'toolflow: too many requests (429). The server said: Too many requests. Retry after 7 s.\n',
    );
    const moved = await cli(
      ['pull', 'wf_1'],
      {},
      async () =>
        new Response(null, {
          status: 308,
          headers: { location: 'https://toolflow.test/api/workflows/wf_1/export' },
        }),
    );
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain('redirect (308) to https://toolflow.test/');
  });

  it('refuses an address that is not http or https', async () => {
    const { io, out } = createMemoryIo({});
    expect(await runCli(['pull', 'wf_1'], { ...io, env: { ...env, TOOLFLOW_URL: 'ftp://x' } })).toBe(1);
    expect(out.stderr).toBe('toolflow: TOOLFLOW_URL "ftp://x" is not an http:// or https:// address.\n');
  });
});
