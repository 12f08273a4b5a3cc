import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMcpTools } from './client';
import {
  getConfiguredStdioTarget,
  getMcpClientOptions,
  getMcpServerConfigs,
  getSampleDataNote,
  splitCommandLine,
} from './config';
import { getSampleSpace, getSampleSpaceDir, LOCAL_SAMPLE_SPACE, SAMPLE_CAPS } from './sample-spaces';
import { FAKE_SERVER, LOCAL_OPTIONS } from './__fixtures__/servers';

function configDir(content: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolflow-config-'));
  writeFileSync(
    path.join(dir, 'toolflow.config.json'),
    typeof content === 'string' ? content : JSON.stringify(content),
  );
  return dir;
}

describe('getMcpServerConfigs', () => {
  it('reads mcpServers from toolflow.config.json', async () => {
    const cwd = configDir({
      mcpServers: {
        memory: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: { MEMORY_FILE_PATH: '/tmp/m.jsonl' },
        },
      },
    });
    expect(await getMcpServerConfigs({ cwd, env: {} })).toEqual({
      ok: true,
      value: {
        memory: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: { MEMORY_FILE_PATH: '/tmp/m.jsonl' },
        },
      },
    });
  });

  it('has no servers when there is no config file', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'toolflow-empty-'));
    expect(await getMcpServerConfigs({ cwd, env: {} })).toEqual({ ok: true, value: {} });
  });

  it('lets TOOLFLOW_MCP_SERVERS replace the file', async () => {
    const cwd = configDir({ mcpServers: { a: { command: 'a' } } });
    const result = await getMcpServerConfigs({
      cwd,
      env: { TOOLFLOW_MCP_SERVERS: '{"b":{"command":"b","args":["--x"]}}' },
    });
    expect(result).toEqual({ ok: true, value: { b: { command: 'b', args: ['--x'] } } });
  });

  it('reports every bad entry with its JSON path and the file', async () => {
    const cwd = configDir({
      mcpServers: { a: { args: 'x' }, b: { command: 'b', env: { N: 1 } }, c: 'node' },
    });
    const result = await getMcpServerConfigs({ cwd, env: {} });
    if (result.ok) throw new Error('expected errors');
    expect(result.error.map((i) => i.path)).toEqual([
      '/mcpServers/a/command',
      '/mcpServers/a/args',
      '/mcpServers/b/env',
      '/mcpServers/c',
    ]);
    expect(result.error[0].message).toContain('toolflow.config.json');
  });

  it('reports JSON syntax errors in the environment variable by name', async () => {
    const result = await getMcpServerConfigs({ env: { TOOLFLOW_MCP_SERVERS: '{nope' } });
    expect(result).toMatchObject({ ok: false, error: [{ code: 'bad_json' }] });
    if (!result.ok) expect(result.error[0].message).toContain('TOOLFLOW_MCP_SERVERS');
  });
});

describe('getConfiguredStdioTarget', () => {
  it('gives the configured command for a name, and that server can be listed', async () => {
    const env = {
      TOOLFLOW_MCP_SERVERS: JSON.stringify({
        fake: { command: process.execPath, args: [FAKE_SERVER, 'paginate'] },
      }),
    };
    const target = await getConfiguredStdioTarget('fake', { env });
    if (!target.ok) throw new Error(target.error[0].message);
    expect(target.value).toEqual({
      kind: 'stdio',
      name: 'fake',
      command: process.execPath,
      args: [FAKE_SERVER, 'paginate'],
    });
    const list = await listMcpTools(target.value, LOCAL_OPTIONS);
    expect(list.ok && list.value.tools.length).toBe(5);
  });

  it('names the configured servers when the name is unknown', async () => {
    const env = {
      TOOLFLOW_MCP_SERVERS: '{"memory":{"command":"x"},"git":{"command":"y"}}',
      TOOLFLOW_SAMPLE_SERVERS: '0',
    };
    const result = await getConfiguredStdioTarget('filesystem', { env });
    expect(result).toMatchObject({ ok: false, error: [{ path: '/mcpServer', code: 'unknown_mcp_server' }] });
    if (!result.ok) expect(result.error[0].message).toContain('memory, git');
  });

  it('does not treat inherited object keys as server names', async () => {
    expect(
      await getConfiguredStdioTarget('constructor', { env: { TOOLFLOW_MCP_SERVERS: '{}' } }),
    ).toMatchObject({ ok: false });
  });
});

