/**
 * Fuzz target: random tool schemas and tool_args → `buildNodeParameters` (docs/design.md §2).
 * Invariants: it never throws; it emits exactly the declared non-system properties in order;
 * the first of the four rules that applies wins (edge "" → arg → deep-copied default → type
 * zero); `missing_tool_args` and `unknown_args` list exactly what they should; every problem
 * has a severity, a code and a message; the cached plan gives the same answer as a fresh one.
 */
import fc from 'fast-check';
import { getObjectProperties } from '../../lib/tools/json-schema';
import { DEFAULT_SYSTEM_PARAMS, type JsonSchema, type ToolDeclaration } from '../../lib/tools/types';
import { buildNodeParameters, type NodeParameters } from '../../lib/workflow/params';
import type { ParamType } from '../../lib/workflow/types';
import {
  check,
  fuzzName,
  fuzzValue,
  isObject,
  jsonEqual,
  normalizeJson,
  objectFrom,
  show,
  smallJson,
  type Json,
} from './json';
import { declaration, type GeneratedDeclaration } from './schemas';
import type { FuzzTarget } from './types';

const hasOwn = (obj: object, key: string) => Object.prototype.hasOwnProperty.call(obj, key);

// ---- an independent reading of docs/design.md §2, for the oracle ----

function getByPointer(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (ref === '#' || ref === '#/') return root;
  if (!ref.startsWith('#/')) return undefined;
  let current: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let segment = raw;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      // not percent-encoded
    }
    segment = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(segment)) current = current[Number(segment)];
    else if (isObject(current) && hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return isObject(current) ? current : undefined;
}

/** `$ref` resolved: target keywords under the keywords written beside the reference. */
function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let merged = schema;
  const seen = new Set<string>();
  while (typeof merged.$ref === 'string') {
    const { $ref, ...siblings } = merged;
    const target = seen.has($ref as string) ? undefined : getByPointer(root, $ref as string);
    if (!target) return siblings;
    seen.add($ref as string);
    merged = { ...target, ...siblings };
    if (seen.size > 64) return siblings;
  }
  return merged;
}

const TYPES: Record<string, ParamType> = {
  string: 'str',
  integer: 'int',
  number: 'float',
  boolean: 'bool',
  array: 'list',
  object: 'dict',
};

function typeOfValue(value: unknown): ParamType {
  if (typeof value === 'string') return 'str';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return 'list';
  if (isObject(value)) return 'dict';
  return 'any';
}

function expectedType(schema: JsonSchema, root: JsonSchema, depth = 0): ParamType {
  if (depth > 64) return 'any';
  const s = resolve(schema, root);
  const named = (t: unknown): ParamType => (typeof t === 'string' && hasOwn(TYPES, t) ? TYPES[t] : 'any');
  if (typeof s.type === 'string') return named(s.type);
  if (Array.isArray(s.type)) return named(s.type.find((t) => t !== 'null'));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = s[key];
    if (!Array.isArray(branches)) continue;
    for (const b of branches) {
      if (!isObject(b) || (key !== 'allOf' && b.type === 'null')) continue;
      const t = expectedType(b, root, depth + 1);
      if (t !== 'any') return t;
    }
  }
  if (Array.isArray(s.enum)) return typeOfValue(s.enum.find((v) => v !== null));
  if (hasOwn(s, 'const')) return typeOfValue(s.const);
  return 'any';
}

function zeroOf(type: ParamType): Json {
  return { str: '', int: 0, float: 0, bool: false, list: [], dict: {}, any: null }[type] as Json;
}

