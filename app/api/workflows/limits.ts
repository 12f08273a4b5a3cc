/**
 * The budget for new workflows per owner, shared by the routes that make one from nothing or from
 * one of the owner's own (POST /api/workflows, POST /api/workflows/[id]/duplicate): one count.
 */
import { createRateLimiter } from '@/lib/http/rate-limit';

export const workflowCreations = createRateLimiter({
  name: 'workflow-creations',
  limit: 120,
  windowMs: 60_000,
});
