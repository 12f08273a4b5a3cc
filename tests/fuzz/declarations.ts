/**
 * Fuzz targets: declaration files in every format → `importDeclarations` / `parseDeclarationsText`.
 *
 * - `declarations`: valid declarations rendered by `renderTools` for every target (and the bare
 *   list, and MCP inside a JSON-RPC response) import back with the same names (through the
 *   provider's aliases), descriptions and properties.
 * - `declarations-mutated`: those files with keys dropped, values of the wrong type, huge
 *   strings, deep nesting, unicode, duplicated tools, or the JSON text cut short or garbled.
 *   The importer never throws; it either returns well-formed declarations or issues that each
 *   have a code, a message and a JSON Pointer that resolves into the input.
 */
import fc from 'fast-check';
import { createToolAliases, getToolNamePattern } from '../../lib/tools/aliases';
import { importDeclarations, parseDeclarationsText, type ImportedDeclarations } from '../../lib/tools/import';
import { getObjectProperties } from '../../lib/tools/json-schema';
import { MAX_JSON_DEPTH } from '../../lib/tools/json-text';
import { renderTools } from '../../lib/tools/render';
import type { JsonSchema, RenderTarget, ToolDeclaration } from '../../lib/tools/types';
import type { Issue, Result } from '../../lib/result';
import {
  check,
  checkIssuePath,
  isObject,
  jsonEqual,
  mutateJson,
  mutateText,
  mutation,
  normalizeJson,
  objectFrom,
  resolvePointer,
  show,
  sometimes,
  textMutation,
  type Json,
} from './json';
import { declaration } from './schemas';
import type { FuzzTarget } from './types';

/** Every file shape the importer reads, and how each is produced from canonical tools. */
export type FileFormat =
  | 'openai-chat'
  | 'openai-chat-strict'
  | 'openai-responses'
  | 'gemini'
  | 'gemini-json-schema'
  | 'anthropic'
  | 'mcp'
  | 'mcp-jsonrpc'
  | 'bare';

export const FILE_FORMATS: readonly FileFormat[] = [
  'openai-chat',
  'openai-chat-strict',
  'openai-responses',
  'gemini',
  'gemini-json-schema',
  'anthropic',
  'mcp',
  'mcp-jsonrpc',
  'bare',
];

/** The render target behind a file format (undefined: built by hand). */
function getTarget(format: FileFormat): RenderTarget | undefined {
  switch (format) {
    case 'openai-chat':
    case 'openai-chat-strict':
      return 'openai-chat';
    case 'gemini':
    case 'gemini-json-schema':
      return 'gemini';
    case 'mcp':
    case 'mcp-jsonrpc':
      return 'mcp';
    case 'bare':
      return undefined;
    default:
      return format;
  }
}

/** A declarations file of `format` holding `tools`, as JSON. */
export function renderFile(tools: readonly ToolDeclaration[], format: FileFormat): Json {
  let rendered: unknown;
  switch (format) {
    case 'bare':
      rendered = tools.map((t) => ({
        name: t.name,
        ...(t.title !== undefined ? { title: t.title } : {}),
        description: t.description,
        parameters: t.inputSchema,
      }));
      break;
    case 'openai-chat-strict':
      rendered = renderTools(tools, 'openai-chat', { strict: 'auto' });
      break;
    case 'gemini-json-schema':
      rendered = renderTools(tools, 'gemini', { geminiSchema: 'json-schema' });
      break;
    case 'mcp-jsonrpc':
      rendered = { jsonrpc: '2.0', id: 1, result: renderTools(tools, 'mcp') };
      break;
    default:
      rendered = renderTools(tools, format);
  }
  return normalizeJson(rendered);
}

/**
 * The schema with every parameter named "" renamed "_empty", wherever the importer reads
 * parameter names (root properties, allOf branches, $ref targets): it refuses such names.
 */
