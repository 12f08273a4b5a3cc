import { describe, expect, it } from 'vitest';
import { describeServerProblem, describeToolError, formatLimit, nameStep } from './error-words';

const ROOT = '/srv/toolflow/.data/samples/3f9c/files';
const read = { tool: 'read_text_file', readOnly: true };
const write = { tool: 'write_file', readOnly: false };

describe('a tool’s own error, in words', () => {
  it.each([
    [
      'a missing file it reads',
      `ENOENT: no such file or directory, open '${ROOT}/notes/missing.txt'`,
      read,
      `The file ${ROOT}/notes/missing.txt does not exist.`,
    ],
    [
      'a file it writes into a missing folder',
      `ENOENT: no such file or directory, open '${ROOT}/nope/a.txt'`,
      write,
      `${ROOT}/nope/a.txt could not be opened: it, or the folder it is in, does not exist.`,
    ],
    [
      'a missing folder it lists',
      `ENOENT: no such file or directory, scandir '${ROOT}/nope'`,
      { tool: 'list_directory', readOnly: true },
      `The folder ${ROOT}/nope does not exist.`,
    ],
    [
      'a move of a missing file',
      `ENOENT: no such file or directory, rename '${ROOT}/a.txt' -> '${ROOT}/b.txt'`,
      { tool: 'move_file', readOnly: false },
      `Could not move ${ROOT}/a.txt to ${ROOT}/b.txt: ${ROOT}/a.txt does not exist, or the folder it goes to does not.`,
    ],
    [
      'a folder read as a file, the path taken from the arguments',
      'EISDIR: illegal operation on a directory, read',
      { ...read, args: { path: 'notes' } },
      'notes is a folder, not a file.',
    ],
    [
      'a file listed as a folder',
      `ENOTDIR: not a directory, scandir '${ROOT}/a.txt'`,
      { tool: 'list_directory' },
      `${ROOT}/a.txt is not a folder (or a part of its path is a file).`,
    ],
    [
      'a file that exists already',
      `EEXIST: file already exists, mkdir '${ROOT}/notes'`,
      { tool: 'create_directory' },
      `${ROOT}/notes already exists.`,
    ],
    [
      'a permission the server lacks',
      `Error: EACCES: permission denied, open '/var/lib/x'`,
      read,
      'The server is not allowed to open /var/lib/x (permission denied).',
    ],
    [
      'a path outside the folder',
      `Access denied - path outside allowed directories: /etc/hostname not in ${ROOT}`,
      read,
      '/etc/hostname is outside the folder this server may use; give a path inside it.',
    ],
    [
      'the sample guard’s refusal',
      `Access denied: this sample works only inside your own folder (${ROOT}).`,
      write,
      'That path is outside your own folder: this sample works only inside it.',
    ],
    [
      'a destination that exists',
      `Destination already exists: ${ROOT}/notes`,
      { tool: 'move_file' },
      `${ROOT}/notes already exists.`,
    ],
    [
      'arguments the server’s own check refused',
      'MCP error -32602: Input validation error: Invalid arguments for tool create_entities: [\n  {\n    "code": "invalid_type",\n    "expected": "string",\n    "received": "undefined",\n    "path": ["entities", 0, "entityType"],\n    "message": "Required"\n  }\n]',
      { tool: 'create_entities' },
      'The server refused the arguments: entities/0/entityType: Required.',
    ],
  ])('%s', (_what, text, context, headline) => {
    const error = describeToolError(text, context);
    expect(error).toEqual({ code: 'tool_error', message: headline, detail: text });
  });

  it('keeps a tool’s own plain sentence as the headline, without repeating it in the details', () => {
    expect(describeToolError('Entity with name Nobody not found', { tool: 'add_observations' })).toEqual({
      code: 'tool_error',
      message: 'Entity with name Nobody not found.',
    });
    expect(describeToolError('Your Files folder is full: it may hold 10 MB.', write)).toEqual({
      code: 'tool_error',
      message: 'Your Files folder is full: it may hold 10 MB.',
    });
  });

  it('puts a long or many-line text on one line, cut, with the whole text in the details', () => {
    const long = `Could not find exact match for edit:\n${'x'.repeat(400)}`;
    const error = describeToolError(long, { tool: 'edit_file' });
    expect(error.message.startsWith('Could not find exact match for edit: xxx')).toBe(true);
    expect(error.message.length).toBeLessThanOrEqual(241);
    expect(error.detail).toBe(long);
  });

  it('says only that the tool failed when it sent data or nothing', () => {
    expect(describeToolError('{"error": 42}', { tool: 'query' })).toEqual({
      code: 'tool_error',
      message: '"query" reported an error.',
      detail: '{"error": 42}',
    });
    expect(describeToolError('  ', { tool: 'query' })).toEqual({
      code: 'tool_error',
      message: '"query" reported an error without saying why.',
    });
  });

  it('leaves codes that only look like an errno to the tool’s own words', () => {
    expect(describeToolError('ERROR: the query failed', { tool: 'q' }).message).toBe(
      'ERROR: the query failed.',
    );
  });
});

