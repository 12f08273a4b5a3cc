/** Request schema for POST /api/workflows/[id]/runs. */
import { compileRequestSchema } from '@/lib/http/body';

export interface CreateRunRequest {
  /** The saved version to run: the one the person saw in the pre-flight list. */
  version: number;
}

export const validateCreateRun = compileRequestSchema<CreateRunRequest>({
  type: 'object',
  required: ['version'],
  additionalProperties: false,
  properties: { version: { type: 'integer', minimum: 1 } },
});
