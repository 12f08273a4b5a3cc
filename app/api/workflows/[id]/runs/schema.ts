/**
 * Request schema for POST /api/workflows/[id]/runs. The version is required: a run executes the
 * version whose pre-flight list the person confirmed, never whatever is current when the request
 * arrives (`{}` is a 400 naming it).
 */
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
