/** Typed declaration builders shared by the workflow tests. */
import type { ToolDeclaration } from '../../tools/types';

/**
 * The golden `optimize_structure` declaration from the text of the shared fixture
 * `tests/fixtures/seed-optimize-structure/tools.json` (bare format); tests read the file.
 */
export function parseSeedTools(text: string): ToolDeclaration[] {
  const raw: { name: string; description: string; parameters: Record<string, unknown> }[] = JSON.parse(text);
  return raw.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters }));
}

/** Downloads a file; typed outputs. */
export const fetchTool: ToolDeclaration = {
  name: 'fetch_file',
  description: 'Download a file',
  inputSchema: {
    type: 'object',
    properties: { url: { type: 'string', format: 'uri' }, retries: { type: 'integer', default: 3 } },
    required: ['url'],
  },
  outputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, size: { type: 'integer' } },
  },
  source: { kind: 'mcp-http', server: 'http://127.0.0.1:3001/mcp', toolkit: 'files' },
};

/** Takes a path and a threshold; result port only. */
export const analyseTool: ToolDeclaration = {
  name: 'analyse',
  title: 'Analyse a structure',
  description: 'Analyse a file',
  inputSchema: {
    type: 'object',
    $defs: { Mode: { type: 'string', enum: ['fast', 'exact'], default: 'fast' } },
    properties: {
      path: { type: 'string' },
      threshold: { type: 'number', default: 0.5 },
      mode: { $ref: '#/$defs/Mode' },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['path'],
  },
  annotations: { readOnlyHint: true },
};
