/**
 * The patterns of a JSON Schema that Toolflow does not evaluate: valid ECMAScript that RE2 cannot
 * express (linear-pattern.ts), found with their JSON paths so the tool can report them, and taken
 * out of the copy Ajv compiles, so that what they would have checked is simply not checked.
 */
import { joinPointer } from '../result';
import { isJsonObject } from './json-schema';
import { createRecord, setJsonMember } from './json-value';
import { compileLinearPattern } from './linear-pattern';
import type { JsonSchema } from './types';

/** A pattern that is not evaluated, where it is written and why. */
export interface UnsupportedPattern {
  /** JSON Pointer into the schema: `/properties/x/pattern`, `/patternProperties/(?=a)`. */
  path: string;
  pattern: string;
  /** The construct RE2 cannot express: "a lookahead "(?=…)"", "a backreference "\1"". */
  reason: string;
}

// Here rather than in json-schema.ts, which the editor's page loads: these load with Ajv.
/** Keywords whose value is a map of subschemas (by name or pattern), in any draft. */
export const SUBSCHEMA_MAP_KEYWORDS = [
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
] as const;

/** Keywords whose value is one subschema or a list of them, in any draft. */
export const SUBSCHEMA_KEYWORDS = [
  'items',
  'prefixItems',
  'additionalItems',
  'additionalProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'anyOf',
  'allOf',
  'oneOf',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;

/** Why RE2 cannot evaluate `pattern`, or undefined when it can (or when it is invalid anyway). */
function getUnsupportedReason(pattern: string): string | undefined {
  try {
    const compiled = compileLinearPattern(pattern);
    return compiled.ok ? undefined : compiled.reason;
  } catch {
    // Not a valid pattern at all: Ajv refuses the schema, as it always did.
    return undefined;
  }
}

/**
 * The schema with every pattern RE2 cannot express taken out, and where each was. A `pattern` is
 * dropped; a `patternProperties` key is dropped with its schema, and so are the object's
 * `additionalProperties` and `unevaluatedProperties`, since which properties those cover depends
 * on the dropped pattern. The schema itself is returned when it has no such pattern.
 */
export function withoutUnsupportedPatterns(schema: JsonSchema): {
  schema: JsonSchema;
  unsupported: UnsupportedPattern[];
} {
  const unsupported: UnsupportedPattern[] = [];
  const visit = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) {
      let copy: unknown[] | undefined;
      node.forEach((item, i) => {
        const next = visit(item, joinPointer(path, i));
        if (next !== item) (copy ??= [...node])[i] = next;
      });
      return copy ?? node;
    }
    if (!isJsonObject(node)) return node;
    let copy: Record<string, unknown> | undefined;
    const set = (key: string, value: unknown) => setJsonMember((copy ??= createRecord(node)), key, value);
    const drop = (key: string) => {
      copy ??= createRecord(node);
      delete copy[key];
    };
    if (typeof node.pattern === 'string') {
      const reason = getUnsupportedReason(node.pattern);
      if (reason !== undefined) {
        unsupported.push({ path: joinPointer(path, 'pattern'), pattern: node.pattern, reason });
        drop('pattern');
      }
    }
    for (const key of SUBSCHEMA_MAP_KEYWORDS) {
      const map = node[key];
      if (!isJsonObject(map)) continue;
      let mapCopy: Record<string, unknown> | undefined;
      for (const [name, sub] of Object.entries(map)) {
        const where = joinPointer(path, key, name);
        const reason = key === 'patternProperties' ? getUnsupportedReason(name) : undefined;
        if (reason !== undefined) {
          unsupported.push({ path: where, pattern: name, reason });
          delete (mapCopy ??= createRecord(map))[name];
          drop('additionalProperties');
          drop('unevaluatedProperties');
          continue;
        }
        const next = visit(sub, where);
        if (next !== sub) setJsonMember((mapCopy ??= createRecord(map)), name, next);
      }
      if (mapCopy) set(key, mapCopy);
    }
    for (const key of SUBSCHEMA_KEYWORDS) {
      // Dropped with a pattern property above: not brought back.
      if (!(key in node) || (copy !== undefined && !(key in copy))) continue;
      const next = visit(node[key], joinPointer(path, key));
      if (next !== node[key]) set(key, next);
    }
    return copy ?? node;
  };
  const result = visit(schema, '') as JsonSchema;
  return { schema: result, unsupported };
}
