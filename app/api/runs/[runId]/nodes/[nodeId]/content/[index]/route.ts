/**
 * GET /api/runs/[runId]/nodes/[nodeId]/content/[index] — the bytes of an image or audio block a
 * step returned, so the page shows it from this origin (never a data: URL built from tool
 * output). Only raster image and common audio types are served, as themselves, with nosniff;
 * anything else is 415.
 */
import { getPrisma } from '@/lib/db/client';
import { getNodeRun } from '@/lib/db/runs';
import { AppError, withErrors } from '@/lib/http/errors';
import { getRequestOwner } from '@/lib/http/access';
import { requireOwnedRun } from '../../../../../access';

export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ runId: string; nodeId: string; index: string }> };

const SERVED = /^(image\/(png|jpeg|gif|webp|bmp)|audio\/(wav|x-wav|mpeg|mp3|ogg|webm))$/;

export const GET = withErrors(async (request: Request, context: Context) => {
  const { runId, nodeId, index } = await context.params;
  const owner = await getRequestOwner(request);
  const db = await getPrisma();
  await requireOwnedRun(db, runId, owner, 'see');
  const node = await getNodeRun(db, runId, nodeId);
  const position = Number(index);
  const block = Number.isInteger(position) ? node?.result?.content[position] : undefined;
  if (!block) {
    throw new AppError(
      'not_found:content',
      `Step "${nodeId}" of run "${runId}" has no content block ${index}.`,
    );
  }
  const mime = typeof block.mimeType === 'string' ? block.mimeType : '';
  const data = typeof block.data === 'string' ? block.data : '';
  if (!SERVED.test(mime) || !data) {
    throw new AppError(
      'unsupported_media_type:content',
      `Content block ${index} is ${mime || 'not an image or audio'}${data ? '' : ' with no stored data'}; only raster images and audio are served.`,
    );
  }
  return new Response(Buffer.from(data, 'base64'), {
    headers: {
      'content-type': mime,
      'content-disposition': 'inline',
      'x-content-type-options': 'nosniff',
    },
  });
});
