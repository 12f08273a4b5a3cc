/** Request schema for POST /api/plan (JSON Schema, compiled once with Ajv) of the contract's PlanRequest. */
import type { PlanRequest } from '@/lib/api/types';
import { compileRequestSchema } from '@/lib/http/body';
import { documentSchema } from '../workflows/schema';

export const validatePlanRequest = compileRequestSchema<PlanRequest>({
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
