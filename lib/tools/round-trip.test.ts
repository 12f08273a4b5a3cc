import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeDeclaration, declarationList } from './__fixtures__/arbitraries';
import { importDeclarations } from './import';
import { getObjectProperties, getParamType } from './json-schema';
import { renderTools } from './render';
import type { DeclarationFormat, ToolDeclaration } from './types';

type JsonTarget = 'openai-chat' | 'openai-responses' | 'gemini' | 'anthropic' | 'mcp';

const TARGETS: {
  target: JsonTarget;
  format: DeclarationFormat;
  lossless: boolean;
  options?: Parameters<typeof renderTools>[2];
}[] = [
  { target: 'openai-chat', format: 'openai-chat', lossless: true },
  { target: 'openai-responses', format: 'openai-responses', lossless: true },
  { target: 'anthropic', format: 'anthropic', lossless: true },
  { target: 'mcp', format: 'mcp', lossless: true },
  { target: 'gemini', format: 'gemini', lossless: true, options: { geminiSchema: 'json-schema' } },
  { target: 'gemini', format: 'gemini', lossless: false },
];

/** What must survive any round trip: name, description, parameter names in order, their types
 * and required flags (docs/design.md §2 reads exactly these). */
function getContract(tool: ToolDeclaration) {
  const { properties, required } = getObjectProperties(tool.inputSchema, tool.inputSchema);
  return {
    name: tool.name,
    description: tool.description,
    params: properties.map(({ name, schema }) => ({
      name,
      type: getParamType(schema, tool.inputSchema),
      required: required.has(name),
    })),
  };
}

describe('import(render(tools, target))', () => {
  for (const { target, format, lossless, options } of TARGETS) {
    const label = `${target}${options?.geminiSchema ? ' (parametersJsonSchema)' : lossless ? '' : ' (OpenAPI subset)'}`;
    it(`round-trips names, descriptions and parameters through ${label}`, () => {
      fc.assert(
        fc.property(declarationList(safeDeclaration, 4), (tools) => {
          const rendered = renderTools(tools, target, options);
          // Through JSON text, as a file or an HTTP body would carry it.
          const result = importDeclarations(JSON.parse(JSON.stringify(rendered)));
          if (!result.ok) throw new Error(JSON.stringify(result.error));
          expect(result.value.format).toBe(
            tools.length === 0 && target !== 'mcp' && target !== 'gemini' ? 'bare' : format,
          );
          expect(result.value.tools.map(getContract)).toEqual(tools.map(getContract));
          if (lossless)
            expect(result.value.tools.map((t) => t.inputSchema)).toEqual(tools.map((t) => t.inputSchema));
        }),
        { numRuns: 120 },
      );
    });
  }
});
