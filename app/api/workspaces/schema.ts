/** Request bodies of the /api/workspaces routes. */
import { compileRequestSchema } from '@/lib/http/body';
import { ROLES, type Role } from '@/lib/db/workspaces';

export const validateCreateWorkspace = compileRequestSchema<{ name: string }>({
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 80, pattern: '\\S' } },
});

export const validateCurrentWorkspace = compileRequestSchema<{ id: string }>({
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', minLength: 1, maxLength: 200 } },
});

export const validateInvite = compileRequestSchema<{ email: string; role: Role }>({
  type: 'object',
  required: ['email', 'role'],
  additionalProperties: false,
  properties: {
    email: { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' },
    role: { enum: [...ROLES] },
  },
});

export const validateRole = compileRequestSchema<{ role: Role }>({
  type: 'object',
  required: ['role'],
  additionalProperties: false,
  properties: { role: { enum: [...ROLES] } },
});
