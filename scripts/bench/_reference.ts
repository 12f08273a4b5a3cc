/**
 * A straightforward port of the platform's Python rules (`save_parameters_to_json`) to
 * plain TypeScript, as docs/design.md §2 states them: nothing precomputed, every node re-reads its
 * schema, defaults deep-copied through JSON. The bench compares the real builder against it
 * and first checks that both give the same parameters.
 */
import type { JsonSchema, ToolDeclaration } from '../../lib/tools/types';

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function resolve(schema: Schema, root: Schema, depth = 0): Schema {
  if (typeof schema.$ref !== 'string' || depth > 20) return schema;
  let target: unknown = root;
  for (const part of schema.$ref.replace(/^#\//, '').split('/')) {
    target = (target as Schema | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (typeof target !== 'object' || target === null) {
    const { $ref: _ref, ...rest } = schema;
    return rest;
  }
  const { $ref: _ref, ...siblings } = schema;
  return resolve({ ...(target as Schema), ...siblings }, root, depth + 1);
}

const TYPES: Record<string, string> = {
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  array: 'list',
  object: 'dict',
};

function typeOfValue(v: unknown): string {
  if (typeof v === 'string') return 'str';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  if (v !== null && typeof v === 'object') return 'dict';
  return 'any';
}

function typeOf(schema: Schema, root: Schema, depth = 0): string {
  const s = resolve(schema, root);
  if (depth > 20) return 'any';
  if (typeof s.type === 'string') return TYPES[s.type] ?? 'any';
  if (Array.isArray(s.type)) {
    const first = s.type.find((t: string) => t !== 'null');
    return first ? (TYPES[first] ?? 'any') : 'any';
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (!Array.isArray(s[key])) continue;
    for (const branch of s[key]) {
      if (branch?.type === 'null') continue;
      const t = typeOf(branch, root, depth + 1);
      if (t !== 'any') return t;
    }
  }
  if (Array.isArray(s.enum)) return typeOfValue(s.enum.find((v: unknown) => v !== null));
  if ('const' in s) return typeOfValue(s.const);
  return 'any';
}

function zero(type: string): unknown {
  return { str: '', int: 0, float: 0, bool: false, list: [], dict: {}, any: null }[type] ?? null;
}

/** The rules, plainly: iterate the declaration; edge → arg → default → zero. */
export function buildReferenceParameters(
  decl: ToolDeclaration,
  args: Record<string, unknown>,
  connected: ReadonlySet<string>,
  systemParams: readonly string[],
) {
  const root = decl.inputSchema as JsonSchema as Schema;
  const properties: Schema = root.properties ?? {};
  const required: string[] = root.required ?? [];
  const input_parameters = [];
  const missing_tool_args: string[] = [];
  for (const name of Object.keys(properties)) {
    if (systemParams.includes(name)) continue;
    const schema = resolve(properties[name], root);
    const type = typeOf(properties[name], root);
    let value: unknown;
    let origin: string;
    if (connected.has(name)) {
      value = '';
      origin = 'edge';
    } else if (Object.prototype.hasOwnProperty.call(args, name)) {
      value = args[name];
      origin = 'arg';
    } else if ('default' in schema) {
      value = JSON.parse(JSON.stringify(schema.default));
      origin = 'default';
    } else {
      value = zero(type);
      origin = 'zero';
      missing_tool_args.push(name);
    }
    input_parameters.push({ name, type, value, origin, required: required.includes(name) });
  }
  const unknown_args = Object.keys(args).filter((k) => !(k in properties) && !systemParams.includes(k));
  return { input_parameters, missing_tool_args, unknown_args };
}
