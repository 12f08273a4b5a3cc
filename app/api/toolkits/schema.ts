/** Request schemas for /api/toolkits (JSON Schema, compiled once with Ajv). */
import { compileRequestSchema } from '@/lib/http/body';

/**
 * A new toolkit comes from exactly one source: a declarations file (`text` as uploaded or
 * pasted, or `declarations` already parsed), an MCP server URL, or the name of a stdio MCP
 * server configured on this server. Commands are never accepted from a request.
 */
export interface CreateToolkitBody {
  name: string;
  text?: string;
  declarations?: unknown;
  fileName?: string;
  mcpUrl?: string;
  mcpServer?: string;
}

export const TOOLKIT_SOURCES = ['text', 'declarations', 'mcpUrl', 'mcpServer'] as const;

export const validateCreateToolkit = compileRequestSchema<CreateToolkitBody>({
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    text: { type: 'string', minLength: 1 },
    declarations: { type: ['object', 'array'] },
    fileName: { type: 'string', maxLength: 300 },
    mcpUrl: { type: 'string', minLength: 1, maxLength: 2000 },
    mcpServer: { type: 'string', minLength: 1, maxLength: 200 },
  },
});

/** A refresh body is only for file toolkits: the new version of the file. */
export interface RefreshToolkitBody {
  text?: string;
  declarations?: unknown;
}

export const validateRefreshToolkit = compileRequestSchema<RefreshToolkitBody>({
  type: 'object',
  additionalProperties: false,
  properties: {
    text: { type: 'string', minLength: 1 },
    declarations: { type: ['object', 'array'] },
  },
});
