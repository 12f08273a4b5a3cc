/**
 * Request schemas for /api/toolkits (JSON Schema, compiled once with Ajv); the request types are
 * the API contract's (lib/api/types.ts). A new toolkit comes from exactly one source: a
 * declarations file (`text` as uploaded or pasted, or `declarations` already parsed), an MCP
 * server URL, or the name of a stdio MCP server configured on this server. Commands are never
 * accepted from a request.
 */
import type { CreateToolkitRequest, RefreshToolkitRequest } from '@/lib/api/types';
import { compileRequestSchema } from '@/lib/http/body';

export const TOOLKIT_SOURCES = ['text', 'declarations', 'mcpUrl', 'mcpServer'] as const;

export const validateCreateToolkit = compileRequestSchema<CreateToolkitRequest>({
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

export const validateRefreshToolkit = compileRequestSchema<RefreshToolkitRequest>({
  type: 'object',
  additionalProperties: false,
  properties: {
    text: { type: 'string', minLength: 1 },
    declarations: { type: ['object', 'array'] },
  },
});
