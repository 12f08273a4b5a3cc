/**
 * The sample toolkits every owner starts with, so a new user has something to plan with. Pure
 * data; the repository seeds them into the database on first use and refreshes them when this
 * file changes (their content hash differs).
 */
import { canonicalJson } from '../tools/canonical-json';
import { sha256Hex } from '../tools/sha256';
import type { ToolDeclaration } from '../tools/types';
import { GIT_TOOLS } from './builtin/git';
import FILESYSTEM_TOOLS from './builtin/mcp-filesystem.json';
import MEMORY_TOOLS from './builtin/mcp-memory.json';
import { MATERIALS_TOOLS } from './builtin/materials';
import { SPREADSHEET_TOOLS } from './builtin/spreadsheet';
import { getBuiltinToolkitIdOf, type BuiltinToolkitKey } from './builtin-ids';

export interface BuiltinToolkit {
  /** Stable key, also the `sourceRef` of the stored toolkit. */
  key: BuiltinToolkitKey;
  name: string;
  description: string;
  tools: ToolDeclaration[];
  /**
   * For a sample backed by a real MCP server: the name of the stdio server (configured by default,
   * lib/mcp/config.ts) its tools are called on in a test-run. The others are declarations only.
   */
  server?: string;
}

function withSource(toolkit: string, tools: ToolDeclaration[]): ToolDeclaration[] {
  return tools.map((tool) => ({ ...tool, source: { kind: 'builtin', toolkit } }));
}

/** Tools of a sample MCP server, as its `tools/list` gave them (refreshed by a test when it changes). */
function withServer(toolkit: string, server: string, tools: readonly unknown[]): ToolDeclaration[] {
  return (tools as ToolDeclaration[]).map((tool) => ({
    ...tool,
    source: { kind: 'mcp-stdio', server, toolkit },
  }));
}

/** The stdio server names of the runnable samples (lib/mcp/config.ts configures them). */
export const SAMPLE_SERVER_NAMES = { memory: 'memory', files: 'filesystem' } as const;

export const BUILTIN_TOOLKITS: readonly BuiltinToolkit[] = [
  {
    key: 'materials',
    name: 'Materials science',
    description:
      'Structure building, relaxation, phonons, band structure, molecular dynamics and elastic constants (DPA models, DFT).',
    tools: withSource('Materials science', MATERIALS_TOOLS),
  },
  {
    key: 'spreadsheet',
    name: 'Spreadsheet',
    description: 'Create, read, write, format and chart Excel workbooks.',
    tools: withSource('Spreadsheet', SPREADSHEET_TOOLS),
  },
  {
    key: 'git',
    name: 'Git',
    description: 'Inspect and change a Git repository: status, diffs, staging, commits, branches, history.',
    tools: withSource('Git', GIT_TOOLS),
  },
  {
    key: 'memory',
    name: 'Memory (runnable sample)',
    description:
      'A knowledge graph of entities, relations and observations: the official MCP memory server, run by Toolflow itself, so a test-run works with nothing configured. Each person has a graph of their own, which only their runs see.',
    tools: withServer('Memory (runnable sample)', SAMPLE_SERVER_NAMES.memory, MEMORY_TOOLS),
    server: SAMPLE_SERVER_NAMES.memory,
  },
  {
    key: 'files',
    name: 'Files (runnable sample)',
    description:
      'Read, write, search and list files in a folder of your own on this Toolflow server, which only your runs see: the official MCP filesystem server, run by Toolflow itself.',
    tools: withServer('Files (runnable sample)', SAMPLE_SERVER_NAMES.files, FILESYSTEM_TOOLS),
    server: SAMPLE_SERVER_NAMES.files,
  },
];

/**
 * Content hash of a toolkit's declarations (order-sensitive: the palette shows that order).
 * The `source` is left out, as in `hashDeclaration`: it says where tools came from, not what they are.
 */
export function getToolkitHash(tools: readonly ToolDeclaration[]): string {
  return `sha256:${sha256Hex(canonicalJson(tools.map(({ source: _source, ...rest }) => rest)))}`;
}

/** The id a built-in toolkit is stored under: the same in every database. */
export function getBuiltinToolkitId(toolkit: BuiltinToolkit): string {
  return getBuiltinToolkitIdOf(toolkit.key);
}

/** The built-in toolkit stored under `id`, if it is one. */
export function findBuiltinToolkit(id: string): BuiltinToolkit | undefined {
  return BUILTIN_TOOLKITS.find((b) => getBuiltinToolkitId(b) === id);
}
