/** `toolflow pull ID [--version N]`: a workflow's export from a Toolflow server, on stdout. */
import { parseCommandArgs, UsageError, type CliCommand } from '../io';
import { callRemote, readRemote, REMOTE_HELP, workflowPath } from './remote';

const usage = `Usage: toolflow pull ID [--version N] > workflow.json

Download workflow ID from the Toolflow server as v1 node JSON (exactly what the editor's Export
downloads) on stdout; "pulled version N" on stderr. --version N downloads saved version N from
its history instead of the current one. The version is what "toolflow push --base" takes.

${REMOTE_HELP}`;

export const command: CliCommand = {
  summary: 'download a workflow version from a Toolflow server',
  usage,
  async run(argv, io) {
    const { positionals, values } = parseCommandArgs(argv, { version: { type: 'string' } }, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one workflow ID to pull.');
    const [id] = positionals;
    if (values.version !== undefined && !/^[1-9]\d{0,9}$/.test(values.version))
      throw new UsageError(`--version must be a positive whole number, not "${values.version}".`);
    const remote = readRemote(io);
    if (!remote) return 1;
    const query = values.version === undefined ? '' : `?version=${values.version}`;
    const answer = await callRemote(io, remote, {
      method: 'GET',
      path: `${workflowPath(id)}/export${query}`,
    });
    if (!answer) return 1;
    io.stdout(answer.text);
    const version = answer.headers.get('x-toolflow-version') ?? values.version ?? '?';
    io.stderr(`pulled version ${version} of ${id}\n`);
    return 0;
  },
};
