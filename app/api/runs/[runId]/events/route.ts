/**
 * GET /api/runs/[runId]/events — a test-run's status as an NDJSON stream, like planning: a
 * `state` line with the run and all its nodes at once (so a reloaded page resumes from what is
 * stored), another each time something changes, and a last `end` line when the run reached a
 * final status. The worker may be another process: the stream reads the database, not memory.
 */
import { getPrisma } from '@/lib/db/client';
import { getRun, getRunNodes } from '@/lib/db/runs';
import { withErrors } from '@/lib/http/errors';
import { getRequestOwner } from '@/lib/http/owner';
import { FINAL_RUN_STATUSES } from '@/lib/run/types';
import { getRunPathRedactor } from '@/lib/mcp/server-paths';
import { requireOwnedRun, toNodesJson, toRunJson } from '../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ runId: string }> };

/** How often the stored state is looked at. */
const POLL_MS = 250;
/** A line now and then keeps proxies from closing a quiet stream. */
const PING_MS = 15_000;

export const GET = withErrors(async (request: Request, context: Context) => {
  const { runId } = await context.params;
  const owner = getRequestOwner(request);
  const db = await getPrisma();
  const paths = getRunPathRedactor((await requireOwnedRun(db, runId, owner, 'follow')).ownerId);
  const encoder = new TextEncoder();
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: unknown) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(JSON.stringify(line) + '\n'));
        } catch {
          open = false;
        }
      };
      request.signal.addEventListener('abort', () => (open = false));
      let seen = -1;
      let lastSent = Date.now();
      try {
        while (open) {
          const run = await getRun(db, runId);
          if (!run) {
            send({ type: 'error', code: 'not_found:run', message: `Test-run "${runId}" no longer exists.` });
            break;
          }
          if (run.revision !== seen) {
            seen = run.revision;
            send({
              type: 'state',
              run: toRunJson(run, paths),
              nodes: toNodesJson(await getRunNodes(db, runId), paths),
            });
            lastSent = Date.now();
          } else if (Date.now() - lastSent > PING_MS) {
            send({ type: 'ping' });
            lastSent = Date.now();
          }
          if (FINAL_RUN_STATUSES.has(run.status)) {
            send({ type: 'end', status: run.status });
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      } catch (error) {
        console.error(`Run stream ${runId} failed:`, error);
        send({
          type: 'error',
          code: 'internal',
          message: 'Following the run failed on the server; reload to resume.',
        });
      } finally {
        if (open) {
          open = false;
          controller.close();
        }
      }
    },
    cancel() {
      open = false;
    },
  });
  return new Response(stream, {
    headers: { 'content-type': 'application/x-ndjson; charset=utf-8' },
  });
});
