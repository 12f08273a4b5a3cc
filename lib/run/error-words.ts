/**
 * A failed step in people's words. A tool or server says what went wrong in its own terms
 * (`ENOENT: no such file or directory, open '/srv/…/notes/missing.txt'`, `MCP error -32602: …`);
 * the step's error says it as a sentence ("The file notes/missing.txt does not exist.") in
 * `message`, the headline a person reads, and keeps the words it was made from in `detail`, shown
 * on a details line with the machine code. Server paths in either are made relative or hidden
 * when they are served (server-paths.ts), not here. Pure.
 */
import type { RunError } from './types';

/** What is known about the call that failed, to word its error. */
export interface CallContext {
  tool: string;
  /** The arguments sent: a path the error does not repeat is read from `path`. */
  args?: Record<string, unknown>;
  /** The tool declares `readOnlyHint: true` (a file it opens is one it reads). */
  readOnly?: boolean;
}

/** Longest headline made from a tool's own words; the rest is in the details. */
const HEADLINE_CHARS = 240;
/** Longest detail kept with an error (the whole text is in the stored result). */
const DETAIL_CHARS = 2000;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A sentence ends with a full stop (or its own ! or ?). */
const sentence = (text: string) => (/[.!?…]$/.test(text) ? text : `${text}.`);

/** One line, spaces collapsed. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The `path` argument, when the call had a single one. */
function getArgumentPath(args: Record<string, unknown> | undefined): string | undefined {
  const path = args?.path;
  return typeof path === 'string' && path !== '' ? path : undefined;
}

/** What the syscall of a Node error was doing, for "may not … X". */
const SYSCALL_VERBS: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write',
  scandir: 'read the folder',
  opendir: 'read the folder',
  mkdir: 'create the folder',
  rmdir: 'remove the folder',
  unlink: 'delete',
  rename: 'move',
  copyfile: 'copy',
  stat: 'look at',
  lstat: 'look at',
  realpath: 'look at',
  access: 'use',
};

/** `ENOENT: no such file or directory, open '/a/b'` and `…, rename '/a' -> '/b'`. */
const NODE_ERROR = /\b(E[A-Z]{3,12}): [^,\n]*(?:, (\w+)(?: '([^'\n]*)'(?: -> '([^'\n]*)')?)?)?/;

/** A Node file-system error (errno code, syscall, paths) in words, or undefined for another. */
function describeNodeError(text: string, context: CallContext): string | undefined {
  const match = NODE_ERROR.exec(text);
  if (!match) return undefined;
  const [, errno, syscall = '', first, second] = match;
  const path = first ?? getArgumentPath(context.args);
  const it = path ?? 'The path';
  switch (errno) {
    case 'ENOENT':
      if (syscall === 'rename' && first && second)
        return `Could not move ${first} to ${second}: ${first} does not exist, or the folder it goes to does not.`;
      if (syscall === 'scandir' || syscall === 'opendir') return `The folder ${it} does not exist.`;
      if (syscall === 'mkdir') return `The folder that would hold ${it} does not exist.`;
      if (syscall === 'open' && context.readOnly === false)
        return `${it} could not be opened: it, or the folder it is in, does not exist.`;
      if (syscall === 'open' || syscall === 'read') return `The file ${it} does not exist.`;
      return `${it} does not exist.`;
    case 'EACCES':
    case 'EPERM':
      return `The server is not allowed to ${SYSCALL_VERBS[syscall] ?? 'use'} ${path ?? 'that path'} (permission denied).`;
    case 'EISDIR':
      return `${it} is a folder, not a file.`;
    case 'ENOTDIR':
      return `${it} is not a folder (or a part of its path is a file).`;
    case 'EEXIST':
      return `${it} already exists.`;
    case 'ENOTEMPTY':
      return `The folder ${it} is not empty.`;
    case 'ENOSPC':
      return 'The server’s disk is full.';
    case 'EROFS':
      return `${it} is on a disk that cannot be written to.`;
    case 'ENAMETOOLONG':
      return `The name ${it} is too long.`;
    case 'EMFILE':
    case 'ENFILE':
      return 'The server has too many files open; try again later.';
    default:
      return undefined;
  }
}