function renameEmptyParams(schema: JsonSchema): JsonSchema {
  const root = structuredClone(schema);
  const seen = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    const properties = node.properties;
    if (isObject(properties) && Object.hasOwn(properties, '')) {
      node.properties = objectFrom(
        Object.keys(properties).map((name) => [name === '' ? '_empty' : name, properties[name]]),
      );
    }
    if (Array.isArray(node.allOf)) node.allOf.forEach(walk);
    if (typeof node.$ref === 'string') {
      const target = resolvePointer(root, node.$ref.replace(/^#/, ''));
      if (target?.found) walk(target.value);
    }
  };
  walk(root);
  return root;
}

/**
 * Declarations the importer must accept: object schemas, object properties, string `required`,
 * no parameter or output named "".
 */
const importableDeclaration: fc.Arbitrary<ToolDeclaration> = declaration.map(({ declaration: d }) => {
  const schema: JsonSchema = renameEmptyParams(d.inputSchema);
  if (!isObject(schema.properties) && schema.properties !== undefined) schema.properties = {};
  if (schema.required !== undefined) {
    schema.required = Array.isArray(schema.required)
      ? schema.required.filter((r) => typeof r === 'string')
      : [];
  }
  const out: ToolDeclaration = { ...d, inputSchema: schema };
  if (out.outputSchema !== undefined && !isObject(out.outputSchema.properties)) delete out.outputSchema;
  if (out.outputSchema !== undefined) out.outputSchema = renameEmptyParams(out.outputSchema);
  return normalizeJson<ToolDeclaration>(out);
});

/** Up to `max` importable declarations with distinct names that are not blank. */
export function importableList(max: number): fc.Arbitrary<ToolDeclaration[]> {
  return fc
    .uniqueArray(importableDeclaration, { maxLength: max, selector: (d) => d.name })
    .map((list) => list.filter((d) => d.name.trim() !== ''));
}

const paramNames = (schema: JsonSchema) => getObjectProperties(schema, schema).properties.map((p) => p.name);

/** import(render(tools)) keeps names (through aliases), descriptions and properties. */
export function checkRoundTrip(tools: ToolDeclaration[], format: FileFormat): void {
  const file = renderFile(tools, format);
  const text = JSON.stringify(file, null, format === 'bare' ? 2 : undefined);
  const result = parseDeclarationsText(text);
  check(result.ok, () => `a valid ${format} file was refused: ${show(!result.ok && result.error)}`);
  const imported = result.value.tools;
  check(
    imported.length === tools.length,
    `${tools.length} tools rendered as ${format}, ${imported.length} imported`,
  );
  const target = getTarget(format);
  const pattern = target ? getToolNamePattern(target) : undefined;
  const aliases = pattern ? createToolAliases(tools, { pattern }) : undefined;
  const lossless = format !== 'gemini' && format !== 'openai-chat-strict';
  tools.forEach((tool, i) => {
    const got = imported[i];
    const name = aliases ? aliases.toAlias(tool.name) : tool.name;
    check(got.name === name, `tool ${i}: name ${show(got.name)}, expected ${show(name)}`);
    const keepsTitle = format === 'mcp' || format === 'mcp-jsonrpc' || format === 'bare';
    const description = keepsTitle ? tool.description : tool.description || tool.title || '';
    check(
      got.description === description,
      `tool ${show(tool.name)}: description ${show(got.description)}, expected ${show(description)}`,
    );
    if (keepsTitle) check(got.title === tool.title, `tool ${show(tool.name)}: title ${show(got.title)}`);
    // Gemini and strict mode merge allOf branches into one object, which lists integer-like
    // names first whatever the branch order was; no JSON object can keep that order (strict
    // 'auto' sends the schema as written when the conversion would lose something).
    const want = paramNames(tool.inputSchema);
    const merged = Object.keys(Object.fromEntries(want.map((n) => [n, true])));
    const have = paramNames(got.inputSchema);
    check(
      jsonEqual(have, want) || (!lossless && jsonEqual(have, merged)),
      () => `tool ${show(tool.name)} through ${format}: properties ${show(have)}, expected ${show(want)}`,
    );
    if (lossless) {
      // OpenAI rejects an array without items, so the OpenAI formats send `items: {}` (which
      // accepts the same); compare with those taken out on both sides.
      const openai = format === 'openai-chat' || format === 'openai-responses';
      check(
        openai
          ? jsonEqual(withoutEmptyItems(got.inputSchema), withoutEmptyItems(tool.inputSchema))
          : jsonEqual(got.inputSchema, tool.inputSchema),
        () => `tool ${show(tool.name)} through ${format}: schema changed to ${show(got.inputSchema)}`,
      );
    }
    if (format === 'mcp' || format === 'mcp-jsonrpc') {
      check(jsonEqual(got.outputSchema, tool.outputSchema), `tool ${show(tool.name)}: outputSchema changed`);
    }
  });
}

/** How deep brackets nest in JSON text (outside strings), counted independently of the parser. */
function getJsonTextDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') max = Math.max(max, ++depth);
    else if (c === '}' || c === ']') depth--;
  }
  return max;
}

/** The value with every `items: {}` member removed, at any depth. */
function withoutEmptyItems(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyItems);
  if (!isObject(value)) return value;
  return objectFrom(
    Object.keys(value)
      .filter((key) => !(key === 'items' && isObject(value[key]) && Object.keys(value[key]).length === 0))
      .map((key) => [key, withoutEmptyItems(value[key])] as const),
  );
}

const roundTripCase = fc.record({
  tools: importableList(4),
  format: fc.constantFrom(...FILE_FORMATS),
});

export const declarationsTarget: FuzzTarget = {
  name: 'declarations',
  title: 'valid declaration files in every format → import (round trip)',
  share: 0.12,
  property: () =>
    fc.property(roundTripCase, ({ tools, format }) => {
      checkRoundTrip(tools, format);
    }),
};

// ---- mutated files ----

const KNOWN_FORMATS = new Set(['mcp', 'openai-chat', 'openai-responses', 'gemini', 'anthropic', 'bare']);

