/**
 * `toolflow push FILE --workflow ID [--base N]`: a workflow export (a built or edited file) saved
 * on a Toolflow server as the next version of workflow ID, with the editor's version check.
 */
import { parseJsonText } from '../../lib/tools/json-text';
import { importWorkflow } from '../../lib/workflow/import';
import { parseCommandArgs, readInputFile, UsageError, type CliCommand } from '../io';
import { callRemote, readRemote, REMOTE_HELP, workflowPath } from './remote';

const usage = `Usage: toolflow push FILE --workflow ID [--base N]

Save the workflow export FILE (from "toolflow build", "toolflow plan" or the editor's Export) as
the next version of workflow ID on the Toolflow server; its history keeps the version before.
--base N is the version your file was made from (what "toolflow pull" printed): if anyone saved
the workflow since, nothing is saved and the push says so (exit 1). Without --base the file is
saved on top of whatever version the server has.

${REMOTE_HELP}`;

interface CurrentWorkflow {
  workflow: { id: string; name: string; version: number };
}

export const command: CliCommand = {
  summary: 'save a workflow export as a new version on a Toolflow server',
  usage,
  async run(argv, io) {
    const { positionals, values } = parseCommandArgs(
      argv,
      { workflow: { type: 'string', short: 'w' }, base: { type: 'string' } },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give exactly one FILE to push.');
    if (!values.workflow)
      throw new UsageError('--workflow ID is required: the workflow to save a version of.');
    if (values.base !== undefined && !/^[1-9]\d{0,9}$/.test(values.base))
      throw new UsageError(`--base must be a positive whole number, not "${values.base}".`);
    const [file] = positionals;
    const id = values.workflow;
    const text = await readInputFile(io, file, 'file');
    if (!text.ok) return 1;
    const parsed = parseJsonText(text.text);
    const imported = parsed.ok ? importWorkflow(parsed.value) : parsed;
    if (!imported.ok) {
      for (const issue of imported.error) io.stderr(`${file} ${issue.path || '/'}: ${issue.message}\n`);
      io.stderr(`toolflow push: ${file} is not a workflow export Toolflow can read; nothing was pushed.\n`);
      return 1;
    }
    const remote = readRemote(io);
    if (!remote) return 1;
    const current = await callRemote(io, remote, { method: 'GET', path: workflowPath(id) });
    if (!current) return 1;
    const server = (JSON.parse(current.text) as CurrentWorkflow).workflow;
    const base = values.base === undefined ? server.version : Number(values.base);
    const { document, meta } = imported.value;
    const saved = await callRemote(io, remote, {
      method: 'PUT',
      path: workflowPath(id),
      body: { version: base, name: meta.name.trim() || server.name, task: document.task, document },
      expected: [409],
    });
    if (!saved) return 1;
    if (saved.status === 409) {
      const now = (JSON.parse(saved.text) as { current?: { version?: number } }).current?.version;
      io.stderr(
        `toolflow push: nothing was pushed: workflow ${id} changed on the server since version ${base} (it is at version ${now ?? 'a newer one'} now). ` +
          `Pull it (toolflow pull ${id}), bring your change into that file, and push again with --base ${now ?? '<its version>'}; or push without --base to save yours on top of it.\n`,
      );
      return 1;
    }
    const version = (JSON.parse(saved.text) as CurrentWorkflow).workflow.version;
    io.stdout(`pushed ${file} to ${id}: version ${version} (was ${server.version})\n`);
    return 0;
  },
};
