/**
 * GET /api/runs/[runId]/events — a test-run's status as an NDJSON stream, like planning: a
 * `state` line with the run and all its nodes at once (so a reloaded page resumes from what is
 * stored), another each time something changes, and a last `end` line when the run reached a
 * final status. The worker may be another process: the stream reads the database, not memory,
 * and reads it when it is told the run changed (lib/db/run-changes.ts: at once in this process,
 * through Postgres LISTEN/NOTIFY from others), and now and then in case a notice was lost.
 */
import { getPrisma } from '@/lib/db/client';
import { onRunChange } from '@/lib/db/run-changes';
import { getRun, getRunNodes } from '@/lib/db/runs';
import { withErrors } from '@/lib/http/errors';
import { getRequestOwner } from '@/lib/http/access';
import { FINAL_RUN_STATUSES } from '@/lib/run/types';
import { getRunPathRedactor } from '@/lib/mcp/server-paths';
import { requireOwnedRun, toNodesJson, toRunJson } from '../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ runId: string }> };

/** How often the stored state is looked at without being told of a change (a lost notice). */
const FALLBACK_MS = 2_000;
/** A line now and then keeps proxies from closing a quiet stream. */
const PING_MS = 15_000;

export const GET = withErrors(async (request: Request, context: Context) => {
  const { runId } = await context.params;
  const owner = await getRequestOwner(request);
  const db = await getPrisma();
  const paths = getRunPathRedactor((await requireOwnedRun(db, runId, owner, 'follow')).ownerId);
  const encoder = new TextEncoder();
  let open = true;
  // Ends the wait for the next change (a change, the reader leaving).
  let wake = () => {};
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
      // Told of a change: look now. Subscribed before the first look, so no change falls between.
      let changed = true;
      const stopListening = onRunChange(db, runId, () => {
        changed = true;
        wake();
      });
      request.signal.addEventListener('abort', () => {
        open = false;
        wake();
      });
      /** Until told of a change, the stream ends, or FALLBACK_MS pass. */
      const nextChange = () =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, FALLBACK_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      let seen = -1;
      let lastSent = Date.now();
      try {
        while (open) {
          changed = false;
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
          if (!changed) await nextChange();
        }
      } catch (error) {
        console.error(`Run stream ${runId} failed:`, error);
        send({
          type: 'error',
          code: 'internal',
          message: 'Following the run failed on the server; reload to resume.',
        });
      } finally {
        stopListening();
        if (open) {
          open = false;
          controller.close();
        }
      }
    },
    cancel() {
      open = false;
      wake();
    },
  });
  return new Response(stream, {
    headers: { 'content-type': 'application/x-ndjson; charset=utf-8' },
  });
});
