/** Request schema for POST /api/plan (JSON Schema, compiled once with Ajv). */
import { compileRequestSchema } from '@/lib/http/body';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { documentSchema } from '../workflows/schema';

/**
 * What to plan: the task, the tools (saved toolkits by id and/or declarations in any format),
 * and for a follow-up the workflow to edit (a saved one by id, or the editor's current document,
 * which wins because it may hold unsaved edits).
 */
export interface PlanRequestBody {
  task: string;
  toolkitIds?: string[];
  tools?: unknown;
  workflowId?: string;
  document?: WorkflowDocument;
  llm?: 'auto' | 'offline' | 'openai';
  maxIterations?: number;
}

export const validatePlanRequest = compileRequestSchema<PlanRequestBody>({
  type: 'object',
  required: ['task'],
  additionalProperties: false,
  properties: {
    task: { type: 'string', minLength: 1, maxLength: 20_000, pattern: '\\S' },
    toolkitIds: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 200 } },
    tools: { type: ['object', 'array'] },
    workflowId: { type: 'string', minLength: 1, maxLength: 200 },
    document: documentSchema,
    llm: { enum: ['auto', 'offline', 'openai'] },
    maxIterations: { type: 'integer', minimum: 1, maximum: 20 },
  },
});
