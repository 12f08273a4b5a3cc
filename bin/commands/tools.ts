/** `toolflow tools`: read declarations in any known shape and render them for one provider. */
import { parseDeclarationsText, renderTools, type RenderTarget } from '../../lib/tools';
import { parseCommandArgs, printIssues, readInputFile, UsageError, type CliCommand } from '../io';
import { hasMcpSource, MCP_OPTIONS, MCP_USAGE, readMcpTools } from './tools-mcp';

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
  --strict               OpenAI strict mode (openai-chat, openai-responses)
  --omit-params a,b      parameters to leave out (e.g. executor,storage)
`;

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
      strict: { type: 'boolean' },
      'omit-params': { type: 'string' },
      ...MCP_OPTIONS,
    });
    const fromMcp = hasMcpSource(values);
    if (!values.in && !fromMcp)
      throw new UsageError('--in FILE (or --mcp-url, --mcp-stdio, --mcp-server) is required.');
    if (!values.to) throw new UsageError(`--to TARGET is required (${TARGETS.join(', ')}).`);
    const target = values.to;
    if (!isTarget(target))
      throw new UsageError(`unknown target "${target}"; use one of ${TARGETS.join(', ')}.`);

    let tools;
    if (fromMcp) {
      tools = await readMcpTools(values, io);
      if (!tools) return 1;
    } else {
      const text = await readInputFile(io, values.in!, '--in file');
      if (!text.ok) return 1;
      const imported = parseDeclarationsText(text.text);
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
    const rendered = renderTools(tools, target, { strict: values.strict, omitParams });
    io.stdout(
      typeof rendered === 'string'
        ? rendered.endsWith('\n')
          ? rendered
          : rendered + '\n'
        : JSON.stringify(rendered, null, 2) + '\n',
    );
    return 0;
  },
};