describe('sample servers', () => {
  const dataDir = () => mkdtempSync(path.join(tmpdir(), 'toolflow-data-'));

  it("configures the memory and filesystem servers from node_modules, each in the space's own folder", async () => {
    const data = dataDir();
    const space = getSampleSpace('own_alice');
    const configs = await getMcpServerConfigs({ env: { TOOLFLOW_DATA_DIR: data }, space });
    expect(configs.ok && Object.keys(configs.value)).toEqual(['memory', 'filesystem']);
    if (!configs.ok) return;
    const home = getSampleSpaceDir(data, space);
    expect(path.dirname(home)).toBe(path.join(data, 'samples'));
    expect(configs.value.memory).toMatchObject({
      command: process.execPath,
      env: {
        MEMORY_FILE_PATH: path.join(home, 'memory', 'memory.jsonl'),
        TOOLFLOW_SAMPLE_GUARD_ROOT: path.join(home, 'memory'),
        TOOLFLOW_SAMPLE_GUARD_MAX_BYTES: String(SAMPLE_CAPS.memory.maxBytes),
      },
      sample: true,
    });
    // The guard is loaded before the server, and the owner's folder is the only allowed directory.
    expect(configs.value.filesystem.args[0]).toBe('--import');
    expect(configs.value.filesystem.args[1]).toMatch(/^file:.*\/lib\/mcp\/sample-guard\.mjs$/);
    expect(configs.value.filesystem.args.slice(3)).toEqual([path.join(home, 'files')]);
    expect(configs.value.filesystem.env?.TOOLFLOW_SAMPLE_GUARD_ROOT).toBe(path.join(home, 'files'));
  });

  it('puts every space in a folder of its own, named by a hash that no key can steer', () => {
    const dirs = ['own_Alice', 'own_alice', '../../etc', 'a/b', ''].map((id) =>
      getSampleSpaceDir('/data', getSampleSpace(id)),
    );
    expect(new Set(dirs.map((d) => d.toLowerCase())).size).toBe(dirs.length);
    for (const dir of dirs) expect(dir).toMatch(/^\/data\/samples\/[0-9a-f]{32}$/);
    expect(getSampleSpaceDir('/data', LOCAL_SAMPLE_SPACE)).not.toBe(dirs[0]);
  });

  it('creates nothing until a sample server starts', async () => {
    const data = dataDir();
    await getMcpServerConfigs({ env: { TOOLFLOW_DATA_DIR: data }, space: getSampleSpace('own_alice') });
    expect(readdirSync(data)).toEqual([]);
  });

  it('lists the samples without a space, but will not start one without saying whose data it is', async () => {
    const env = { TOOLFLOW_DATA_DIR: dataDir() };
    const configs = await getMcpServerConfigs({ env });
    expect(configs.ok && Object.keys(configs.value)).toEqual(['memory', 'filesystem']);
    for (const name of ['memory', 'filesystem']) {
      expect(await getConfiguredStdioTarget(name, { env })).toMatchObject({
        ok: false,
        error: [{ code: 'sample_without_space' }],
      });
    }
  });

  it('starts them as real MCP servers, which create their folder on first use', async () => {
    const env = { TOOLFLOW_DATA_DIR: dataDir() };
    const space = getSampleSpace('own_alice');
    for (const name of ['memory', 'filesystem']) {
      const target = await getConfiguredStdioTarget(name, { env, space });
      if (!target.ok) throw new Error(target.error[0].message);
      const listed = await listMcpTools(target.value, LOCAL_OPTIONS);
      expect(listed.ok && listed.value.tools.length).toBeGreaterThan(5);
    }
    expect(readdirSync(getSampleSpaceDir(env.TOOLFLOW_DATA_DIR, space)).sort()).toEqual(['files', 'memory']);
  });

  it('says in plain words where a sample keeps data, and nothing for an operator server', async () => {
    const env = { TOOLFLOW_DATA_DIR: dataDir() };
    const configs = await getMcpServerConfigs({ env });
    if (!configs.ok) throw new Error('no configs');
    expect(getSampleDataNote(configs.value.memory, 'memory')).toMatch(
      /^Your own Memory graph, kept by this Toolflow server; only your runs see it/,
    );
    expect(getSampleDataNote(configs.value.filesystem, 'filesystem')).toMatch(
      /^Every path is inside your own Files folder/,
    );
    expect(getSampleDataNote({ command: 'mine', args: [] }, 'memory')).toBeUndefined();
  });

  it('gives way to an operator server of the same name, and can be turned off', async () => {
    const env = { TOOLFLOW_DATA_DIR: dataDir(), TOOLFLOW_MCP_SERVERS: '{"memory":{"command":"mine"}}' };
    const configs = await getMcpServerConfigs({ env });
    expect(configs.ok && configs.value.memory.command).toBe('mine');
    expect(configs.ok && Object.keys(configs.value)).toEqual(['memory', 'filesystem']);
    const off = await getMcpServerConfigs({ env: { ...env, TOOLFLOW_SAMPLE_SERVERS: '0' } });
    expect(off.ok && Object.keys(off.value)).toEqual(['memory']);
  });
});