/** Issues must be a non-empty list, each with a code, a clear message and a resolvable path. */
export function checkIssues(
  input: unknown,
  issues: Issue[],
  what: string,
  tolerate: (issue: Issue) => boolean = () => false,
  aliases?: Readonly<Record<string, string>>,
): void {
  check(Array.isArray(issues) && issues.length > 0, `${what}: refused with no issues`);
  for (const issue of issues) {
    check(
      typeof issue.code === 'string' && issue.code !== '',
      `${what}: issue without a code: ${show(issue)}`,
    );
    check(
      typeof issue.message === 'string' && issue.message.trim().length >= 10,
      `${what}: issue without a clear message: ${show(issue)}`,
    );
    const bad = checkIssuePath(input, issue, aliases);
    check(bad === undefined || tolerate(issue), () => `${what}: ${bad} in the input (issue ${show(issue)})`);
  }
}

/** What an accepted import must look like. */
export function checkImported(value: ImportedDeclarations): void {
  check(KNOWN_FORMATS.has(value.format), `unknown format ${show(value.format)}`);
  const names = new Set<string>();
  for (const tool of value.tools) {
    const at = `tool ${show(tool.name)}`;
    check(typeof tool.name === 'string' && tool.name.trim() !== '', `${at}: name is blank or not a string`);
    check(!names.has(tool.name), `${at}: name imported twice`);
    names.add(tool.name);
    check(typeof tool.description === 'string', `${at}: description is not a string`);
    check(tool.title === undefined || typeof tool.title === 'string', `${at}: title is not a string`);
    check(
      isObject(tool.inputSchema) && tool.inputSchema.type === 'object',
      `${at}: inputSchema is not an object schema`,
    );
    check(
      tool.inputSchema.properties === undefined || isObject(tool.inputSchema.properties),
      `${at}: properties is not an object`,
    );
    check(
      tool.outputSchema === undefined || isObject(tool.outputSchema),
      `${at}: outputSchema is not an object`,
    );
    check(
      tool.annotations === undefined || isObject(tool.annotations),
      `${at}: annotations is not an object`,
    );
  }
  // What was accepted renders and imports again unchanged (MCP keeps everything).
  const again = importDeclarations(renderFile(value.tools, 'mcp'));
  check(again.ok, () => `accepted tools do not import again from MCP: ${show(!again.ok && again.error)}`);
  check(
    jsonEqual(normalizeJson(again.value.tools), normalizeJson(value.tools)),
    () => `accepted tools change through MCP: ${show(value.tools)} → ${show(again.value.tools)}`,
  );
}

/** Either well-formed declarations, or issues that each say what and where. */
export function checkImportResult(input: unknown, result: Result<ImportedDeclarations>, what: string): void {
  if (result.ok) checkImported(result.value);
  else checkIssues(input, result.error, what);
}

const mutatedCase = fc.record({
  tools: importableList(3),
  format: fc.constantFrom(...FILE_FORMATS),
  mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
  text: sometimes(fc.array(textMutation, { minLength: 1, maxLength: 3 }), 3),
});

export const declarationsMutatedTarget: FuzzTarget = {
  name: 'declarations-mutated',
  title: 'mutated declaration files (values and JSON text) → import',
  share: 0.18,
  property: () =>
    fc.property(mutatedCase, ({ tools, format, mutations, text }) => {
      const file = mutateJson(renderFile(tools, format), mutations);
      if (text === undefined) {
        const result = importDeclarations(file);
        checkImportResult(file, result, 'mutated file');
        const viaText = parseDeclarationsText(JSON.stringify(file));
        // Too deep either way; read as text, the message also says where the limit is crossed.
        const tooDeep = (r: typeof result) => !r.ok && r.error.length === 1 && r.error[0].code === 'too_deep';
        check(
          jsonEqual(normalizeJson(viaText), normalizeJson(result)) || (tooDeep(viaText) && tooDeep(result)),
          'the same file read as text gives another result',
        );
      } else {
        const garbled = mutateText(JSON.stringify(file), text);
        let parsed: unknown;
        let isJson = true;
        try {
          parsed = JSON.parse(garbled.charCodeAt(0) === 0xfeff ? garbled.slice(1) : garbled);
        } catch {
          isJson = false;
        }
        const result = parseDeclarationsText(garbled);
        if (!isJson) {
          check(!result.ok, 'text that is not JSON was accepted');
          // Text nested past the limit is refused for that first, whatever else is wrong with it.
          const code = getJsonTextDepth(garbled) > MAX_JSON_DEPTH ? 'too_deep' : 'bad_json';
          check(
            result.error.length === 1 && result.error[0].code === code && result.error[0].path === '',
            () => `broken JSON gives ${show(result.error)}`,
          );
          check(
            /line \d+, column \d+/.test(result.error[0].message),
            `the bad_json message names no line and column: ${show(result.error[0].message)}`,
          );
        }
        checkImportResult(parsed, result, 'garbled text');
      }
    }),
};
