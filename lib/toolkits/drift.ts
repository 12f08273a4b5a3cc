/**
 * Schema drift: a workflow keeps a snapshot of every declaration its nodes were built from, with
 * a content hash; after a toolkit refresh the live declarations may differ. This says what
 * changed between two declarations in terms a user acts on (parameters added, removed, retyped,
 * made required or optional; outputs). Pure.
 */
import { getObjectProperties, getParamType, isJsonObject, resolveSchema } from '../tools/json-schema';
import { DEFAULT_SYSTEM_PARAMS, type JsonSchema, type ParamType, type ToolDeclaration } from '../tools/types';

/** One parameter as the diff sees it. */
interface ParamShape {
  type: ParamType;
  required: boolean;
  hasDefault: boolean;
  defaultValue: unknown;
}

export interface DeclarationDiff {
  added: { name: string; type: ParamType; required: boolean }[];
  removed: { name: string; type: ParamType }[];
  retyped: { name: string; from: ParamType; to: ParamType }[];
  /** Parameters whose `required` flag flipped; `required` is the new value. */
  requiredChanged: { name: string; required: boolean }[];
  /** Parameters whose default appeared, disappeared or changed. */
  defaultChanged: { name: string; from?: unknown; to?: unknown }[];
  outputsAdded: string[];
  outputsRemoved: string[];
  /** Other differences that change the hash but no parameter above (`description`, `input schema`, …). */
  otherChanges: string[];
}

function getParams(
  decl: ToolDeclaration | undefined,
  systemParams: readonly string[],
): Map<string, ParamShape> {
  const params = new Map<string, ParamShape>();
  if (!decl || !isJsonObject(decl.inputSchema)) return params;
  const root = decl.inputSchema;
  const { properties, required } = getObjectProperties(root, root);
  for (const { name, schema } of properties) {
    if (systemParams.includes(name)) continue;
    const resolved = resolveSchema(schema, root);
    const hasDefault = 'default' in resolved;
    params.set(name, {
      type: getParamType(schema, root),
      required: required.has(name),
      hasDefault,
      defaultValue: resolved.default,
    });
  }
  return params;
}

function getOutputNames(decl: ToolDeclaration | undefined): string[] {
  const schema = decl?.outputSchema;
  if (!isJsonObject(schema)) return ['result'];
  const names = getObjectProperties(schema, schema).properties.map((p) => p.name);
  return names.length ? names : ['result'];
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed between two declarations of a tool, parameter by parameter, in the new
 * declaration's order (removed ones in the old order). System parameters are left out: nodes
 * never show them.
 */
export function getDeclarationDiff(
  before: ToolDeclaration | undefined,
  after: ToolDeclaration,
  systemParams: readonly string[] = DEFAULT_SYSTEM_PARAMS,
): DeclarationDiff {
  const old = getParams(before, systemParams);
  const now = getParams(after, systemParams);
  const diff: DeclarationDiff = {
    added: [],
    removed: [],
    retyped: [],
    requiredChanged: [],
    defaultChanged: [],
    outputsAdded: [],
    outputsRemoved: [],
    otherChanges: [],
  };
  for (const [name, param] of now) {
    const was = old.get(name);
    if (!was) {
      diff.added.push({ name, type: param.type, required: param.required });
      continue;
    }
    if (was.type !== param.type) diff.retyped.push({ name, from: was.type, to: param.type });
    if (was.required !== param.required) diff.requiredChanged.push({ name, required: param.required });
    if (
      was.hasDefault !== param.hasDefault ||
      (param.hasDefault && !sameJson(was.defaultValue, param.defaultValue))
    ) {
      diff.defaultChanged.push({
        name,
        ...(was.hasDefault ? { from: was.defaultValue } : {}),
        ...(param.hasDefault ? { to: param.defaultValue } : {}),
      });
    }
  }
  for (const [name, param] of old) if (!now.has(name)) diff.removed.push({ name, type: param.type });

  const oldOutputs = getOutputNames(before);
  const newOutputs = getOutputNames(after);
  diff.outputsAdded = newOutputs.filter((n) => !oldOutputs.includes(n));
  diff.outputsRemoved = oldOutputs.filter((n) => !newOutputs.includes(n));

  if (before) {
    if (before.description !== after.description) diff.otherChanges.push('description');
    if (before.title !== after.title) diff.otherChanges.push('title');
    for (const key of ['annotations', 'icons', 'execution', '_meta'] as const)
      if (!sameJson(canonicalSchema(before[key]), canonicalSchema(after[key]))) diff.otherChanges.push(key);
    const parameterLevel =
      diff.added.length +
      diff.removed.length +
      diff.retyped.length +
      diff.requiredChanged.length +
      diff.defaultChanged.length;
    if (!parameterLevel && !sameJson(canonicalSchema(before.inputSchema), canonicalSchema(after.inputSchema)))
      diff.otherChanges.push('input schema');
    if (
      !diff.outputsAdded.length &&
      !diff.outputsRemoved.length &&
      !sameJson(canonicalSchema(before.outputSchema), canonicalSchema(after.outputSchema))
    ) {
      diff.otherChanges.push('output schema');
    }
  }
  return diff;
}

/** Key-order-insensitive form of a schema for equality. */
function canonicalSchema(schema: JsonSchema | unknown[] | undefined): unknown {
  const sort = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sort);
    if (!isJsonObject(value)) return value;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sort(value[k])]),
    );
  };
  return sort(schema);
}

/** True when a diff has nothing a user needs to act on. */
export function isEmptyDiff(diff: DeclarationDiff): boolean {
  return Object.values(diff).every((list) => list.length === 0);
}

/** One line per change, for a problems list or a tooltip: `added "unit" (str)`, `"scale" int → float`. */
export function describeDiff(diff: DeclarationDiff): string[] {
  return [
    ...diff.added.map((p) => `added ${p.required ? 'required ' : ''}parameter "${p.name}" (${p.type})`),
    ...diff.removed.map((p) => `removed parameter "${p.name}"`),
    ...diff.retyped.map((p) => `parameter "${p.name}" changed type ${p.from} → ${p.to}`),
    ...diff.requiredChanged.map(
      (p) => `parameter "${p.name}" is now ${p.required ? 'required' : 'optional'}`,
    ),
    ...diff.defaultChanged.map(
      (p) =>
        `parameter "${p.name}" default ${'from' in p ? JSON.stringify(p.from) : 'none'} → ${'to' in p ? JSON.stringify(p.to) : 'none'}`,
    ),
    ...diff.outputsAdded.map((n) => `added output "${n}"`),
    ...diff.outputsRemoved.map((n) => `removed output "${n}"`),
    ...diff.otherChanges.map((what) => `${what} changed`),
  ];
}
