/**
 * Fuzz target `conversions`: declarations in the shapes real tool lists use and
 * converters get wrong (objects given only by `properties`, arrays without `items`, free-form
 * objects and open maps, untyped values, deep nesting, huge enums), mixed with the general
 * declaration generator, converted to every provider. Each result must be valid for its
 * provider, or a conversion issue of that tool must say what changed:
 *
 * - OpenAI (Chat and Responses): the official tool schema; `strict: true` parameters pass the
 *   strict rules (`findStrictViolations`) unless a strict limit is reported; `auto` sends only
 *   faultless tools strict and says why the others are not; no array is sent without `items`.
 * - Gemini: `parameters`/`response` inside its subset (`findGeminiViolations`);
 *   `parametersJsonSchema` loses nothing.
 * - MCP to MCP: nothing reported, everything imported back.
 * - Nesting past the documented limit is refused with `too_deep`, never a stack overflow.
 */
import fc from 'fast-check';
import { findGeminiViolations } from '../../lib/tools/__fixtures__/gemini-subset';
import { compileSpecSchema, describeErrors } from '../../lib/tools/__fixtures__/openai-spec';
import { findStrictViolations } from '../../lib/tools/__fixtures__/openai-strict';
import { importDeclarations } from '../../lib/tools/import';
import { MAX_JSON_DEPTH } from '../../lib/tools/json-text';
import { convertTools } from '../../lib/tools/render';
import type { ConversionIssue, JsonSchema, ToolDeclaration } from '../../lib/tools/types';
import chatToolSpec from '../fixtures/spec/openai/ChatCompletionTool.json';
import functionToolSpec from '../fixtures/spec/openai/FunctionTool.json';
import { importableList } from './declarations';
import { check, jsonEqual, normalizeJson, show, type Json } from './json';
import type { FuzzTarget } from './types';

const paramName = fc.constantFrom('a', 'b', 'config', 'tags', 'items', 'filter', 'point', '__proto__', 'a/b');

/** The shapes real tool lists use, as leaves. */
const awkwardLeaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constant<Json>({ type: 'string' }),
  fc.constant<Json>({ type: 'array' }),
  fc.constant<Json>({ type: ['string', 'array'] }),
  fc.constant<Json>({ type: 'array', description: 'untyped list', default: [] }),
  fc.constant<Json>({ type: 'object' }),
  fc.constant<Json>({ type: 'object', additionalProperties: true, description: 'free-form' }),
  fc.constant<Json>({ type: 'object', additionalProperties: { type: 'integer' } }),
  fc.constant<Json>({ type: 'object', properties: {} }),
  fc.constant<Json>({}),
  fc.constant<Json>({ description: 'anything' }),
  fc.constant<Json>({ type: ['object', 'null'] }),
  fc
    .integer({ min: 1, max: 2_500 })
    .map<Json>((n) => ({ type: 'string', enum: Array.from({ length: n }, (_, i) => `v${i}`) })),
  fc.integer({ min: 1, max: 300 }).map<Json>((n) => ({ enum: Array.from({ length: n }, (_, i) => i) })),
);

const awkwardSchema: fc.Arbitrary<Json> = fc.letrec<{ schema: Json; object: Json; array: Json }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, awkwardLeaf, tie('object'), tie('array')),
  object: fc
    .uniqueArray(fc.tuple(paramName, tie('schema')), { minLength: 1, maxLength: 3, selector: ([n]) => n })
    .chain((entries) =>
      fc
        .record({
          typed: fc.boolean(),
          required: fc.subarray(entries.map(([n]) => n)),
        })
        .map(({ typed, required }) => {
          const node: Record<string, Json> = {};
          if (typed) node.type = 'object';
          node.properties = Object.fromEntries(entries) as Json;
          if (required.length > 0) node.required = required;
          return node as Json;
        }),
    ),
  array: fc
    .record({ typed: fc.boolean(), items: tie('schema') })
    .map((({ typed, items }) => (typed ? { type: 'array', items } : { items })) as (v: {
      typed: boolean;
      items: Json;
    }) => Json),
})).schema;

/** An object nested `depth` levels, each level an object property (deep nesting). */
const deepSchema = fc.integer({ min: 1, max: 140 }).map<Json>((depth) => {
  let node: Json = { type: 'array' };
  for (let i = 0; i < depth; i++) node = { type: 'object', properties: { child: node }, required: ['child'] };
  return node;
});

