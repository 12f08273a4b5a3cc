/**
 * The `toolflow` command line: dispatches `toolflow <command> …` to `bin/commands/<name>.ts`.
 * Exit codes: 0 ok, 1 bad input (a clear message on stderr, never a stack trace), 2 usage.
 * To add a command, write `bin/commands/<name>.ts` exporting a `CliCommand` and list it below.
 */
import { pathToFileURL } from 'node:url';
import { createLookupTable } from '../lib/tools/json-value';
import { createNodeIo, UsageError, type CliCommand, type CliIo, type ExitCode } from './io';

/** Commands by name, loaded on demand so one command's dependencies never slow another. */
export const COMMANDS = createLookupTable<() => Promise<CliCommand>>({
  build: async () => (await import('./commands/build')).command,
  plan: async () => (await import('./commands/plan')).command,
  pull: async () => (await import('./commands/pull')).command,
  push: async () => (await import('./commands/push')).command,
  run: async () => (await import('./commands/run')).command,
  tools: async () => (await import('./commands/tools')).command,
  validate: async () => (await import('./commands/validate')).command,
});

const SUMMARIES: Record<string, string> = {
  build: 'tools + plan → workflow export JSON (no model needed)',
  plan: 'task in words → workflow export JSON (offline planner or an OpenAI-compatible model)',
  pull: 'download a workflow version from a Toolflow server (TOOLFLOW_URL, TOOLFLOW_TOKEN)',
  push: 'save a workflow export as a new version on a Toolflow server',
  run: 'test-run a workflow export against its MCP servers',
  tools: 'convert tool declarations to a provider format',
  validate: 'check a workflow export; one line per problem',
};

/** The top-level usage text. */
export function getUsage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.keys(COMMANDS).map((name) => `  ${name.padEnd(width)}  ${SUMMARIES[name] ?? ''}`);
  return `Usage: toolflow <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "toolflow <command> --help" for a command's options.\n`;
}

/** Run the CLI with arguments (without `node` and the script) and return the exit code. */
export async function runCli(argv: string[], io: CliIo = createNodeIo()): Promise<ExitCode> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(getUsage());
    return name === undefined ? 2 : 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.stderr(`toolflow: unknown command "${name}".\n\n${getUsage()}`);
    return 2;
  }
  const command = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.usage);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`toolflow ${name}: ${error.message}\n\n${command.usage}`);
      return 2;
    }
    // A bug, not bad input: still no stack trace for the user, but enough to report it.
    io.stderr(
      `toolflow ${name}: internal error: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}

const isEntry = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isEntry) {
  runCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
