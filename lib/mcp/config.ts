import 'server-only';
/**
 * Where stdio MCP servers come from: only the server's own configuration — `mcpServers` in
 * `toolflow.config.json` (next to the app) or the `TOOLFLOW_MCP_SERVERS` environment variable
 * (JSON of the same shape, which wins). A stdio server runs a process, so its command is never
 * taken from a browser request; a request may only name a configured server.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SAMPLE_SERVER_NAMES } from '../toolkits/builtin';
import { err, joinPointer, ok, type Issue, type Result } from '../result';
import type { McpClientOptions, StdioTarget } from './client';
import { getAllowedHosts, isPrivateAllowed } from './url-guard';
import { getMember, parseJson } from '../tools/json-value';
import { getSampleSpaceDir, SAMPLE_CAPS, type SampleSpace } from './sample-spaces';

export const CONFIG_FILE_NAME = 'toolflow.config.json';

/** One configured stdio server (`mcpServers.<name>`). */
export interface McpServerConfig {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  description?: string;
  /** One of the runnable samples Toolflow configures itself (not from the operator's config). */
  sample?: boolean;
}

export interface McpConfigSources {
  /** Directory holding `toolflow.config.json`; default: the process's working directory. */
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Whose data the runnable samples act on (sample-spaces.ts); they cannot start without one. */
  space?: SampleSpace;
}

/**
 * Every configured stdio server by name. A missing config file means none; a config that is not
 * valid is an error naming the file (or variable) and the JSON path.
 */
export async function getMcpServerConfigs(
  sources: McpConfigSources = {},
): Promise<Result<Record<string, McpServerConfig>>> {
  const configured = await readConfiguredServers(sources);
  if (!configured.ok) return configured;
  // The operator's own server of the same name wins over a sample.
  return ok({ ...getSampleServerConfigs(sources), ...configured.value });
}

async function readConfiguredServers(
  sources: McpConfigSources,
): Promise<Result<Record<string, McpServerConfig>>> {
  const env = sources.env ?? process.env;
  const fromEnv = env.TOOLFLOW_MCP_SERVERS;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    return parseServers(fromEnv, 'TOOLFLOW_MCP_SERVERS', false);
  }
  const file = path.join(sources.cwd ?? process.cwd(), CONFIG_FILE_NAME);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ok({});
    return err([
      {
        path: '',
        message: `${file} could not be read: ${(error as Error).message}`,
        code: 'config_unreadable',
      },
    ]);
  }
  return parseServers(text, file, true);
}

/**
 * The runnable samples: the official memory and filesystem MCP servers from the app's own
 * node_modules, run with this Node and with sample-guard.mjs loaded first. Each space (one
 * person's, sample-spaces.ts) has its own: the memory server keeps its graph in
 * `<space>/memory/memory.jsonl`, and the filesystem server's only allowed directory is
 * `<space>/files`, so relative paths resolve inside it and nothing outside it can be reached.
 * The guard keeps every write inside that folder and within SAMPLE_CAPS. Without a space in
 * `sources` the samples are listed but cannot be started (getConfiguredStdioTarget refuses).
 * `TOOLFLOW_SAMPLE_SERVERS=0` turns them off. None when the packages are not installed.
 */