const awkwardTool = fc
  .record({
    name: fc.constantFrom('search', 'fetch.page', 'store', 'run', 'a'),
    properties: fc.uniqueArray(
      fc.tuple(
        paramName,
        fc.oneof({ weight: 4, arbitrary: awkwardSchema }, { weight: 1, arbitrary: deepSchema }),
      ),
      {
        maxLength: 4,
        selector: ([n]) => n,
      },
    ),
    output: fc.option(awkwardSchema, { nil: undefined }),
    title: fc.option(fc.constantFrom('Title', ''), { nil: undefined }),
  })
  .map(({ name, properties, output, title }) => {
    const tool: Record<string, Json> = {
      name,
      description: 'd',
      inputSchema: { type: 'object', properties: Object.fromEntries(properties) as Json },
    };
    if (title !== undefined) tool.title = title;
    if (output !== undefined && typeof output === 'object' && output !== null && 'properties' in output)
      tool.outputSchema = { type: 'object', properties: (output as { properties: Json }).properties };
    return normalizeJson<Json>(tool);
  });

const conversionCase = fc.record({
  awkward: fc.uniqueArray(awkwardTool, { maxLength: 3, selector: (t) => (t as { name: string }).name }),
  general: importableList(2),
});

let validateChat: ReturnType<typeof compileSpecSchema> | undefined;
let validateResponses: ReturnType<typeof compileSpecSchema> | undefined;

/** True when every array schema in `node` has `items` (OpenAI rejects one that has not). */
function findItemlessArrays(node: unknown, path = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((v, i) => findItemlessArrays(v, `${path}/${i}`));
  if (typeof node !== 'object' || node === null) return [];
  const schema = node as JsonSchema;
  const found: string[] = [];
  const isArray = schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
  if (isArray && schema.items === undefined) found.push(path);
  for (const [key, value] of Object.entries(schema)) {
    if (['enum', 'const', 'default', 'examples', 'required', 'type'].includes(key)) continue;
    found.push(...findItemlessArrays(value, `${path}/${key}`));
  }
  return found;
}

function issuesOf(issues: readonly ConversionIssue[], tool: string) {
  return issues.filter((i) => i.tool === tool);
}

function checkIssueShape(issues: readonly ConversionIssue[], names: ReadonlySet<string>): void {
  for (const issue of issues) {
    check(names.has(issue.tool), () => `issue names no declared tool: ${show(issue)}`);
    check(issue.path === '' || issue.path.startsWith('/'), () => `issue path is no pointer: ${show(issue)}`);
    check(issue.severity === 'loss' || issue.severity === 'note', () => `bad severity: ${show(issue)}`);
    check(
      typeof issue.message === 'string' && issue.message.length >= 10,
      () => `no message: ${show(issue)}`,
    );
  }
}

