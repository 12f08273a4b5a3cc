/** The call of POST /api/plan, whose answer streams. */
import { send, type ApiResult, type CallOptions } from './client';
import type { PlanRequest } from './types';

/** POST /api/plan: the NDJSON stream of PlanLines on success (lib/editor/ndjson.ts reads it). */
export async function openPlanStream(
  body: PlanRequest,
  opts: CallOptions = {},
): Promise<ApiResult<ReadableStream<Uint8Array>>> {
  const what = 'Planning';
  const sent = await send('/api/plan', {
    ...opts,
    method: 'POST',
    json: body,
    accept: 'application/x-ndjson',
    what,
  });
  if (!sent.ok) return sent;
  if (!sent.value.body) {
    return {
      ok: false,
      error: {
        status: sent.value.status,
        code: 'bad_response',
        message: `${what} failed: the server answered without a stream. Try again.`,
        issues: [],
        body: null,
      },
    };
  }
  return { ok: true, value: sent.value.body };
}
