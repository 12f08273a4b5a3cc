/**
 * `toolflow tools` and `build` at the level a user meets them, one block per concern: strict
 * mode, Gemini, output schemas, MCP fields, the stderr report and --fail-on-loss, hostile
 * files, and system-parameter names sent to a tool that does not declare them.
 */
import { describe, expect, it } from 'vitest';
import { findGeminiViolations } from '../../lib/tools/__fixtures__/gemini-subset';
import { findStrictViolations } from '../../lib/tools/__fixtures__/openai-strict';
import { MAX_JSON_DEPTH } from '../../lib/tools/storable';
import { runCli } from '../cli';
import { createMemoryIo } from '../__fixtures__/memory-io';

/** Shapes real declarations use: an array without items, a typeless object, a free-form object. */
const search = {
  name: 'search',
  title: 'Search',
  description: 'Search the docs',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string' },
      tags: { type: 'array', description: 'Tags' },
      point: { properties: { x: { type: 'number' } }, required: ['x'] },
      filter: { type: 'object', description: 'Any filter' },
    },
    required: ['query', 'filter'],
  },
  outputSchema: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } } },
  annotations: { readOnlyHint: true },
  icons: [{ src: 'https://example.com/search.png', mimeType: 'image/png' }],
  execution: { taskSupport: 'forbidden' },
  _meta: { 'example.com/owner': 'docs' },
};
const plain = {
  name: 'echo',
  description: 'Echo',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const count = {
  name: 'count',
  description: 'Count items',
  inputSchema: { type: 'object', properties: { items: { type: 'array', items: { type: 'string' } } } },
};
const files = { 'tools.json': JSON.stringify({ tools: [search, plain, count] }) };

async function tools(args: string[], extra: Record<string, string> = {}) {
  const { io, out } = createMemoryIo({ ...files, ...extra });
  const code = await runCli(['tools', '--in', 'tools.json', ...args], io);
  const lines = out.stderr.split('\n').filter(Boolean);
  return { code, out, lines, json: code === 0 || code === 1 ? safeParse(out.stdout) : undefined };
}
function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

describe('toolflow tools --strict', () => {
  it('always: every tool strict and passing the strict rules, each change a loss line', async () => {
    const { code, json, lines } = await tools(['--to', 'openai-chat', '--strict', 'always']);
    expect(code).toBe(0);
    for (const tool of json as { function: { strict: boolean; parameters: object } }[]) {
      expect(tool.function.strict).toBe(true);
      expect(findStrictViolations(tool.function.parameters)).toEqual([]);
    }
    expect(lines.filter((l) => l.startsWith('loss:'))).toEqual([
      expect.stringMatching(
        /^loss: tool "search" \/inputSchema\/properties\/tags: Strict mode needs an item type/,
      ),
      expect.stringMatching(
        /^loss: tool "search" \/inputSchema\/properties\/filter: This object declares no properties/,
      ),
      expect.stringMatching(/^loss: tool "search" \/outputSchema: OpenAI Chat Completions has no field/),
    ]);
  });

  it('auto: keeps the tool that strict would change non-strict, saying where, and the other strict', async () => {
    const { json, lines } = await tools(['--to', 'openai-responses', '--strict', 'auto']);
    const [searchOut, echoOut] = json as { strict: boolean; parameters: { properties: object } }[];
    expect(searchOut.strict).toBe(false);
    expect(searchOut.parameters.properties).toMatchObject({ tags: { type: 'array', items: {} } });
    expect(echoOut.strict).toBe(true);
    expect(lines).toContainEqual(
      expect.stringMatching(/^note: tool "search" \/inputSchema\/properties\/tags: Left non-strict/),
    );
  });

  it('never (the default): schemas as declared, item-less arrays given items: {}', async () => {
    const { json, lines } = await tools(['--to', 'openai-chat']);
    const [searchOut] = json as { function: { parameters: { properties: Record<string, object> } } }[];
    expect(searchOut.function.parameters.properties.tags).toEqual({
      type: 'array',
      description: 'Tags',
      items: {},
    });
    expect(lines.some((l) => l.includes('Strict mode'))).toBe(false);
  });

  it('refuses another mode with exit 2', async () => {
    expect((await tools(['--to', 'openai-chat', '--strict', 'yes'])).code).toBe(2);
  });
});

describe('toolflow tools --to gemini', () => {
  it('parameters: inside the Gemini subset, the free-form object sent as JSON text and said so', async () => {
    const { json, lines } = await tools(['--to', 'gemini']);
    const [decl] = (json as { functionDeclarations: { parameters: object; response: object }[] })
      .functionDeclarations;
    expect(findGeminiViolations(decl.parameters)).toEqual([]);
    expect(findGeminiViolations(decl.response)).toEqual([]);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^loss: tool "search" \/inputSchema\/properties\/filter: Gemini rejects an object/,
      ),
    );
  });

  it('parametersJsonSchema: the schemas as declared, no loss', async () => {
    const { json, lines } = await tools(['--to', 'gemini', '--gemini-schema', 'parametersJsonSchema']);
    const [decl] = (json as { functionDeclarations: Record<string, unknown>[] }).functionDeclarations;
    expect(decl.parametersJsonSchema).toEqual(search.inputSchema);
    expect(decl.responseJsonSchema).toEqual(search.outputSchema);
    expect(lines.filter((l) => l.startsWith('loss:'))).toEqual([]);
    expect((await tools(['--to', 'gemini', '--gemini-schema', 'openapi'])).code).toBe(2);
  });
});