/** Declared properties (name, schema, required) of a root schema, in declaration order. */
function getDeclared(gen: GeneratedDeclaration): { name: string; schema: JsonSchema; required: boolean }[] {
  const root = gen.declaration.inputSchema;
  if (gen.shape === 'plain' || gen.shape === 'junk') {
    const props = isObject(root.properties) ? root.properties : {};
    const required = Array.isArray(root.required) ? root.required : [];
    return Object.keys(props).map((name) => ({
      name,
      schema: isObject(props[name]) ? (props[name] as JsonSchema) : {},
      required: required.includes(name),
    }));
  }
  // allOf and $ref roots: the library's own merge is the reference; order and rules still hold.
  const { properties, required } = getObjectProperties(root, root);
  return properties.map((p) => ({ name: p.name, schema: p.schema, required: required.has(p.name) }));
}

// ---- the property ----

interface ParamsCase {
  gen: GeneratedDeclaration;
  args: Record<string, unknown>;
  connected: string[];
  systemParams: readonly string[] | undefined;
}

const paramsCase: fc.Arbitrary<ParamsCase> = declaration.chain((gen) => {
  const declaredNames = Object.keys(
    isObject(gen.declaration.inputSchema.properties) ? gen.declaration.inputSchema.properties : {},
  );
  const argName = declaredNames.length > 0 ? fc.oneof(fc.constantFrom(...declaredNames), fuzzName) : fuzzName;
  return fc.record({
    gen: fc.constant(gen),
    args: fc
      .array(
        fc.tuple(argName, fc.oneof({ weight: 5, arbitrary: smallJson }, { weight: 1, arbitrary: fuzzValue })),
        {
          maxLength: 6,
        },
      )
      .map((entries) => normalizeJson<Record<string, unknown>>(objectFrom(entries))),
    connected: fc.uniqueArray(argName, { maxLength: 3 }),
    systemParams: fc.option(fc.uniqueArray(fc.oneof(argName, fuzzName), { maxLength: 3 }), {
      nil: undefined,
    }),
  });
});

function checkProblems(result: NodeParameters): void {
  for (const p of result.problems) {
    check(p.severity === 'error' || p.severity === 'warning', `problem with severity ${show(p.severity)}`);
    check(typeof p.code === 'string' && p.code.length > 0, `problem without a code: ${show(p)}`);
    check(
      typeof p.message === 'string' && p.message.trim().length >= 10,
      `problem without a clear message: ${show(p)}`,
    );
    check(p.param === undefined || typeof p.param === 'string', `problem param is not a string: ${show(p)}`);
  }
}

