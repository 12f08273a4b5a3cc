/**
 * What a CLI command may touch: output streams and files, injected so commands are unit-testable
 * without spawning a process.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Issue } from '../lib/result';
import { parseDeclarationsText } from '../lib/tools/import';
import type { ToolDeclaration } from '../lib/tools/types';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Read a text file; relative paths are relative to the working directory. */
  readFile(path: string): Promise<string>;
  /** The environment the server commands read (TOOLFLOW_URL, TOOLFLOW_TOKEN); process.env by default. */
  env?: Record<string, string | undefined>;
  /** How the server commands reach the server; the global fetch by default. */
  fetch?: typeof fetch;
}

/** A command's exit status: 0 ok, 1 bad input, 2 usage. */
export type ExitCode = 0 | 1 | 2;

/** One CLI command, in `bin/commands/<name>.ts`. */
export interface CliCommand {
  /** One line for the command list. */
  summary: string;
  /** The full usage text, shown with `--help` and on a usage error. */
  usage: string;
  run(argv: string[], io: CliIo): Promise<ExitCode>;
}

/** The real process: stdout/stderr and the file system. */
export function createNodeIo(cwd = process.cwd()): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readFile: (path) => readFile(resolve(cwd, path), 'utf8'),
  };
}

/** A usage mistake (unknown option, missing argument): exit 2 with the usage text. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parse a command's arguments strictly; an unknown or malformed option is a UsageError, so the
 * user sees the usage text instead of a stack trace.
 */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** Read a file named by an option; a missing or unreadable file is bad input with a clear reason. */
export async function readInputFile(
  io: CliIo,
  path: string,
  what: string,
): Promise<{ ok: true; text: string } | { ok: false }> {
  try {
    return { ok: true, text: await io.readFile(path) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : String((error as Error).message ?? error);
    io.stderr(`toolflow: cannot read ${what} "${path}": ${reason}. Check the path.\n`);
    return { ok: false };
  }
}

/** Print issues one per line as `file path: message` on stderr. */
export function printIssues(io: CliIo, file: string, issues: readonly Issue[]): void {
  for (const issue of issues)
    io.stderr(`${file}${issue.path === '' ? '' : ' ' + issue.path}: ${issue.message}\n`);
}

/**
 * Read a tool declarations file given by `--tools` (any supported format); its tools carry the
 * file's name as their toolkit. A missing file or bad declarations are printed: bad input.
 */
export async function readToolsFile(
  io: CliIo,
  path: string,
): Promise<{ ok: true; text: string; tools: ToolDeclaration[] } | { ok: false }> {
  const text = await readInputFile(io, path, '--tools file');
  if (!text.ok) return text;
  const toolkit = basename(path, extname(path));
  const tools = parseDeclarationsText(text.text, { source: { kind: 'file', toolkit } });
  if (!tools.ok) {
    printIssues(io, path, tools.error);
    return { ok: false };
  }
  return { ok: true, text: text.text, tools: tools.value.tools };
}

/** A comma-separated option as a list (`""` is none); undefined when the option is not given. */
export function getListOption(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A workflow id derived from the inputs, so the same inputs give the same id (`wf_<12 hex>`). */
export function getContentId(...parts: string[]): string {
  return 'wf_' + createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 12);
}
