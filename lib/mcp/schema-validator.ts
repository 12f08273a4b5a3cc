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
 * by JSON Pointer into the `tools` array (`/3/inputSchema`).
 */
export function checkToolSchemas(tools: readonly ToolDeclaration[]): {
  reports: ToolSchemaReport[];
  issues: Issue[];
} {
  const reports: ToolSchemaReport[] = [];
  const issues: Issue[] = [];
  tools.forEach((tool, index) => {
    const report: ToolSchemaReport = { name: tool.name, inputDialect: getSchemaDialect(tool.inputSchema) };
    const input = compileSchema(tool.inputSchema);
    if (!input.ok)
      issues.push({
        path: joinPointer('', index, 'inputSchema'),
        message: `${tool.name}: ${input.error}`,
        code: 'bad_schema',
      });
    if (tool.outputSchema) {
      report.outputDialect = getSchemaDialect(tool.outputSchema);
      const output = compileSchema(tool.outputSchema);
      if (!output.ok)
        issues.push({
          path: joinPointer('', index, 'outputSchema'),
          message: `${tool.name}: ${output.error}`,
          code: 'bad_schema',
        });
    }
    reports.push(report);
  });
  return { reports, issues };
}