/** An issue of a zod or Ajv list (`[{"path": ["a", 0], "message": "Required"}]`) as `a/0: Required`. */
function describeIssueList(json: string): string | undefined {
  let issues: unknown;
  try {
    issues = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const read = (issue: unknown) => {
    if (typeof issue !== 'object' || issue === null) return undefined;
    const { path, message } = issue as { path?: unknown; message?: unknown };
    if (typeof message !== 'string') return undefined;
    const where = Array.isArray(path) && path.length > 0 ? `${path.join('/')}: ` : '';
    return `${where}${message}`;
  };
  const first = read(issues[0]);
  if (!first) return undefined;
  return issues.length > 1 ? `${first} (and ${issues.length - 1} more)` : first;
}

/** The arguments a server refused (`MCP error -32602: Input validation error: …`), in words. */
function describeRefusedArguments(text: string): string | undefined {
  const match =
    /(?:MCP error -32602: )?(?:Input validation error: )?Invalid arguments for tool [^:]+: ([\s\S]*)$/.exec(
      text,
    );
  if (!match && !/^MCP error -32602\b/.test(text)) return undefined;
  const why = match ? (describeIssueList(match[1].trim()) ?? oneLine(match[1])) : undefined;
  return why
    ? sentence(`The server refused the arguments: ${cut(why, HEADLINE_CHARS)}`)
    : 'The server refused the arguments.';
}

/** The filesystem server's and the sample guard's own refusals. */
function describeFolderRefusal(text: string): string | undefined {
  const outside = /path outside allowed directories: (.+?) not in /.exec(text);
  if (outside) return `${outside[1]} is outside the folder this server may use; give a path inside it.`;
  if (/^Access denied: this sample works only inside your own folder/.test(text))
    return 'That path is outside your own folder: this sample works only inside it.';
  const exists = /^Destination already exists: (.+)$/m.exec(text);
  if (exists) return `${exists[1]} already exists.`;
  const parent = /^Parent directory does not exist: (.+)$/m.exec(text);
  if (parent) return `The folder ${parent[1]} does not exist.`;
  return undefined;
}

/** Why the tool's error text is not a headline as it stands: empty, or a blob of data. */
const isDataBlob = (text: string) => /^[[{]/.test(text);

/**
 * A tool's own failure (a result with `isError`), from its text content: a headline in words, the
 * text itself in `detail`.
 */
export function describeToolError(text: string, context: CallContext): RunError {
  const said = text.trim();
  const detail = said ? { detail: cut(said, DETAIL_CHARS) } : {};
  const worded =
    describeRefusedArguments(said) ?? describeFolderRefusal(said) ?? describeNodeError(said, context);
  if (worded) return { code: 'tool_error', message: worded, ...detail };
  if (!said)
    return { code: 'tool_error', message: `"${context.tool}" reported an error without saying why.` };
  if (isDataBlob(said))
    return { code: 'tool_error', message: `"${context.tool}" reported an error.`, ...detail };
  const headline = sentence(cut(oneLine(said.replace(/^(?:Error|MCP error -?\d+): /, '')), HEADLINE_CHARS));
  // The headline is the tool's own sentence: the details repeat it only when it was shortened.
  return { code: 'tool_error', message: headline, ...(headline === sentence(said) ? {} : detail) };
}

/** A failure talking to a server, as the MCP client reports it (lib/mcp/client.ts `McpProblem`). */
export interface ServerProblem {
  /** `timeout`, `server_exited`, `connection_closed`, `spawn_failed`, `server_error`, … */
  code: string;
  step: 'connect' | 'initialize' | 'list' | 'call';
  message: string;
  /** The JSON-RPC error code of a `server_error`. */
  rpcCode?: number;
}

/**
 * A server's failure as a step's error: the code the run records (`server_exited`, `timeout`,
 * `server_start_timeout`, `call_failed`, `server_unavailable`), a headline in words, and what the
 * client said in `detail`.
 */
export function describeServerProblem(problem: ServerProblem, context: CallContext): RunError {
  const starting = problem.step !== 'call';
  const detail = { detail: cut(problem.message, DETAIL_CHARS) };
  const error = (code: string, message: string): RunError => ({ code, message, ...detail });
  switch (problem.code) {
    case 'connection_closed':
    case 'server_exited':
      return starting
        ? error('server_exited', 'The server stopped while it was starting, so the tool was not called.')
        : error('server_exited', 'The server stopped during the call (it crashed or closed the connection).');
    case 'timeout':
      return starting
        ? error('server_start_timeout', 'The server did not start in time, so the tool was not called.')
        : error('timeout', 'The server did not answer in time.');
    case 'spawn_failed':
      return error('server_unavailable', 'The server could not be started on this Toolflow server.');
    case 'url_refused':
      return error('server_unavailable', 'Toolflow may not connect to this server’s address.');
    case 'unreachable':
      return error('server_unavailable', 'The server could not be reached.');
    case 'http_status':
      return error('server_unavailable', 'The server answered with an HTTP error.');
    case 'too_large':
      return error(starting ? 'server_unavailable' : 'call_failed', 'The server’s answer was too large.');
    case 'missing_structured_content':
    case 'bad_output':
    case 'bad_schema':
      return error('call_failed', `The answer of "${context.tool}" does not match the output it declares.`);
    case 'server_error':
      if (problem.rpcCode === -32602) {
        const refused = describeRefusedArguments(problem.message.replace(/^.*?with error -32602: /, ''));
        return error('call_failed', refused ?? 'The server refused the arguments.');
      }
      // "Method not found": the server does not take tools/call at all.
      if (problem.rpcCode === -32601) return error('call_failed', 'The server does not take tool calls.');
      return error(
        starting ? 'server_unavailable' : 'call_failed',
        'The server answered the call with an error.',
      );
    default:
      return starting
        ? error('server_unavailable', 'The server could not be started or reached.')
        : error('call_failed', 'The call failed: the server’s answer could not be read.');
  }
}

/** `40 ms`, `1.5 s`, `2 min`: a limit as people read it. */
export function formatLimit(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  return `${Number((ms / 60_000).toFixed(1))} min`;
}

/** How a step is named in another step's error: `step 2 (Create Relations)`. */
export function nameStep(step: { stepIndex: number; label?: string; toolName: string }): string {
  return `step ${step.stepIndex} (${step.label ?? step.toolName})`;
}
