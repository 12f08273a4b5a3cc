/**
 * `toolflow run FILE`: test-run a workflow export headless, against the MCP servers its tools came
 * from (stdio servers configured by name in toolflow.config.json / TOOLFLOW_MCP_SERVERS, the
 * runnable samples, or Streamable HTTP URLs), with the same runner as the app. Prints each node as
 * it finishes; exits 1 when a node failed or was skipped.
 *
 * The CLI is the operator's own process, so private and loopback URLs are allowed.
 */
import { allowServerOnlyImports } from '../../lib/server-context';
import { getRunLimits } from '../../lib/run/limits';
import type { NodeRunRecord, RunLimits } from '../../lib/run/types';
import { parseJsonText } from '../../lib/tools/json-text';
import { getExportHash } from '../../lib/workflow/export';
import { migrateExport, validateExport } from '../../lib/workflow/import';
import type { WorkflowExportV1 } from '../../lib/workflow/types';
import { countOf } from '../../lib/plural';
import type { McpTarget } from '../../lib/mcp/client';
import { parseCommandArgs, readInputFile, UsageError, type CliCommand, type CliIo } from '../io';

const usage = `Usage: toolflow run FILE [options]

Run a workflow export against the MCP servers its tools came from: steps in order, independent
read-only steps side by side, each step's arguments checked against its tool's schema first, a
failed step's dependants skipped. Prints each step as it finishes and a summary; exits 0 when
every step succeeded, 1 otherwise (or when the file is not a valid export), 2 on usage errors.

Options:
  --mcp-server NAME      call every tool on this configured stdio server instead
  --mcp-stdio "CMD"      call every tool on a server started from this command instead
  --mcp-url URL          call every tool on this Streamable HTTP server instead
  --timeout SECONDS      per-step limit, counted from the call (default: TOOLFLOW_RUN_NODE_TIMEOUT_MS
                         or 60; starting a server has its own: TOOLFLOW_RUN_SERVER_START_TIMEOUT_MS or 30)
  --run-timeout SECONDS  limit for the whole run (default: TOOLFLOW_RUN_TIMEOUT_MS or 600)
  --concurrency N        most steps called at once (default 4)
  --json                 print the whole outcome (arguments and results) as JSON on stdout;
                         the step lines then go to stderr
`;

const STATUS_MARK: Record<string, string> = {
  succeeded: 'ok  ',
  failed: 'FAIL',
  skipped: 'skip',
  cancelled: 'stop',
  interrupted: 'stop',
};

