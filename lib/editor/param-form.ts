/**
 * What the inspector needs to render one parameter with a generated form (@rjsf/core): the
 * parameter's own JSON Schema made self-contained and readable as a form, whether it accepts
 * null, the value the form should show, and raw-JSON args parsing with located errors.
 *
 * The inspector renders one small form per top-level parameter rather than one form for the
 * whole object: each parameter has its own origin, reset button and edge state, and a change
 * in one form can only ever write that one arg (a whole-object form would write defaults it
 * filled in as if the user had set them).
 */
import { getObjectProperties, isJsonObject, resolveSchema } from '../tools/json-schema';
import type { JsonSchema } from '../tools/types';
import type { InputParameter, WorkflowDocument } from '../workflow/types';

/** Keywords under which sub-schemas sit, walked when preparing a schema for the form. */
const SCHEMA_LIST_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SCHEMA_MAP_KEYS = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const SCHEMA_KEYS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

function describeOption(option: unknown, index: number): string {
  if (!isJsonObject(option)) return `option ${index + 1}`;
  if (typeof option.title === 'string') return option.title;
  if ('const' in option) return JSON.stringify(option.const);
  if (typeof option.type === 'string') return option.type;
  if (Array.isArray(option.type)) return option.type.join(' or ');
  if (typeof option.$ref === 'string') return option.$ref.replace(/^#\/(\$defs|definitions)\//, '');
  return `option ${index + 1}`;
}

function inferEnumType(values: readonly unknown[]): string | undefined {
  const first = values.find((v) => v !== null);
  if (typeof first === 'string') return 'string';
  if (typeof first === 'boolean') return 'boolean';
  if (typeof first === 'number') return Number.isInteger(first) ? 'integer' : 'number';
  return undefined;
}

/**
 * A copy of a schema the form library reads well: anyOf/oneOf options get a title (so the
 * option picker says "string" / "null" instead of "Option 1"), an enum without `type` gets the
 * type of its first value (the form would otherwise treat numbers as strings), and the
 * draft marker is dropped (sub-schemas are validated by the form's own Ajv).
 */
export function prepareFormSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(prepareFormSchema);
  if (!isJsonObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const key of Object.keys(schema)) {
    if (key === '$schema' || key === '$id') continue;
    const value = schema[key];
    if ((SCHEMA_LIST_KEYS as readonly string[]).includes(key) && Array.isArray(value)) {
      out[key] = value.map((option, i) => {
        const prepared = prepareFormSchema(option);
        if (key === 'allOf' || key === 'prefixItems' || !isJsonObject(prepared)) return prepared;
        return 'title' in prepared ? prepared : { title: describeOption(option, i), ...prepared };
      });
    } else if ((SCHEMA_MAP_KEYS as readonly string[]).includes(key) && isJsonObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, prepareFormSchema(v)]));
    } else if ((SCHEMA_KEYS as readonly string[]).includes(key)) {
      out[key] = prepareFormSchema(value);
    } else {
      out[key] = value;
    }
  }
  if (out.type === undefined && Array.isArray(out.enum)) {
    const type = inferEnumType(out.enum);
    if (type) out.type = type;
  }
  return out;
}

/**
 * The form schema of one top-level parameter of a tool: its property schema with the root's
 * `$defs`/`definitions` attached (so local `$ref`s still resolve), without the title and
 * description the inspector already shows above the field. Undefined when the tool does not
 * declare the parameter.
 */
export function getParamFormSchema(inputSchema: JsonSchema, name: string): JsonSchema | undefined {
  const { properties } = getObjectProperties(inputSchema, inputSchema);
  const property = properties.find((p) => p.name === name);
  if (!property) return undefined;
  const own: JsonSchema = isJsonObject(property.schema) ? { ...property.schema } : {};
  delete own.title;
  delete own.description;
  if (isJsonObject(inputSchema.$defs)) own.$defs = inputSchema.$defs;
  if (isJsonObject(inputSchema.definitions)) own.definitions = inputSchema.definitions;
  return prepareFormSchema(own) as JsonSchema;
}

/** Whether a parameter's schema accepts `null` (type list, anyOf/oneOf option, OpenAPI `nullable`). */
export function isNullableSchema(schema: JsonSchema, root: JsonSchema): boolean {
  const resolved = resolveSchema(schema, root);
  if (resolved.nullable === true) return true;
  if (resolved.type === 'null') return true;
  if (Array.isArray(resolved.type) && resolved.type.includes('null')) return true;
  if (Array.isArray(resolved.enum) && resolved.enum.includes(null)) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = resolved[key];
    if (Array.isArray(options) && options.some((o) => isJsonObject(o) && isNullableSchema(o, root)))
      return true;
  }
  return false;
}

/**
 * The value the form shows for a parameter: a configured value (set or default) as is; nothing
 * for a zero-filled one, since a zero-value is a guess, never a configured value (docs/design.md §2.6).
 */
export function getFormValue(param: Pick<InputParameter, 'origin' | 'value'>): unknown {
  return param.origin === 'arg' || param.origin === 'default' ? param.value : undefined;
}

/** Compact one-line JSON for showing a default or a value preview, cut to `max` characters. */
export function previewJson(value: unknown, max = 80): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Structural equality of two JSON values (key order ignored). */
export function isJsonEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => isJsonEqual(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((k) => left[k] !== undefined);
  const otherKeys = Object.keys(right).filter((k) => right[k] !== undefined);
  return keys.length === otherKeys.length && keys.every((k) => isJsonEqual(left[k], right[k]));
}

/**
 * The document with one node's args replaced as a whole (the raw-JSON editor's Apply), so the
 * change is one undo step; the same document when nothing changed.
 */
export function replaceNodeArgs(
  doc: WorkflowDocument,
  nodeId: string,
  args: Record<string, unknown>,
): WorkflowDocument {
  const index = doc.nodes.findIndex((n) => n.id === nodeId);
  if (index === -1 || isJsonEqual(doc.nodes[index].args, args)) return doc;
  const nodes = doc.nodes.slice();
  nodes[index] = { ...nodes[index], args: { ...args } };
  return { ...doc, nodes };
}