describe('output schemas through a rendered file', () => {
  it.each(['openai-responses', 'gemini'])(
    'a workflow built from %s output keeps the named outputs',
    async (to) => {
      const rendered = await tools(['--to', to]);
      const plan = {
        task: 't',
        steps: [
          { id: 's1', tool: 'search', args: { query: 'x', filter: '{}' } },
          { id: 's2', tool: 'count', args: { items: '{{s1.hits}}' } },
        ],
        edges: [],
      };
      const { io, out } = createMemoryIo({ 'r.json': rendered.out.stdout, 'p.json': JSON.stringify(plan) });
      expect(await runCli(['build', '--tools', 'r.json', '--plan', 'p.json'], io), out.stderr).toBe(0);
      const file = JSON.parse(out.stdout);
      expect(file.edges).toEqual([
        expect.objectContaining({ source: 's1', source_output: 'hits', target: 's2' }),
      ]);
    },
  );
});

describe('toolflow tools --to mcp', () => {
  it('keeps title, annotations, icons, execution, _meta and the output schema, and reports nothing', async () => {
    const { json, out } = await tools(['--to', 'mcp']);
    const [tool] = (json as { tools: Record<string, unknown>[] }).tools;
    for (const key of ['title', 'annotations', 'icons', 'execution', '_meta', 'outputSchema'] as const)
      expect(tool[key]).toEqual(search[key]);
    expect(out.stderr).toBe('');
  });
});

describe('the conversion report', () => {
  it('prints one line per issue: severity, tool, JSON path, what changed', async () => {
    const { lines } = await tools(['--to', 'anthropic']);
    expect(lines).toEqual([
      'note: tool "search" /title: Anthropic has no title field; the title was left out.',
      'loss: tool "search" /outputSchema: Anthropic has no field for an output schema; it was left out, so a workflow built from this file has the one output "result" instead of "hits".',
      'note: tool "search" /annotations: Anthropic has no field for the tool\'s annotations (hints such as readOnlyHint); left out.',
      'note: tool "search" /icons: Anthropic has no field for the tool\'s icons; left out.',
      'note: tool "search" /execution: Anthropic has no field for the tool\'s execution settings; left out.',
      'note: tool "search" /_meta: Anthropic has no field for the tool\'s _meta; left out.',
    ]);
  });

  it('--fail-on-loss exits 1 on a change of meaning, 0 when only notes remain', async () => {
    const lossy = await tools(['--to', 'gemini', '--fail-on-loss']);
    expect(lossy.code).toBe(1);
    expect(lossy.lines.at(-1)).toMatch(/changes of meaning converting to gemini .*--fail-on-loss/);
    const only = { 'echo.json': JSON.stringify({ tools: [{ ...plain, title: 'Echo' }] }) };
    const { io, out } = createMemoryIo(only);
    expect(await runCli(['tools', '--in', 'echo.json', '--to', 'gemini', '--fail-on-loss'], io)).toBe(0);
    expect(out.stderr).toMatch(/^note: tool "echo" \/title/);
  });

  it('names the toolkit a tool came from in the prompt catalogue', async () => {
    const { out } = await tools(['--to', 'prompt']);
    expect(out.stdout).toContain('\nSource: file, toolkit "tools"\n');
    expect(out.stdout).not.toContain('Source: unknown');
  });
});