function preview(record: NodeRunRecord): string {
  if (record.status !== 'succeeded') {
    const error = record.error;
    // The headline, then the code and the tool's or server's own words (this is the operator's
    // own machine: nothing is hidden).
    return error ? `${error.message}${error.detail ? `\n      ${error.code}: ${error.detail}` : ''}` : '';
  }
  const result = record.result;
  if (!result) return '';
  const text = result.structuredContent
    ? JSON.stringify(result.structuredContent)
    : result.content
        .map((b) =>
          b.type === 'text' ? String(b.text) : `[${b.type}${b.mimeType ? ` ${String(b.mimeType)}` : ''}]`,
        )
        .join(' ');
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 157)}…` : line;
}

function readSeconds(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`--${name} must be a positive number of seconds, not "${raw}".`);
  return Math.round(seconds * 1000);
}

export const command: CliCommand = {
  summary: 'test-run a workflow export against its MCP servers',
  usage,
  async run(argv, io: CliIo) {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        'mcp-server': { type: 'string' },
        'mcp-stdio': { type: 'string' },
        'mcp-url': { type: 'string' },
        timeout: { type: 'string' },
        'run-timeout': { type: 'string' },
        concurrency: { type: 'string' },
        json: { type: 'boolean' },
      },
      true,
    );
    if (positionals.length !== 1) throw new UsageError('give exactly one FILE to run.');
    const overrides = (['mcp-server', 'mcp-stdio', 'mcp-url'] as const).filter(
      (k) => values[k] !== undefined,
    );
    if (overrides.length > 1)
      throw new UsageError(`give only one of ${overrides.map((k) => '--' + k).join(', ')}.`);
    const defaults = getRunLimits(process.env);
    const concurrency = values.concurrency === undefined ? defaults.concurrency : Number(values.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new UsageError(`--concurrency must be a positive whole number, not "${values.concurrency}".`);
    const limits: RunLimits = {
      ...defaults,
      concurrency,
      nodeTimeoutMs: readSeconds(values.timeout, 'timeout') ?? defaults.nodeTimeoutMs,
      runTimeoutMs: readSeconds(values['run-timeout'], 'run-timeout') ?? defaults.runTimeoutMs,
    };

    const [file] = positionals;
    const text = await readInputFile(io, file, 'workflow export');
    if (!text.ok) return 1;
    const parsed = parseJsonText(text.text);
    const issues = parsed.ok ? validateExport(parsed.value) : parsed.error;
    if (!parsed.ok || issues.length > 0) {
      for (const issue of issues) io.stderr(`${file} ${issue.path || '/'}: ${issue.message}\n`);
      return 1;
    }
    const migrated = migrateExport(parsed.value);
    if (!migrated.ok) return 1;
    const exported = migrated.value.json as WorkflowExportV1;

    // lib/mcp is `server-only`; the CLI is server code too (see lib/server-context.ts).
    allowServerOnlyImports();
    const { getConfiguredStdioTarget, getMcpClientOptions, splitCommandLine } =
      await import('../../lib/mcp/config');
    const { planRunHere, runExportHere } = await import('../../lib/mcp/run-port');
    // On the operator's own machine, the runnable samples act in the local space.
    const { LOCAL_SAMPLE_SPACE } = await import('../../lib/mcp/sample-spaces');
    const config = { space: LOCAL_SAMPLE_SPACE };
    let override: McpTarget | undefined;
    if (values['mcp-server'] !== undefined) {
      const configured = await getConfiguredStdioTarget(values['mcp-server'], config);
      if (!configured.ok) {
        io.stderr(`toolflow run: --mcp-server: ${configured.error[0].message}\n`);
        return 1;
      }
      override = configured.value;
    } else if (values['mcp-stdio'] !== undefined) {
      const words = splitCommandLine(values['mcp-stdio']);
      if (!words.ok) throw new UsageError(`--mcp-stdio: ${words.error[0].message}`);
      const [commandName, ...args] = words.value;
      override = { kind: 'stdio', command: commandName, args };
    } else if (values['mcp-url'] !== undefined) {
      override = { kind: 'http', url: values['mcp-url'] };
    }
    const client = { ...getMcpClientOptions(), allowPrivate: true, timeoutMs: limits.nodeTimeoutMs };

    const say = values.json ? io.stderr : io.stdout;
    const hash = getExportHash(text.text);
    const plan = await planRunHere(exported, { client, config, override });
    say(
      `toolflow run: ${file} (${hash}), ${countOf(exported.nodes.length, 'step')} on ${
        plan.servers.map((s) => s.label).join(', ') || 'no server'
      }\n`,
    );
    const width = Math.max(4, ...exported.nodes.map((n) => n.id.length));
    const outcome = await runExportHere(exported, plan, {
      client,
      config,
      override,
      limits,
      onNode: (record) => {
        const mark = STATUS_MARK[record.status];
        if (!mark) return;
        const time = record.durationMs !== undefined ? ` ${record.durationMs} ms` : '';
        const cut = record.truncated?.length ? ' (stored copy cut)' : '';
        say(
          `  ${mark} ${record.nodeId.padEnd(width)}  ${record.toolName}${time}${cut}  ${preview(record)}\n`,
        );
      },
    });
    const count = (status: string) => outcome.nodes.filter((n) => n.status === status).length;
    say(
      `toolflow run: ${outcome.status}: ${count('succeeded')} succeeded, ${count('failed')} failed, ${count('skipped')} skipped${
        count('cancelled') ? `, ${count('cancelled')} cancelled` : ''
      }\n`,
    );
    if (values.json) io.stdout(JSON.stringify({ file, exportHash: hash, ...outcome }, null, 2) + '\n');
    return outcome.status === 'succeeded' ? 0 : 1;
  },
};
