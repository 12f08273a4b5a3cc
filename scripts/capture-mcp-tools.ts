/**
 * Captures the `tools/list` answer of the real MCP servers the planning-quality set plans over
 * (server-filesystem, server-memory, server-everything: devDependencies, started from
 * node_modules over stdio, no network) into `tests/planner-quality/tools/<server>.json`, with
 * the server's name and version as it reports them and the package version from node_modules.
 *
 *   npx tsx scripts/capture-mcp-tools.ts          write the files
 *   npx tsx scripts/capture-mcp-tools.ts --check  exit 1 when a file differs from what the
 *                                                 installed server lists now
 *
 * The client declares every capability (sampling, elicitation, roots): server-everything lists
 * more tools to such a client than to one that declares none (19 against 13 in 2026.8.31).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = path.join(ROOT, 'tests/planner-quality/tools');
const MODULES = path.join(ROOT, 'node_modules/@modelcontextprotocol');

interface Target {
  server: 'filesystem' | 'memory' | 'everything';
  /** Arguments after the entry point; `{dir}` is a fresh temporary directory. */
  args: string[];
  env?: Record<string, string>;
}

const TARGETS: Target[] = [
  // The allowed directory is a placeholder path: no tool description names it.
  { server: 'filesystem', args: ['{dir}'] },
  { server: 'memory', args: [], env: { MEMORY_FILE_PATH: '{dir}/memory.jsonl' } },
  { server: 'everything', args: ['stdio'] },
];

/** What a captured file holds: the raw tools/list result and where it came from. */
export interface CapturedToolList {
  captured_from: { package: string; version: string; server_info: unknown; client_capabilities: object };
  tools: unknown[];
}

const CAPABILITIES = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
  tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
};

async function capture(target: Target): Promise<CapturedToolList> {
  const pkg = `@modelcontextprotocol/server-${target.server}`;
  const pkgDir = path.join(MODULES, `server-${target.server}`);
  const { version } = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const dir = mkdtempSync(path.join(tmpdir(), `toolflow-capture-${target.server}-`));
  const fill = (s: string) => s.replace('{dir}', dir);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(pkgDir, 'dist/index.js'), ...target.args.map(fill)],
    env: {
      PATH: process.env.PATH ?? '',
      ...Object.fromEntries(Object.entries(target.env ?? {}).map(([k, v]) => [k, fill(v)])),
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'toolflow-capture', version: '0.0.0' }, { capabilities: CAPABILITIES });
  try {
    await client.connect(transport);
    const result = await client.listTools();
    return {
      captured_from: {
        package: pkg,
        version,
        server_info: client.getServerVersion() ?? null,
        client_capabilities: CAPABILITIES,
      },
      // Only what the answer carries, as JSON (drops SDK-side undefined members).
      tools: JSON.parse(JSON.stringify(result.tools)) as unknown[],
    };
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(argv: string[]): Promise<number> {
  const check = argv.includes('--check');
  let differs = 0;
  for (const target of TARGETS) {
    const captured = await capture(target);
    const file = path.join(OUT_DIR, `${target.server}.json`);
    const text = JSON.stringify(captured, null, 2) + '\n';
    if (check) {
      let old = '';
      try {
        old = readFileSync(file, 'utf8');
      } catch {
        // a missing file differs
      }
      if (old !== text) {
        differs++;
        process.stderr.write(
          `${path.relative(ROOT, file)} differs from what ${captured.captured_from.package} ${captured.captured_from.version} lists now\n`,
        );
      }
    } else {
      writeFileSync(file, text);
      process.stderr.write(
        `${path.relative(ROOT, file)}: ${captured.tools.length} tools from ${captured.captured_from.package} ${captured.captured_from.version}\n`,
      );
    }
  }
  return differs > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`capture-mcp-tools: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
