/** Request bodies of the /api/account/tokens routes. */
import { compileRequestSchema } from '@/lib/http/body';

export const validateCreateToken = compileRequestSchema<{
  name: string;
  workspaceId: string;
  expiresInDays?: number;
}>({
  type: 'object',
  required: ['name', 'workspaceId'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 80, pattern: '\\S' },
    workspaceId: { type: 'string', minLength: 1, maxLength: 200 },
    expiresInDays: { type: 'integer', minimum: 1, maximum: 366 },
  },
});
