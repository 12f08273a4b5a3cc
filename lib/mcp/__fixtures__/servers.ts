/**
 * Test helpers that start real MCP servers from npm (and the fake one beside this file) with no
 * network: stdio targets, and server-everything's HTTP modes bound to 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { McpClientOptions, StdioTarget } from '../client';

const here = path.dirname(fileURLToPath(import.meta.url));
const modules = path.resolve(here, '../../../node_modules/@modelcontextprotocol');

export const SERVER_FILESYSTEM = path.join(modules, 'server-filesystem/dist/index.js');
export const SERVER_MEMORY = path.join(modules, 'server-memory/dist/index.js');
export const SERVER_EVERYTHING = path.join(modules, 'server-everything/dist/index.js');
export const FAKE_SERVER = path.join(here, 'fake-server.mjs');

/** Options for local test servers: loopback allowed, generous limits. */
export const LOCAL_OPTIONS: McpClientOptions = { timeoutMs: 15_000, maxBytes: 5_000_000, allowPrivate: true };

export function fakeServer(mode: string): StdioTarget {
  return { kind: 'stdio', name: `fake-${mode}`, command: process.execPath, args: [FAKE_SERVER, mode] };
}

export function filesystemServer(): { target: StdioTarget; root: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'toolflow-fs-'));
  return {
    root,
    target: { kind: 'stdio', name: 'filesystem', command: process.execPath, args: [SERVER_FILESYSTEM, root] },
  };
}

export function memoryServer(): StdioTarget {
  const dir = mkdtempSync(path.join(tmpdir(), 'toolflow-memory-'));
  return {
    kind: 'stdio',
    name: 'memory',
    command: process.execPath,
    args: [SERVER_MEMORY],
    env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
  };
}

export interface RunningServer {
  url: string;
  port: number;
  close: () => Promise<void>;
}

/**
 * server-everything in `streamableHttp` (URL `/mcp`) or `sse` (URL `/sse`) mode on a free port
 * of 127.0.0.1. Its HTTP mode has no host option, so a preload binds it to loopback.
 */
export async function startEverythingHttp(mode: 'streamableHttp' | 'sse'): Promise<RunningServer> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', pathToFileURL(path.join(here, 'listen-loopback.mjs')).href, SERVER_EVERYTHING, mode],
    { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not start: ${stderr}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /LISTENING (\d+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`server-everything exited (${code}): ${stderr}`)));
  });
  return {
    port,
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export const RUN_SERVER = path.join(here, 'run-server.mjs');

/** `TOOLFLOW_MCP_SERVERS` naming the test-run fault server as `name` (calls logged to `log`). */
export function runServerConfig(name = 'faulty', log?: string, env: Record<string, string> = {}): string {
  const vars = { ...(log ? { RUN_SERVER_LOG: log } : {}), ...env };
  return JSON.stringify({
    [name]: {
      command: process.execPath,
      args: [RUN_SERVER],
      ...(Object.keys(vars).length > 0 ? { env: vars } : {}),
    },
  });
}
