import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getPrisma } from '@/lib/db/client';
import { getSharedVersion } from '@/lib/db/shares';
import { getSharedMetadata, SharedPage } from '@/components/save/shared-page';

/**
 * The share page of one version of a workflow, rendered once and then served from Next's cache.
 * Only the proxy reaches it: for GET /s/<token> it asks the database whether the link is live and
 * at which version its workflow is, then rewrites here with the token's hash and that version
 * (proxy.ts). A version never changes, so the rendered page never goes stale; a revoked or expired
 * link stops at the proxy's check on the very next request. Requests from outside for this path
 * get 404 from the proxy. The token itself is not in the page (SharedView reads it from the
 * address bar), so one cached page serves every request for that link and version.
 */
export const dynamicParams = true;
export const revalidate = false;
export function generateStaticParams(): { hash: string; version: string }[] {
  return [];
}

type Props = { params: Promise<{ hash: string; version: string }> };

const load = cache(async (hash: string, version: string) =>
  getSharedVersion(await getPrisma(), hash, /^[1-9][0-9]{0,9}$/.test(version) ? Number(version) : 0),
);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { hash, version } = await params;
  return getSharedMetadata(await load(hash, version));
}

export default async function SharedVersionPage({ params }: Props) {
  const { hash, version } = await params;
  const shared = await load(hash, version);
  if (!shared) notFound();
  return <SharedPage shared={shared} />;
}
