/**
 * Request schemas for /api/workflows (JSON Schema, compiled once with Ajv); the request types are
 * the API contract's (lib/api/types.ts), which the browser's client sends.
 */
import type {
  CreateShareRequest,
  CreateWorkflowRequest,
  LabelRevisionRequest,
  RenameWorkflowRequest,
  RestoreRevisionRequest,
  UpdateWorkflowRequest,
} from '@/lib/api/types';
import { compileRequestSchema } from '@/lib/http/body';
import { AppError, type ErrorCode } from '@/lib/http/errors';
import { getDocumentIssues } from '@/lib/workflow/check';
import { getDocumentStorageIssues } from '@/lib/workflow/storable';
import { WORKFLOW_NAME_MAX } from '@/lib/workflow/name';
import type { WorkflowDocument } from '@/lib/workflow/types';

const position = {
  type: 'object',
  required: ['x', 'y'],
  properties: { x: { type: 'number' }, y: { type: 'number' } },
};

/** An issue on a node (NodeIssue in lib/workflow/types.ts). */
const nodeIssue = {
  type: 'object',
  required: ['severity', 'code', 'message'],
  properties: {
    severity: { enum: ['error', 'warning'] },
    code: { type: 'string' },
    message: { type: 'string' },
    param: { type: 'string' },
  },
};

/**
 * Structural shape of a stored WorkflowDocument (lib/workflow/types.ts): enough that the write
 * check (`assertExportableDocument`) can export it; that check then applies the export's rules.
 */
export const documentSchema = {
  type: 'object',
  required: ['nodes', 'edges', 'tools'],
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
          notes: { type: 'array', items: nodeIssue },
          rawArguments: { type: 'string' },
          placeholderParams: { type: 'array', items: { type: 'object' } },
          placeholderOutputs: { type: 'array', items: { type: 'object' } },
          placeholderMissingArgs: { type: 'array', items: { type: 'string' } },
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
    tools: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['declaration', 'hash'],
        properties: { declaration: { type: 'object' }, hash: { type: 'string' } },
      },
    },
    systemParams: { type: 'array', items: { type: 'string' } },
  },
} as const;

/** A workflow name: stored whole, up to WORKFLOW_NAME_MAX characters (lib/workflow/name.ts). */
const nameSchema = { type: 'string', minLength: 1, maxLength: WORKFLOW_NAME_MAX } as const;

export const validateCreateWorkflow = compileRequestSchema<CreateWorkflowRequest>({
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: nameSchema,
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
    name: nameSchema,
    task: { type: 'string', maxLength: 20_000 },
    document: documentSchema,
    reason: { enum: ['save', 'plan', 'resolve'] },
  },
});

export const validateRenameWorkflow = compileRequestSchema<RenameWorkflowRequest>({
  type: 'object',
  required: ['version', 'name'],
  additionalProperties: false,
  properties: { version: { type: 'integer', minimum: 1 }, name: nameSchema },
});

/**
 * A name from a request without the spaces around it; 400 `bad_request:name` when nothing else
 * is left (the schema has already bounded its length).
 */
export function readWorkflowName(name: string): string;
export function readWorkflowName(name: string | undefined): string | undefined;
export function readWorkflowName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  if (!trimmed)
    throw new AppError(
      'bad_request:name',
      `Invalid request: name: is blank. Give the workflow a name of 1 to ${WORKFLOW_NAME_MAX} characters.`,
    );
  return trimmed;
}

/**
 * The check every write of a document passes (create, save, fork, restore, import): it must
 * export to a file its own import accepts (lib/workflow/check.ts). Throws `code` (400 for a
 * document in the request) naming each problem with its JSON path under `at`; nothing is saved.
 * `inCheckedBody`: the document came in a request body that `readJson` (lib/http/body.ts) has
 * already searched for text the database cannot hold, so that search is not made twice.
 */
export function assertExportableDocument(
  doc: WorkflowDocument,
  opts: { at: string; what: string; code?: ErrorCode; inCheckedBody?: boolean },
): void {
  assertStorableDocument(doc, opts);
  const issues = getDocumentIssues(doc).map((issue) => ({ ...issue, path: opts.at + issue.path }));
  if (issues.length === 0) return;
  const shown = issues
    .slice(0, 5)
    .map((issue) => `${issue.path || '(document)'}: ${issue.message.replace(/\.$/, '')}`)
    .join('; ');
  throw new AppError(
    opts.code ?? 'bad_request:document',
    `${opts.what} would not export to a file Toolflow can import again (${issues.length} problem${issues.length === 1 ? '' : 's'}): ${shown}${issues.length > 5 ? '; …' : ''}. Nothing was saved.`,
    { details: { issues } },
  );
}

/**
 * 400 when the database cannot store the document (lib/workflow/storable.ts): a declaration or
 * value nested too deep, or text holding a NUL character; each problem named with its JSON path.
 */
function assertStorableDocument(
  doc: WorkflowDocument,
  opts: { at: string; what: string; inCheckedBody?: boolean },
): void {
  const issues = getDocumentStorageIssues(doc, { text: !opts.inCheckedBody }).map((issue) => ({
    ...issue,
    path: opts.at + issue.path,
  }));
  if (issues.length === 0) return;
  const shown = issues
    .slice(0, 5)
    .map((issue) => `${issue.path || '(document)'}: ${issue.message}`)
    .join('; ');
  throw new AppError(
    issues.every((issue) => issue.code === 'too_deep') ? 'bad_request:depth' : 'bad_request:text',
    `${opts.what} cannot be stored: ${shown}${issues.length > 5 ? '; …' : ''} Nothing was saved.`,
    { details: { issues } },
  );
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
    role: { enum: ['viewer', 'editor'] },
  },
});
