import 'server-only';
/**
 * The JSON Schema validator the MCP client hands the SDK. The SDK's default compiles every schema
 * with draft-07 Ajv, which throws on a 2020-12 `$schema` while it caches tool metadata (failing
 * the whole `tools/list` for one output schema) and ignores 2020-12 keywords such as
 * `prefixItems`. This one uses the same per-dialect compiler the node builder uses
 * (lib/tools/schema-validator.ts), so a schema means the same thing everywhere in Toolflow.
 */
import type {
  jsonSchemaValidator,
  JsonSchemaType,
  JsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';
import { joinPointer, type Issue } from '../result';
import type { JsonSchema, ToolDeclaration } from '../tools/types';
import {
  compileSchema,
  describeAjvError,
  getSchemaDialect,
  getUnsupportedPatterns,
  type SchemaDialect,
} from '../tools/schema-validator';

/**
 * The SDK's `jsonSchemaValidator` port. A schema that does not compile gives a validator that
 * reports why on every call instead of throwing inside the SDK.
 */
export function createDialectAwareValidator(): jsonSchemaValidator {
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const compiled = compileSchema(schema as JsonSchema);
      if (!compiled.ok) {
        const reason = compiled.error;
        return () => ({
          valid: false,
          data: undefined,
          errorMessage: `The schema cannot be used: ${reason}`,
        });
      }
      const validate = compiled.value;
      return (input) => {
        if (validate(input)) return { valid: true, data: input as T, errorMessage: undefined };
        const errors = (validate.errors ?? []).map(
          (e) => `${e.instancePath || '(root)'} ${describeAjvError(e)}`,
        );
        return { valid: false, data: undefined, errorMessage: errors.join('; ') };
      };
    },
  };
}

/** How one tool's schemas compiled. */
export interface ToolSchemaReport {
  name: string;
  inputDialect: SchemaDialect;
  outputDialect?: SchemaDialect;
}

/**
 * Compile every tool's input and output schema with the Ajv for its dialect. Issues are located
 * by JSON Pointer into the `tools` array (`/3/inputSchema`); a pattern Toolflow does not evaluate
 * (RE2 cannot express it) is one too, at its own path (`/3/inputSchema/properties/x/pattern`).
 */
export function checkToolSchemas(tools: readonly ToolDeclaration[]): {
  reports: ToolSchemaReport[];
  issues: Issue[];
} {
  const reports: ToolSchemaReport[] = [];
  const issues: Issue[] = [];
  tools.forEach((tool, index) => {
    const report: ToolSchemaReport = { name: tool.name, inputDialect: getSchemaDialect(tool.inputSchema) };
    const check = (schema: JsonSchema, key: 'inputSchema' | 'outputSchema') => {
      const compiled = compileSchema(schema);
      const where = joinPointer('', index, key);
      if (!compiled.ok)
        issues.push({ path: where, message: `${tool.name}: ${compiled.error}`, code: 'bad_schema' });
      for (const { path, pattern, reason } of getUnsupportedPatterns(schema)) {
        issues.push({
          path: where + path,
          message: `${tool.name}: the pattern "${pattern}" uses ${reason}, which Toolflow does not evaluate (only patterns that can be checked in linear time are); values are not checked against it.`,
          code: 'unsupported_pattern',
        });
      }
    };
    check(tool.inputSchema, 'inputSchema');
    if (tool.outputSchema) {
      report.outputDialect = getSchemaDialect(tool.outputSchema);
      check(tool.outputSchema, 'outputSchema');
    }
    reports.push(report);
  });
  return { reports, issues };
}
