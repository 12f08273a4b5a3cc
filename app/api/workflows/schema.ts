/**
 * Request schemas for /api/workflows (JSON Schema, compiled once with Ajv); the request types are
 * the API contract's (lib/api/types.ts), which the browser's client sends.
 */
import type {
  CreateShareRequest,
  CreateWorkflowRequest,
  LabelRevisionRequest,
  RestoreRevisionRequest,
  UpdateWorkflowRequest,
} from '@/lib/api/types';
import { compileRequestSchema } from '@/lib/http/body';
import type { WorkflowDocument } from '@/lib/workflow/types';

const position = {
  type: 'object',
  required: ['x', 'y'],
  properties: { x: { type: 'number' }, y: { type: 'number' } },
};

/** Structural shape of a stored WorkflowDocument (lib/workflow/types.ts). */
export const documentSchema = {
  type: 'object',
  required: ['nodes', 'edges'],
  properties: {
    task: { type: 'string', maxLength: 20_000 },
    nodes: {
      type: 'array',
      maxItems: 5_000,
      items: {
        type: 'object',
        required: ['id', 'tool', 'position', 'args'],
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 200 },
          tool: { type: 'string', maxLength: 300 },
          label: { type: 'string', maxLength: 300 },
          position,
          args: { type: 'object' },
          unknownArgs: { type: 'array', items: { type: 'string' } },
          toolHash: { type: 'string' },
          notes: { type: 'array' },
          rawArguments: { type: 'string' },
          placeholderParams: { type: 'array' },
          placeholderOutputs: { type: 'array' },
        },
      },
    },
    edges: {
      type: 'array',
      maxItems: 20_000,
      items: {
        type: 'object',
        required: ['id', 'source', 'sourceOutput', 'target', 'targetInput'],
        properties: {
          id: { type: 'string', minLength: 1 },
          source: { type: 'string', minLength: 1 },
          sourceOutput: { type: 'string', minLength: 1 },
          target: { type: 'string', minLength: 1 },
          targetInput: { type: 'string', minLength: 1 },
        },
      },
    },
    tools: { type: 'object', additionalProperties: { type: 'object', required: ['declaration', 'hash'] } },
    systemParams: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const validateCreateWorkflow = compileRequestSchema<CreateWorkflowRequest>({
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    task: { type: 'string', maxLength: 20_000 },
    document: documentSchema,
  },
});

export const validateUpdateWorkflow = compileRequestSchema<UpdateWorkflowRequest>({
  type: 'object',
  required: ['version', 'document'],
  additionalProperties: false,
  properties: {
    version: { type: 'integer', minimum: 1 },
    name: { type: 'string', minLength: 1, maxLength: 200 },
    task: { type: 'string', maxLength: 20_000 },
    document: documentSchema,
  },
});

/** Edges must join nodes that exist; ids must be unique. Returns the problems found. */
export function getDocumentIntegrityProblems(doc: WorkflowDocument): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  doc.nodes.forEach((n, i) => {
    if (ids.has(n.id)) problems.push(`document.nodes.${i}.id: duplicate node id "${n.id}"`);
    ids.add(n.id);
  });
  const edgeIds = new Set<string>();
  doc.edges.forEach((e, i) => {
    if (edgeIds.has(e.id)) problems.push(`document.edges.${i}.id: duplicate edge id "${e.id}"`);
    edgeIds.add(e.id);
    if (!ids.has(e.source)) problems.push(`document.edges.${i}.source: no node "${e.source}"`);
    if (!ids.has(e.target)) problems.push(`document.edges.${i}.target: no node "${e.target}"`);
  });
  return problems;
}

export const validateRestoreRevision = compileRequestSchema<RestoreRevisionRequest>({
  type: 'object',
  required: ['version'],
  additionalProperties: false,
  properties: { version: { type: 'integer', minimum: 1 } },
});

export const validateLabelRevision = compileRequestSchema<LabelRevisionRequest>({
  type: 'object',
  required: ['label'],
  additionalProperties: false,
  properties: { label: { type: ['string', 'null'], minLength: 1, maxLength: 100 } },
});

export const validateCreateShare = compileRequestSchema<CreateShareRequest>({
  type: 'object',
  additionalProperties: false,
  properties: {
    expiresInDays: { type: ['number', 'null'], exclusiveMinimum: 0, maximum: 3650 },
    acknowledgeSecrets: { type: 'boolean' },
  },
});
