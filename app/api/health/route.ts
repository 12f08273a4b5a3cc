/** GET /api/health — 200 when the app and its database answer, 503 otherwise. */
import { getPrisma } from '@/lib/db/client';
import { sql } from '@/lib/db/sql';
import { withErrors } from '@/lib/http/errors';

export const dynamic = 'force-dynamic';

export const GET = withErrors(async () => {
  const db = await getPrisma();
  await sql(db)`SELECT 1`;
  return Response.json({ ok: true });
});
