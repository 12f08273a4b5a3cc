/**
 * GET /api/bench/json — a bare JSON answer: no database, no cookie, no body. The ceiling the API
 * bench (scripts/bench/api.ts) measures read and save throughput against, on the same server.
 * Not part of the product: 404 unless the server was started with TOOLFLOW_BENCH_PAGES=1.
 */
import { areBenchPagesEnabled } from '@/lib/bench/pages';

export const dynamic = 'force-dynamic';

export function GET(): Response {
  if (!areBenchPagesEnabled())
    return Response.json(
      { code: 'not_found', message: 'The bench routes answer only when TOOLFLOW_BENCH_PAGES=1.' },
      { status: 404 },
    );
  return Response.json({ ok: true });
}