function checkOpenAi(tools: ToolDeclaration[]): void {
  validateChat ??= compileSpecSchema(chatToolSpec);
  validateResponses ??= compileSpecSchema(functionToolSpec);
  const names = new Set(tools.map((t) => t.name));
  for (const strict of ['never', 'auto', 'always'] as const) {
    const chat = convertTools(tools, 'openai-chat', { strict });
    const responses = convertTools(tools, 'openai-responses', { strict });
    checkIssueShape(chat.issues, names);
    chat.output.forEach((rendered, i) => {
      const tool = tools[i];
      check(
        validateChat!(rendered),
        () => `${tool.name}: not a ChatCompletionTool: ${describeErrors(validateChat!)}`,
      );
      check(
        jsonEqual(rendered.function.parameters, responses.output[i].parameters) &&
          rendered.function.strict === responses.output[i].strict,
        `${tool.name}: Chat and Responses send different parameters`,
      );
      check(
        validateResponses!(responses.output[i]),
        () => `${tool.name}: not a FunctionTool: ${describeErrors(validateResponses!)}`,
      );
      const parameters = rendered.function.parameters;
      const own = issuesOf(chat.issues, tool.name).filter((x) => x.path.startsWith('/inputSchema'));
      if (rendered.function.strict) {
        const violations = findStrictViolations(parameters);
        const limited = own.some((x) => x.code === 'strict_limit' || x.code === 'strict_root');
        check(
          violations.length === 0 || (strict === 'always' && limited),
          () =>
            `${tool.name} (${strict}): strict parameters break the strict rules, unreported: ${show(violations)}`,
        );
        if (strict === 'auto')
          check(own.length === 0, `${tool.name}: auto sent a tool strict although strict changed it`);
        if (strict === 'always')
          check(
            own.every((x) => x.severity === 'loss'),
            `${tool.name}: a strict change is not a loss`,
          );
      } else {
        check(strict !== 'always', `${tool.name}: always sent a tool non-strict`);
        if (strict === 'auto')
          check(own.length > 0, () => `${tool.name}: auto left the tool non-strict without saying why`);
        const itemless = findItemlessArrays(parameters);
        check(
          itemless.length === 0,
          () => `${tool.name}: arrays without items sent to OpenAI: ${show(itemless)}`,
        );
      }
      if (tool.outputSchema !== undefined && Object.keys(tool.outputSchema.properties ?? {}).length > 0) {
        check(
          issuesOf(chat.issues, tool.name).some((x) => x.path === '/outputSchema' && x.severity === 'loss'),
          `${tool.name}: Chat dropped the output schema silently`,
        );
        check(
          jsonEqual(responses.output[i].output_schema, tool.outputSchema),
          `${tool.name}: Responses lost the output schema`,
        );
      }
    });
  }
}

function checkGemini(tools: ToolDeclaration[]): void {
  const names = new Set(tools.map((t) => t.name));
  const { output, issues } = convertTools(tools, 'gemini');
  checkIssueShape(issues, names);
  output.functionDeclarations.forEach((decl, i) => {
    for (const [what, schema] of [
      ['parameters', decl.parameters],
      ['response', decl.response],
    ] as const) {
      if (schema === undefined) continue;
      const violations = findGeminiViolations(schema);
      check(
        violations.length === 0,
        () => `${tools[i].name}: Gemini ${what} outside its subset: ${show(violations)}`,
      );
    }
  });
  const lossless = convertTools(tools, 'gemini', { geminiSchema: 'json-schema' });
  check(
    lossless.issues.every((x) => x.severity === 'note'),
    () => `parametersJsonSchema lost something: ${show(lossless.issues)}`,
  );
  lossless.output.functionDeclarations.forEach((decl, i) => {
    check(
      jsonEqual(decl.parametersJsonSchema, tools[i].inputSchema),
      `${tools[i].name}: parametersJsonSchema changed`,
    );
  });
}

function checkMcp(tools: ToolDeclaration[]): void {
  const { output, issues } = convertTools(tools, 'mcp');
  check(issues.length === 0, () => `MCP to MCP reported ${show(issues)}`);
  const back = importDeclarations(normalizeJson(output));
  check(back.ok, () => `MCP output does not import: ${show(!back.ok && back.error)}`);
  const strip = (list: ToolDeclaration[]) => list.map(({ source: _source, ...rest }) => rest);
  check(
    jsonEqual(normalizeJson(strip(back.value.tools)), normalizeJson(strip(tools))),
    'MCP to MCP changed the tools',
  );
}

function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v && typeof v === 'object') {
      max = Math.max(max, d);
      for (const child of Object.values(v)) stack.push([child, d + 1]);
    }
  }
  return max;
}

export const conversionsTarget: FuzzTarget = {
  name: 'conversions',
  title: 'awkward real-world schemas → every provider: valid, or the change is reported',
  share: 0.1,
  property: () =>
    fc.property(conversionCase, ({ awkward, general }) => {
      const file = {
        tools: [
          ...awkward,
          ...general.filter((g) => !awkward.some((a) => (a as { name: string }).name === g.name)),
        ],
      };
      const imported = importDeclarations(normalizeJson(file));
      if (depthOf(file) > MAX_JSON_DEPTH) {
        check(
          !imported.ok && imported.error[0].code === 'too_deep',
          'a file past the depth limit was not refused as too_deep',
        );
        return;
      }
      check(imported.ok, () => `the generated file was refused: ${show(!imported.ok && imported.error)}`);
      const tools = imported.value.tools;
      checkOpenAi(tools);
      checkGemini(tools);
      checkMcp(tools);
    }),
};
