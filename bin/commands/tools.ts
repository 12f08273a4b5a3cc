/** `toolflow tools`: read declarations in any known shape and render them for one provider. */
import { basename, extname } from 'node:path';
import {
  convertTools,
  parseDeclarationsText,
  type ConversionIssue,
  type RenderTarget,
} from '../../lib/tools';
import { parseCommandArgs, printIssues, readInputFile, UsageError, type CliCommand } from '../io';
import { hasMcpSource, MCP_OPTIONS, MCP_USAGE, readMcpTools } from './tools-mcp';
import { createLookupTable } from '../../lib/tools/json-value';

const TARGETS: readonly RenderTarget[] = [
  'openai-chat',
  'openai-responses',
  'gemini',
  'anthropic',
  'mcp',
  'prompt',
];

const usage = `Usage: toolflow tools (--in FILE | --mcp-url URL | --mcp-stdio "CMD" | --mcp-server NAME) --to TARGET [options]

Convert tool declarations (MCP tools/list, OpenAI Chat or Responses, Gemini, Anthropic or a
bare list; the shape is detected), or the tools of a live MCP server, to TARGET and print them
on stdout.

  --in FILE              the declarations file
${MCP_USAGE}  --to TARGET            ${TARGETS.join(' | ')}
  --strict MODE          OpenAI strict mode (openai-chat, openai-responses): never (default),
                         always (strict schemas, whatever that changes), or auto (strict only
                         for tools whose meaning survives; the others stay non-strict)
  --gemini-schema FIELD  gemini: parameters (default; Gemini's OpenAPI subset, converted) or
                         parametersJsonSchema (the JSON Schema as declared, nothing lost)
  --omit-params a,b      parameters to leave out (e.g. executor,storage)
  --fail-on-loss         exit 1 when the conversion changes what a tool accepts or returns

Every change the conversion makes is printed on stderr, one line per change:
  loss: tool "NAME" /json/path: what changed      (what the provider sees is not what is declared)
  note: tool "NAME" /json/path: what changed      (meaning kept: renamed, left non-strict, metadata)
`;

const STRICT_MODES = ['auto', 'always', 'never'] as const;
const GEMINI_SCHEMAS = createLookupTable({
  parameters: 'openapi',
  parametersJsonSchema: 'json-schema',
} as const);

/** One stderr line per conversion issue. */
export function formatConversionIssue(issue: ConversionIssue): string {
  return `${issue.severity}: tool ${JSON.stringify(issue.tool)} ${issue.path || '/'}: ${issue.message}\n`;
}

function isTarget(value: string): value is RenderTarget {
  return (TARGETS as readonly string[]).includes(value);
}

export const command: CliCommand = {
  summary: 'convert tool declarations to a provider format',
  usage,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      in: { type: 'string' },
      to: { type: 'string' },
      strict: { type: 'string' },
      'gemini-schema': { type: 'string' },
      'omit-params': { type: 'string' },
      'fail-on-loss': { type: 'boolean' },
      ...MCP_OPTIONS,
    });
    const fromMcp = hasMcpSource(values);
    if (!values.in && !fromMcp)
      throw new UsageError('--in FILE (or --mcp-url, --mcp-stdio, --mcp-server) is required.');
    if (!values.to) throw new UsageError(`--to TARGET is required (${TARGETS.join(', ')}).`);
    const target = values.to;
    if (!isTarget(target))
      throw new UsageError(`unknown target "${target}"; use one of ${TARGETS.join(', ')}.`);

    const strict = values.strict ?? 'never';
    if (!(STRICT_MODES as readonly string[]).includes(strict))
      throw new UsageError(`--strict must be one of ${STRICT_MODES.join(', ')}, not "${strict}".`);
    const geminiField = values['gemini-schema'] ?? 'parameters';
    const geminiSchema = GEMINI_SCHEMAS[geminiField];
    if (geminiSchema === undefined)
      throw new UsageError(
        `--gemini-schema must be one of ${Object.keys(GEMINI_SCHEMAS).join(', ')}, not "${geminiField}".`,
      );

    let tools;
    if (fromMcp) {
      tools = await readMcpTools(values, io);
      if (!tools) return 1;
    } else {
      const text = await readInputFile(io, values.in!, '--in file');
      if (!text.ok) return 1;
      // The file is the tools' toolkit: the prompt catalogue names it as their source.
      const toolkit = basename(values.in!, extname(values.in!));
      const imported = parseDeclarationsText(text.text, { source: { kind: 'file', toolkit } });
      if (!imported.ok) {
        printIssues(io, values.in!, imported.error);
        return 1;
      }
      tools = imported.value.tools;
    }
    const omitParams = values['omit-params']
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const { output, issues } = convertTools(tools, target, {
      strict: strict as (typeof STRICT_MODES)[number],
      geminiSchema,
      omitParams,
    });
    io.stdout(
      typeof output === 'string'
        ? output.endsWith('\n')
          ? output
          : output + '\n'
        : JSON.stringify(output, null, 2) + '\n',
    );
    for (const issue of issues) io.stderr(formatConversionIssue(issue));
    const losses = issues.filter((issue) => issue.severity === 'loss').length;
    if (values['fail-on-loss'] && losses > 0) {
      io.stderr(
        `toolflow tools: ${losses} change${losses === 1 ? '' : 's'} of meaning converting to ${target} (listed above); exit 1 because of --fail-on-loss.\n`,
      );
      return 1;
    }
    return 0;
  },
};