describe('splitCommandLine', () => {
  it.each([
    ['npx -y @modelcontextprotocol/server-memory', ['npx', '-y', '@modelcontextprotocol/server-memory']],
    ['node "my server.js"  --root \'/a b\'', ['node', 'my server.js', '--root', '/a b']],
    ['cmd a\\ b "x\\"y" \'\'', ['cmd', 'a b', 'x"y', '']],
  ])('splits %s', (line, words) => {
    expect(splitCommandLine(line)).toEqual({ ok: true, value: words });
  });

  it('refuses an unclosed quote and an empty command', () => {
    expect(splitCommandLine('node "x')).toMatchObject({ ok: false, error: [{ code: 'bad_command' }] });
    expect(splitCommandLine('   ')).toMatchObject({ ok: false, error: [{ code: 'bad_command' }] });
  });
});

describe('getMcpClientOptions', () => {
  it('has safe defaults', () => {
    expect(getMcpClientOptions({})).toEqual({
      timeoutMs: 15_000,
      maxBytes: 5_000_000,
      allowPrivate: false,
      allowHosts: [],
    });
  });

  it('reads the environment, ignoring values that are not positive numbers', () => {
    expect(
      getMcpClientOptions({
        TOOLFLOW_MCP_TIMEOUT_MS: '2500',
        TOOLFLOW_MCP_MAX_BYTES: 'lots',
        TOOLFLOW_MCP_ALLOW_PRIVATE: '1',
        TOOLFLOW_MCP_ALLOW_HOSTS: 'mcp.internal',
      }),
    ).toEqual({ timeoutMs: 2500, maxBytes: 5_000_000, allowPrivate: true, allowHosts: ['mcp.internal'] });
  });
});

describe('toolflow.config.example.json', () => {
  it('is a valid configuration', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'toolflow-example-'));
    const example = new URL('../../toolflow.config.example.json', import.meta.url);
    writeFileSync(path.join(dir, 'toolflow.config.json'), readFileSync(example, 'utf8'));
    const result = await getMcpServerConfigs({ cwd: dir, env: {} });
    expect(result.ok && Object.keys(result.value)).toEqual(['memory', 'filesystem']);
  });
});