export function getSampleServerConfigs(sources: McpConfigSources = {}): Record<string, McpServerConfig> {
  const env = sources.env ?? process.env;
  if (env.TOOLFLOW_SAMPLE_SERVERS === '0') return {};
  const root = sources.cwd ?? process.cwd();
  const guard = path.join(root, 'lib', 'mcp', 'sample-guard.mjs');
  if (!existsSync(/*turbopackIgnore: true*/ guard)) return {};
  const space = sources.space ? getSampleSpaceDir(getDataDir(sources), sources.space) : undefined;
  const entry = (pkg: string) =>
    path.join(root, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js');
  /** A sample server in the folder `folder` of the space, guarded by `caps`. */
  const sample = (
    script: string,
    folder: 'memory' | 'files',
    name: string,
    serve: (dir: string) => { args: string[]; env?: Record<string, string> },
  ): Pick<McpServerConfig, 'command' | 'args' | 'env'> => {
    if (!space) return { command: process.execPath, args: [] };
    const dir = path.join(space, folder);
    const served = serve(dir);
    return {
      command: process.execPath,
      args: ['--import', pathToFileURL(guard).href, script, ...served.args],
      env: {
        ...served.env,
        TOOLFLOW_SAMPLE_GUARD_ROOT: dir,
        TOOLFLOW_SAMPLE_GUARD_MAX_BYTES: String(SAMPLE_CAPS[folder].maxBytes),
        TOOLFLOW_SAMPLE_GUARD_MAX_ENTRIES: String(SAMPLE_CAPS[folder].maxEntries),
        TOOLFLOW_SAMPLE_GUARD_NAME: name,
      },
    };
  };
  const servers: Record<string, McpServerConfig> = {};
  const memory = entry('server-memory');
  if (existsSync(/*turbopackIgnore: true*/ memory)) {
    servers[SAMPLE_SERVER_NAMES.memory] = {
      ...sample(memory, 'memory', 'Memory graph', (dir) => ({
        args: [],
        env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
      })),
      description:
        'Sample: the MCP memory server (a knowledge graph of your own, kept by this Toolflow server)',
      sample: true,
    };
  }
  const filesystem = entry('server-filesystem');
  if (existsSync(/*turbopackIgnore: true*/ filesystem)) {
    servers[SAMPLE_SERVER_NAMES.files] = {
      ...sample(filesystem, 'files', 'Files folder', (dir) => ({ args: [dir] })),
      description:
        'Sample: the MCP filesystem server, confined to a folder of your own on this Toolflow server',
      sample: true,
    };
  }
  return servers;
}

/** The names of the stdio servers a run can start here (the runnable samples included while on). */
export async function getConfiguredServerNames(sources: McpConfigSources = {}): Promise<Set<string>> {
  const configs = await getMcpServerConfigs(sources);
  return new Set(configs.ok ? Object.keys(configs.value) : []);
}

/** The data directory, absolute: `TOOLFLOW_DATA_DIR`, or `.data` beside the app. */
export function getDataDir(sources: Pick<McpConfigSources, 'cwd' | 'env'> = {}): string {
  const env = sources.env ?? process.env;
  return path.resolve(sources.cwd ?? process.cwd(), env.TOOLFLOW_DATA_DIR?.trim() || '.data');
}

/**
 * What a runnable sample does with a person's data, in plain words, for the Run dialog; undefined
 * for a server that is not one of the samples (an operator's server of the same name included).
 */
export function getSampleDataNote(config: McpServerConfig | undefined, name: string): string | undefined {
  if (!config?.sample) return undefined;
  if (name === SAMPLE_SERVER_NAMES.memory) {
    return `Your own Memory graph, kept by this Toolflow server; only your runs see it (at most ${formatMegabytes(SAMPLE_CAPS.memory.maxBytes)}).`;
  }
  return `Every path is inside your own Files folder, kept by this Toolflow server: notes/todo.txt is the file todo.txt in the folder notes there, and nothing outside the folder can be reached. Only your runs see it (at most ${formatMegabytes(SAMPLE_CAPS.files.maxBytes)} in ${SAMPLE_CAPS.files.maxEntries.toLocaleString('en-US')} files and folders).`;
}

const formatMegabytes = (bytes: number) => `${bytes / 1_000_000} MB`;

/** The stdio target for a configured server name, or an error listing the names that exist. */
export async function getConfiguredStdioTarget(
  name: string,
  sources: McpConfigSources = {},
): Promise<Result<StdioTarget>> {
  const configs = await getMcpServerConfigs(sources);
  if (!configs.ok) return configs;
  const config = getMember(configs.value, name);
  if (!config) {
    const known = Object.keys(configs.value);
    return err([
      {
        path: '/mcpServer',
        code: 'unknown_mcp_server',
        message: known.length
          ? `No MCP server named "${name}" is configured; configured servers: ${known.join(', ')}.`
          : `No MCP server named "${name}" is configured. Add it under "mcpServers" in ${CONFIG_FILE_NAME} or TOOLFLOW_MCP_SERVERS.`,
      },
    ]);
  }
  if (config.sample && !sources.space) {
    // A bug, not a user's mistake: every caller that starts servers names whose data they act on.
    return err([
      {
        path: '/mcpServer',
        code: 'sample_without_space',
        message: `The runnable sample "${name}" keeps each person's data apart, and was asked for without saying whose.`,
      },
    ]);
  }
  return ok({
    kind: 'stdio',
    name,
    command: config.command,
    args: config.args,
    env: config.env,
    cwd: config.cwd,
  });
}

function parseServers(text: string, where: string, isFile: boolean): Result<Record<string, McpServerConfig>> {
  let data: unknown;
  try {
    data = parseJson(text);
  } catch (error) {
    return err([
      { path: '', message: `${where} is not valid JSON: ${(error as Error).message}`, code: 'bad_json' },
    ]);
  }
  // The file holds other settings too; the variable holds only the server map.
  const base = isFile ? '/mcpServers' : '';
  const servers = isFile ? (isObject(data) ? data.mcpServers : undefined) : data;
  if (isFile && !isObject(data))
    return err([{ path: '', message: `${where} must hold a JSON object`, code: 'bad_config' }]);
  if (servers === undefined) return ok({});
  if (!isObject(servers))
    return err([
      { path: base, message: `must be an object of servers by name (in ${where})`, code: 'bad_config' },
    ]);

  const issues: Issue[] = [];
  const result: Record<string, McpServerConfig> = {};
  for (const [name, raw] of Object.entries(servers)) {
    const at = joinPointer(base, name);
    const problem = (p: string, message: string) =>
      issues.push({ path: p, message: `${message} (in ${where})`, code: 'bad_config' });
    if (!isObject(raw)) {
      problem(at, 'must be an object with "command" and optional "args", "env", "cwd"');
      continue;
    }
    if (typeof raw.command !== 'string' || raw.command.trim() === '')
      problem(joinPointer(at, 'command'), 'must be a non-empty string');
    const args = raw.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== 'string'))
      problem(joinPointer(at, 'args'), 'must be an array of strings');
    if (
      raw.env !== undefined &&
      (!isObject(raw.env) || Object.values(raw.env).some((v) => typeof v !== 'string'))
    ) {
      problem(joinPointer(at, 'env'), 'must be an object of string values');
    }
    if (raw.cwd !== undefined && typeof raw.cwd !== 'string')
      problem(joinPointer(at, 'cwd'), 'must be a string');
    if (raw.description !== undefined && typeof raw.description !== 'string')
      problem(joinPointer(at, 'description'), 'must be a string');
    result[name] = {
      command: String(raw.command),
      args: Array.isArray(args) ? args.map(String) : [],
      ...(isObject(raw.env) ? { env: raw.env as Record<string, string> } : {}),
      ...(typeof raw.cwd === 'string' ? { cwd: raw.cwd } : {}),
      ...(typeof raw.description === 'string' ? { description: raw.description } : {}),
    };
  }
  return issues.length ? err(issues) : ok(result);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Split a command line the way a POSIX shell splits words (single and double quotes, backslash
 * escapes), without running a shell: `node "my server.js" --flag` → `["node", "my server.js",
 * "--flag"]`. For the CLI's `--mcp-stdio "CMD"`, which the operator types on their own machine.
 */
