/** What /api/shares/[token]/** routes share: the lookup that 404s alike for unknown, revoked and expired links. */
import type { Db } from '@/lib/db/client';
import { getSharedWorkflow } from '@/lib/db/shares';
import { AppError } from '@/lib/http/errors';

/**
 * Headers for anything served by share token: never indexed. Never cached either (revocation is
 * immediate): every API answer is `private, no-store` (next.config.js).
 */
export const SHARE_HEADERS = { 'x-robots-tag': 'noindex, nofollow' } as const;

/** The live share's workflow, or 404 without saying whether the link ever existed. */
export async function requireSharedWorkflow(db: Db, token: string) {
  const shared = await getSharedWorkflow(db, token);
  if (!shared)
    throw new AppError(
      'not_found:share',
      'This share link does not exist, was revoked or has expired. Ask the owner for a new link.',
    );
  return shared;
}
