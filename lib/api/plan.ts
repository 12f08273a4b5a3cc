/** The call of POST /api/plan, whose answer streams. */
import { openNdjsonStream, type ApiResult, type CallOptions } from './client';
import type { PlanRequest } from './types';

/** POST /api/plan: the NDJSON stream of PlanLines on success (lib/editor/ndjson.ts reads it). */
export async function openPlanStream(
  body: PlanRequest,
  opts: CallOptions = {},
): Promise<ApiResult<ReadableStream<Uint8Array>>> {
  return openNdjsonStream('/api/plan', { ...opts, method: 'POST', json: body, what: 'Planning' });
}