export function splitCommandLine(line: string): Result<string[]> {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) current += line[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote)
    return err([{ path: '', message: `The command has an unclosed ${quote} quote.`, code: 'bad_command' }]);
  if (inWord) words.push(current);
  if (words.length === 0)
    return err([
      {
        path: '',
        message:
          'The command is empty; give the program to run, e.g. "npx -y @modelcontextprotocol/server-memory".',
        code: 'bad_command',
      },
    ]);
  return ok(words);
}

/**
 * The limits the web server uses for MCP servers, from the environment:
 * `TOOLFLOW_MCP_TIMEOUT_MS` (default 15000, per step), `TOOLFLOW_MCP_MAX_BYTES` (default 5 MB),
 * `TOOLFLOW_MCP_ALLOW_PRIVATE=1`, `TOOLFLOW_MCP_ALLOW_HOSTS=host,host`.
 */
export function getMcpClientOptions(env: Record<string, string | undefined> = process.env): McpClientOptions {
  const positive = (raw: string | undefined, fallback: number) => {
    const value = Number(raw);
    return raw !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    timeoutMs: positive(env.TOOLFLOW_MCP_TIMEOUT_MS, 15_000),
    maxBytes: positive(env.TOOLFLOW_MCP_MAX_BYTES, 5_000_000),
    allowPrivate: isPrivateAllowed(env),
    allowHosts: getAllowedHosts(env),
  };
}
