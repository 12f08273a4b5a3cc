import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startChangingHttpServer } from '../../lib/mcp/__fixtures__/http-server';
import { FAKE_SERVER } from '../../lib/mcp/__fixtures__/servers';
import { runCli } from '../cli';
import type { CliIo } from '../io';

function createIo() {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    readFile: async () => {
      throw Object.assign(new Error('no files here'), { code: 'ENOENT' });
    },
  };
  return { io, out };
}

const quote = (s: string) => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
const fakeCommand = (mode: string) => `${quote(process.execPath)} ${quote(FAKE_SERVER)} ${mode}`;

describe('toolflow tools --mcp-stdio', () => {
  it('prints every page of the server’s tools in the requested format', async () => {
    const { io, out } = createIo();
    const code = await runCli(['tools', '--mcp-stdio', fakeCommand('paginate'), '--to', 'openai-chat'], io);
    expect(out.stderr).toBe('');
    expect(code).toBe(0);
    const tools = JSON.parse(out.stdout) as { type: string; function: { name: string } }[];
    expect(tools.map((t) => [t.type, t.function.name])).toEqual([
      ['function', 'alpha'],
      ['function', 'beta'],
      ['function', 'gamma'],
      ['function', 'delta'],
      ['function', 'epsilon'],
    ]);
  });

  it('exits 1 saying which server and step failed', async () => {
    const { io, out } = createIo();
    expect(await runCli(['tools', '--mcp-stdio', fakeCommand('crash'), '--to', 'mcp'], io)).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/connect failed: .*exited before answering "initialize".*cannot open/);
  });

  it('prints each problem of a malformed list with its path', async () => {
    const { io, out } = createIo();
    expect(await runCli(['tools', '--mcp-stdio', fakeCommand('malformed'), '--to', 'mcp'], io)).toBe(1);
    expect(out.stderr).toContain('/tools/1/name');
    expect(out.stderr).toContain('/tools/2/inputSchema');
  });

  it('refuses two sources at once and a bad timeout as usage errors', async () => {
    const both = createIo();
    expect(await runCli(['tools', '--in', 'x.json', '--mcp-stdio', 'node', '--to', 'mcp'], both.io)).toBe(2);
    expect(both.out.stderr).toContain('give only one of --in, --mcp-stdio');
    const timeout = createIo();
    expect(
      await runCli(['tools', '--mcp-stdio', 'node', '--timeout', 'soon', '--to', 'mcp'], timeout.io),
    ).toBe(2);
    expect(timeout.out.stderr).toContain('--timeout must be a positive number');
  });
});

describe('npm run toolflow -- tools --mcp-stdio', () => {
  it('runs as a real process, where lib/mcp is server-only code', async () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bin/toolflow.mjs', 'tools', '--mcp-stdio', fakeCommand('paginate'), '--to', 'gemini'],
      { cwd: root },
    );
    const gemini = JSON.parse(stdout) as { functionDeclarations: { name: string }[] };
    expect(gemini.functionDeclarations.map((d) => d.name)).toEqual([
      'alpha',
      'beta',
      'gamma',
      'delta',
      'epsilon',
    ]);
  });
});

describe('toolflow tools --mcp-url', () => {
  it('reads a Streamable HTTP server on this machine', async () => {
    const server = await startChangingHttpServer([
      {
        name: 'lookup',
        description: 'Look up a word',
        inputSchema: { type: 'object', properties: { word: { type: 'string' } } },
      },
    ]);
    try {
      const { io, out } = createIo();
      expect(await runCli(['tools', '--mcp-url', server.url, '--to', 'anthropic'], io)).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual([
        {
          name: 'lookup',
          description: 'Look up a word',
          input_schema: { type: 'object', properties: { word: { type: 'string' } } },
        },
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('toolflow tools --mcp-server', () => {
  it('names the configured servers when the name is unknown', async () => {
    const previous = process.env.TOOLFLOW_MCP_SERVERS;
    process.env.TOOLFLOW_MCP_SERVERS = JSON.stringify({
      fake: { command: process.execPath, args: [FAKE_SERVER, 'paginate'] },
    });
    try {
      const unknown = createIo();
      expect(await runCli(['tools', '--mcp-server', 'nope', '--to', 'mcp'], unknown.io)).toBe(1);
      expect(unknown.out.stderr).toContain('configured servers: memory, filesystem, fake');
      const known = createIo();
      expect(await runCli(['tools', '--mcp-server', 'fake', '--to', 'mcp'], known.io)).toBe(0);
      expect(JSON.parse(known.out.stdout).tools).toHaveLength(5);
    } finally {
      if (previous === undefined) delete process.env.TOOLFLOW_MCP_SERVERS;
      else process.env.TOOLFLOW_MCP_SERVERS = previous;
    }
  });
});