describe('a server’s failure, in words', () => {
  const context = { tool: 'echo' };
  it.each([
    [{ code: 'server_exited', step: 'call' }, 'server_exited', 'The server stopped during the call'],
    [{ code: 'server_exited', step: 'connect' }, 'server_exited', 'The server stopped while it was starting'],
    [{ code: 'connection_closed', step: 'call' }, 'server_exited', 'The server stopped during the call'],
    [{ code: 'timeout', step: 'call' }, 'timeout', 'The server did not answer in time.'],
    [{ code: 'timeout', step: 'initialize' }, 'server_start_timeout', 'The server did not start in time'],
    [{ code: 'spawn_failed', step: 'connect' }, 'server_unavailable', 'The server could not be started'],
    [{ code: 'url_refused', step: 'connect' }, 'server_unavailable', 'Toolflow may not connect'],
    [{ code: 'unreachable', step: 'connect' }, 'server_unavailable', 'The server could not be reached.'],
    [{ code: 'bad_output', step: 'call' }, 'call_failed', 'The answer of "echo" does not match'],
    [
      { code: 'server_error', step: 'call', rpcCode: -32601 },
      'call_failed',
      'The server does not take tool calls.',
    ],
    [{ code: 'bad_response', step: 'call' }, 'call_failed', 'The call failed'],
  ] as const)('%j', (problem, code, headline) => {
    const message = `MCP server x: ${problem.step} failed: what the client said`;
    const error = describeServerProblem({ ...problem, message }, context);
    expect(error.code).toBe(code);
    expect(error.message.startsWith(headline)).toBe(true);
    // What the client said goes to the details, never the headline.
    expect(error.message).not.toContain('MCP server x');
    expect(error.detail).toBe(message);
  });

  it('words arguments a server refused with invalid params', () => {
    const error = describeServerProblem(
      {
        code: 'server_error',
        step: 'call',
        rpcCode: -32602,
        message:
          'MCP server memory: call failed: the server answered the call to "create_entities" with error -32602: Invalid arguments for tool create_entities: [{"path":["entities",0,"name"],"message":"Required"}]',
      },
      { tool: 'create_entities' },
    );
    expect(error.message).toBe('The server refused the arguments: entities/0/name: Required.');
  });
});

describe('names and limits', () => {
  it('names a step by its number and title', () => {
    expect(nameStep({ stepIndex: 2, toolName: 'create_relations' })).toBe('step 2 (create_relations)');
    expect(nameStep({ stepIndex: 1, label: 'Make Alice', toolName: 'create_entities' })).toBe(
      'step 1 (Make Alice)',
    );
  });

  it('writes a limit as people read it', () => {
    expect([formatLimit(250), formatLimit(1500), formatLimit(60_000), formatLimit(600_000)]).toEqual([
      '250 ms',
      '1.5 s',
      '1 min',
      '10 min',
    ]);
  });
});