describe('hostile files', () => {
  it('refuses a schema nested 1000 levels deep with the file and the depth', async () => {
    let schema: object = { type: 'string' };
    for (let i = 0; i < 1000; i++) schema = { type: 'object', properties: { a: schema } };
    const deep = JSON.stringify({
      tools: [{ name: 't', inputSchema: { type: 'object', properties: { x: schema } } }],
    });
    const { io, out } = createMemoryIo({ 'deep.json': deep });
    expect(await runCli(['tools', '--in', 'deep.json', '--to', 'openai-chat'], io)).toBe(1);
    expect(out.stderr).toMatch(
      new RegExp(
        `^deep\\.json: The JSON is nested 2006 levels deep \\(level ${MAX_JSON_DEPTH + 1} starts at line 1, column \\d+\\); Toolflow reads at most ${MAX_JSON_DEPTH} levels`,
      ),
    );
    expect(out.stderr).not.toContain('internal error');
  });

  it('refuses a plan whose argument is nested 1000 levels deep with the file and the depth', async () => {
    let value: unknown = 1;
    for (let i = 0; i < 1000; i++) value = { a: value };
    const plan = JSON.stringify({
      task: 't',
      steps: [{ id: 's1', tool: 'echo', args: { text: value } }],
      edges: [],
    });
    const { io, out } = createMemoryIo({ ...files, 'plan.json': plan });
    expect(await runCli(['build', '--tools', 'tools.json', '--plan', 'plan.json'], io)).toBe(1);
    expect(out.stderr).toMatch(/^plan\.json: The JSON is nested 1004 levels deep/);
  });

  it('builds a tool with a 100,000-value enum (compiled once, without the pairwise meta-schema check)', async () => {
    const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const big = {
      name: 'pick',
      description: 'Pick',
      inputSchema: { type: 'object', properties: { v: { type: 'string', enum: values } }, required: ['v'] },
    };
    const plan = {
      task: 't',
      steps: [1, 2, 3].map((n) => ({ id: `s${n}`, tool: 'pick', args: { v: `v${n}` } })),
      edges: [],
    };
    const { io, out } = createMemoryIo({
      'big.json': JSON.stringify([big]),
      'plan.json': JSON.stringify(plan),
    });
    expect(await runCli(['build', '--tools', 'big.json', '--plan', 'plan.json'], io), out.stderr).toBe(0);
    expect(JSON.parse(out.stdout).nodes.map((n: { problems?: unknown[] }) => n.problems ?? [])).toEqual([
      [],
      [],
      [],
    ]);
  }, 60_000);
});

describe('system-parameter names', () => {
  it('are unknown args of a tool that does not declare them, and skipped where it does', async () => {
    const withStorage = {
      ...plain,
      name: 'store',
      inputSchema: { type: 'object', properties: { text: { type: 'string' }, storage: { type: 'string' } } },
    };
    const plan = {
      task: 't',
      steps: [
        { id: 's1', tool: 'echo', args: { text: 'a', executor: 'local', storage: 's3://b' } },
        { id: 's2', tool: 'store', args: { text: 'b', storage: 's3://b' } },
      ],
      edges: [],
    };
    const { io, out } = createMemoryIo({
      't.json': JSON.stringify([plain, withStorage]),
      'p.json': JSON.stringify(plan),
    });
    expect(await runCli(['build', '--tools', 't.json', '--plan', 'p.json'], io), out.stderr).toBe(0);
    const [s1, s2] = JSON.parse(out.stdout).nodes;
    expect(s1.unknown_args).toEqual(['executor', 'storage']);
    expect(s2.unknown_args).toEqual([]);
    expect(s2.input_parameters.map((p: { name: string }) => p.name)).toEqual(['text']);
  });
});
