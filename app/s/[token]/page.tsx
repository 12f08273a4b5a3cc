import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getPrisma } from '@/lib/db/client';
import { getSharedWorkflow } from '@/lib/db/shares';
import { getSharedMetadata, SharedPage } from '@/components/save/shared-page';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ token: string }> };

// One lookup per request, shared by the metadata and the page.
const load = cache(async (token: string) => getSharedWorkflow(await getPrisma(), token));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return getSharedMetadata(await load((await params).token));
}

/**
 * A shared workflow, rendered for this request. A live link normally never gets here: the proxy
 * checks it and serves the rendered copy of its current version (app/s/v/[hash]/[version]). This
 * page answers the rest: 404 for a link that is not live, and the workflow when the link went
 * live between the proxy's check and now.
 */
export default async function SharedWorkflowPage({ params }: Props) {
  const shared = await load((await params).token);
  if (!shared) notFound();
  return <SharedPage shared={shared} />;
}