/** The invariants for one declaration, args and connected set. */
export function checkNodeParameters(c: ParamsCase): void {
  const decl = c.gen.declaration;
  const connected = new Set(c.connected);
  const systemParams = c.systemParams ?? DEFAULT_SYSTEM_PARAMS;
  const system = new Set(systemParams);
  const result = buildNodeParameters(decl, c.args, { connectedInputs: connected, systemParams });
  checkProblems(result);
  JSON.stringify(result);

  const root = decl.inputSchema;
  const declared = getDeclared(c.gen);
  const expected = declared.filter((p) => !system.has(p.name) && p.name !== '');
  const names = result.input_parameters.map((p) => p.name);
  check(
    jsonEqual(
      names,
      expected.map((p) => p.name),
    ),
    () =>
      `input_parameters ${show(names)} are not the declared non-system properties ${show(expected.map((p) => p.name))}`,
  );

  const missing: string[] = [];
  expected.forEach((p, i) => {
    const got = result.input_parameters[i];
    const resolved = resolve(p.schema, root);
    const type = expectedType(p.schema, root);
    const where = `parameter ${show(p.name)}`;
    if (c.gen.shape === 'plain') check(got.required === p.required, `${where}: required is ${got.required}`);
    check(got.type === type, `${where}: type ${got.type}, expected ${type} for ${show(p.schema)}`);
    if (connected.has(p.name)) {
      check(got.origin === 'edge' && got.value === '', `${where} is connected but ${show(got)}`);
    } else if (hasOwn(c.args, p.name) && c.args[p.name] !== undefined) {
      check(got.origin === 'arg', `${where} has an arg but origin ${got.origin}`);
      check(jsonEqual(got.value, c.args[p.name]), `${where}: value ${show(got.value)} is not the arg`);
    } else if (hasOwn(resolved, 'default')) {
      check(got.origin === 'default', `${where} has a default but origin ${got.origin}`);
      check(jsonEqual(got.value, resolved.default), `${where}: value ${show(got.value)} is not the default`);
      if (typeof got.value === 'object' && got.value !== null) {
        check(got.value !== resolved.default, `${where}: the default object is shared, not copied`);
      }
    } else {
      check(got.origin === 'zero', `${where} has nothing but origin ${got.origin}`);
      check(jsonEqual(got.value, zeroOf(type)), `${where}: zero value ${show(got.value)} for type ${type}`);
      missing.push(p.name);
      if (p.required && c.gen.shape === 'plain') {
        check(
          result.problems.some(
            (q) => q.code === 'missing_required' && q.param === p.name && q.severity === 'error',
          ),
          `${where} is required and zero-filled but has no missing_required error`,
        );
      }
    }
  });
  check(
    jsonEqual(result.missing_tool_args, missing),
    () => `missing_tool_args ${show(result.missing_tool_args)}, expected ${show(missing)}`,
  );

  const all = new Set(declared.filter((p) => p.name !== '' || system.has('')).map((p) => p.name));
  if (declared.some((p) => p.name === '') && !system.has('')) {
    check(
      result.problems.some((q) => q.code === 'unnamed_parameter'),
      'a property named "" is left out without a word',
    );
  }
  // A system parameter's name is unknown to a tool that does not declare it (docs/design.md §2.2).
  const unknown = Object.keys(c.args).filter((k) => !all.has(k));
  check(
    jsonEqual(result.unknown_args, unknown),
    () => `unknown_args ${show(result.unknown_args)}, expected ${show(unknown)}`,
  );
  for (const name of unknown) {
    check(
      result.problems.some((q) => q.code === 'unknown_arg' && q.param === name),
      `unknown arg ${show(name)} has no warning`,
    );
  }
  for (const input of connected) {
    if (all.has(input) && !system.has(input)) continue;
    check(
      result.problems.some((q) => q.code === 'unknown_input' && q.param === input),
      `edge into undeclared input ${show(input)} is not reported`,
    );
  }
  check(result.output_parameters.length > 0, 'no output ports');

  // The cached plan (same object) and a fresh declaration (equal JSON) agree with the first build.
  const again = buildNodeParameters(decl, c.args, { connectedInputs: connected, systemParams });
  check(jsonEqual(normalizeJson(again), normalizeJson(result)), 'a second build of the same node differs');
  const fresh = buildNodeParameters(normalizeJson<ToolDeclaration>(decl), c.args, {
    connectedInputs: connected,
    systemParams: [...systemParams],
  });
  check(jsonEqual(normalizeJson(fresh), normalizeJson(result)), 'an equal declaration gives another result');

  // An undeclared tool keeps its args and is reported.
  const undeclared = buildNodeParameters(undefined, c.args, { connectedInputs: connected });
  checkProblems(undeclared);
  check(
    undeclared.problems.some((q) => q.code === 'unknown_tool'),
    'an undeclared tool is not reported as unknown_tool',
  );
  const kept = undeclared.input_parameters.map((p) => p.name);
  const expectedKept = [...Object.keys(c.args), ...[...connected].filter((n) => !hasOwn(c.args, n))].filter(
    (n) => n !== '',
  );
  check(
    jsonEqual(kept, expectedKept),
    () => `undeclared tool parameters ${show(kept)}, expected ${show(expectedKept)}`,
  );
}

export const paramsTarget: FuzzTarget = {
  name: 'params',
  title: 'tool schemas and args → buildNodeParameters',
  share: 0.25,
  property: () =>
    fc.property(paramsCase, (c) => {
      checkNodeParameters(c);
    }),
};
