/**
 * What the two OpenAI formats (Chat Completions and Responses) share: the `parameters` they
 * send. Strict mode (`strict: true`) needs the schema converted (`toStrictSchema`); when that
 * changes what the tool accepts, `auto` keeps the tool non-strict and says why, `always` sends
 * it strict and reports every change. Either way the API also rejects an array without
 * `items` ("array schema missing items"), so one that has none gets `items: {}`, which accepts
 * exactly what it did.
 */
import { isJsonObject } from '../json-schema';
import { setJsonMember } from '../json-value';
import { toStrictSchema } from '../strict-schema';
import type { ConversionIssue, JsonSchema, ToolDeclaration } from '../types';
import { reportSchemaIssues } from './common';

/**
 * OpenAI strict mode: `never` (the default) sends the schema as declared; `always` converts it
 * for strict mode whatever that changes; `auto` does so only for tools whose meaning survives,
 * per tool. `true`/`false` are `always`/`never`.
 */
export type StrictOption = 'auto' | 'always' | 'never' | boolean;

/** Options shared by the per-tool OpenAI renderers. */
export interface ToolRenderOptions {
  /** The provider-side name; defaults to the tool's name. */
  name?: string;
  /** OpenAI strict mode (Chat and Responses only). Default `never`. */
  strict?: StrictOption;
  /** Where what the conversion changed is reported (see `ConversionIssue`). */
  issues?: ConversionIssue[];
}

/** The strict mode an option asks for. */
export function getStrictMode(strict: StrictOption | undefined): 'auto' | 'always' | 'never' {
  if (strict === true) return 'always';
  if (strict === false || strict === undefined) return 'never';
  return strict;
}

function isArraySchema(node: JsonSchema): boolean {
  return node.type === 'array' || (Array.isArray(node.type) && node.type.includes('array'));
}

const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties', 'dependentSchemas'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SCHEMA_VALUES = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

/**
 * The schema with `items: {}` on every array schema that has no `items` (OpenAI rejects
 * those even when not strict). Parts that need nothing are shared, not copied.
 */
export function withArrayItems(node: unknown): unknown {
  if (Array.isArray(node)) {
    const mapped = node.map(withArrayItems);
    return mapped.some((v, i) => v !== node[i]) ? mapped : node;
  }
  if (!isJsonObject(node)) return node;
  let out: JsonSchema | undefined;
  const set = (key: string, value: unknown) => {
    out ??= { ...node };
    setJsonMember(out, key, value);
  };
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (!isJsonObject(map)) continue;
    let copy: JsonSchema | undefined;
    for (const [name, sub] of Object.entries(map)) {
      const mapped = withArrayItems(sub);
      if (mapped === sub) continue;
      copy ??= { ...map };
      setJsonMember(copy, name, mapped);
    }
    if (copy) set(key, copy);
  }
  for (const key of [...SCHEMA_LISTS, ...SCHEMA_VALUES]) {
    if (!(key in node)) continue;
    const mapped = withArrayItems(node[key]);
    if (mapped !== node[key]) set(key, mapped);
  }
  if (isArraySchema(node) && node.items === undefined) set('items', {});
  return out ?? node;
}

/**
 * The parameters to send and whether they are strict; what the strict conversion changed is
 * reported on `issues` (a `loss` when sent strict, a `note` when `auto` kept the tool
 * non-strict because of it).
 */
export function getOpenAiParameters(
  tool: ToolDeclaration,
  option: StrictOption | undefined,
  issues?: ConversionIssue[],
): { parameters: JsonSchema; strict: boolean } {
  const mode = getStrictMode(option);
  const plain = () => withArrayItems(tool.inputSchema) as JsonSchema;
  if (mode === 'never') return { parameters: plain(), strict: false };
  const converted = toStrictSchema(tool.inputSchema);
  if (mode === 'auto' && converted.issues.length > 0) {
    reportSchemaIssues(
      issues,
      tool,
      '/inputSchema',
      converted.issues,
      'note',
      'Left non-strict: strict mode would change this. ',
    );
    return { parameters: plain(), strict: false };
  }
  reportSchemaIssues(issues, tool, '/inputSchema', converted.issues, 'loss');
  return { parameters: converted.schema, strict: true };
}
