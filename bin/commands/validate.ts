/** `toolflow validate FILE`: check a workflow export; one `path: message` line per problem. */
import { parseJsonText } from '../../lib/tools/json-text';
import { countOf } from '../../lib/plural';
import { validateExport } from '../../lib/workflow/import';
import { parseCommandArgs, readInputFile, UsageError, type CliCommand } from '../io';

const usage = `Usage: toolflow validate FILE

Check a workflow export (any version this Toolflow reads) against the v1 schema and for
referential integrity. Prints "FILE: ok" and exits 0 when it is valid; otherwise prints one
"path: message" line per problem on stderr and exits 1.
`;

export const command: CliCommand = {
  summary: 'check a workflow export; one line per problem',
  usage,
  async run(argv, io) {
    const { positionals } = parseCommandArgs(argv, {}, true);
    if (positionals.length !== 1) throw new UsageError('give exactly one FILE to validate.');
    const [file] = positionals;
    const text = await readInputFile(io, file, 'file');
    if (!text.ok) return 1;
    const parsed = parseJsonText(text.text);
    const issues = parsed.ok ? validateExport(parsed.value) : parsed.error;
    if (issues.length > 0) {
      for (const issue of issues) io.stderr(`${issue.path || '/'}: ${issue.message}\n`);
      return 1;
    }
    const { nodes, edges } = parsed.ok ? (parsed.value as { nodes?: unknown[]; edges?: unknown[] }) : {};
    io.stdout(
      `${file}: ok (${countOf(nodes?.length ?? 0, 'node')}, ${countOf(edges?.length ?? 0, 'edge')})\n`,
    );
    return 0;
  },
};
