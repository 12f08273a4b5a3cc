/**
 * A checker for OpenAI's strict-mode rules (Structured Outputs, "Supported schemas"), written
 * from the documentation independently of `toStrictSchema`, so tests and fuzzers can prove a
 * schema sent with `strict: true` holds nothing the API rejects. There is no official JSON
 * Schema for these rules (the spec's FunctionParameters is any object).
 */
import { hasMember } from '../json-value';

const SUPPORTED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolves(root: Node, ref: string): boolean {
  if (ref === '#') return true;
  if (!ref.startsWith('#/')) return false;
  let at: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isNode(at) || !hasMember(at, key)) return false;
    at = at[key];
  }
  return isNode(at);
}

/** Every place in `schema` that breaks a strict-mode rule, as `path: what` lines; [] when none. */
export function findStrictViolations(schema: unknown): string[] {
  const found: string[] = [];
  if (!isNode(schema)) return [': the root is not an object schema'];
  if (schema.type !== 'object') found.push(': the root is not type "object"');
  if ('anyOf' in schema) found.push(': the root is an anyOf');
  let properties = 0;
  let enumValues = 0;
  const walk = (node: unknown, path: string, objectDepth: number): void => {
    if (!isNode(node)) {
      found.push(`${path}: not a schema object`);
      return;
    }
    if (typeof node.$ref === 'string') {
      if (Object.keys(node).length > 1) found.push(`${path}: keywords beside $ref`);
      if (!resolves(schema, node.$ref)) found.push(`${path}/$ref: does not resolve`);
      return;
    }
    for (const key of Object.keys(node)) if (!SUPPORTED.has(key)) found.push(`${path}/${key}: not supported`);
    const types = typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? node.type : [];
    if (types.length === 0 && !Array.isArray(node.anyOf)) found.push(`${path}: no type`);
    for (const t of types)
      if (!TYPES.has(t as string)) found.push(`${path}/type: unknown type ${JSON.stringify(t)}`);
    if (typeof node.format === 'string' && !FORMATS.has(node.format))
      found.push(`${path}/format: "${node.format}" not supported`);
    if (Array.isArray(node.enum)) enumValues += node.enum.length;
    if (types.includes('object')) {
      if (objectDepth >= 10) found.push(`${path}: more than 10 levels of objects`);
      if (node.additionalProperties !== false) found.push(`${path}: additionalProperties is not false`);
      if (!isNode(node.properties)) found.push(`${path}: no properties`);
      const names = Object.keys(isNode(node.properties) ? node.properties : {});
      const required = Array.isArray(node.required) ? node.required : [];
      if (names.length !== required.length || names.some((n) => !required.includes(n)))
        found.push(`${path}/required: is not every property`);
      properties += names.length;
    } else if (node.properties !== undefined || node.additionalProperties !== undefined) {
      found.push(`${path}: object keywords without type "object"`);
    }
    if (types.includes('array')) {
      if (!isNode(node.items)) found.push(`${path}: array without an items schema`);
    }
    if (isNode(node.properties))
      for (const [name, sub] of Object.entries(node.properties))
        walk(sub, `${path}/properties/${name}`, objectDepth + 1);
    if (node.items !== undefined) walk(node.items, `${path}/items`, objectDepth);
    if (Array.isArray(node.anyOf)) node.anyOf.forEach((b, i) => walk(b, `${path}/anyOf/${i}`, objectDepth));
    for (const key of ['$defs', 'definitions'] as const)
      if (isNode(node[key]))
        for (const [name, sub] of Object.entries(node[key])) walk(sub, `${path}/${key}/${name}`, 0);
  };
  walk(schema, '', 0);
  if (properties > 5000) found.push(`: ${properties} properties (at most 5000)`);
  if (enumValues > 1000) found.push(`: ${enumValues} enum values (at most 1000)`);
  return found;
}
