import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { cache } from 'react';
import { getPrisma } from '@/lib/db/client';
import { getSharedWorkflow } from '@/lib/db/shares';
import { getSessionUser } from '@/lib/http/auth';
import { countOf } from '@/lib/plural';
import { getSharedMetadata, SharedPage } from '@/components/save/shared-page';
import { EditLink } from '@/components/save/edit-link';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ token: string }> };

// One lookup per request, shared by the metadata and the page.
const load = cache(async (token: string) => getSharedWorkflow(await getPrisma(), token));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const shared = await load((await params).token);
  // A "can edit" link's page shows nothing of the workflow to a browser that has not signed in.
  if (shared?.share.role === 'editor')
    return {
      title: 'Edit a shared workflow',
      robots: { index: false, follow: false },
      referrer: 'no-referrer',
    };
  return getSharedMetadata(shared);
}

/**
 * A shared workflow, rendered for this request. A live "can view" link normally never gets here:
 * the proxy checks it and serves the rendered copy of its current version (app/s/v/[hash]/[version]).
 * This page answers the rest: 404 for a link that is not live, the workflow when the link went
 * live between the proxy's check and now, and every "can edit" link: sign in first (and come
 * back here), then open the editor (docs/design.md §13.4).
 */
export default async function SharedWorkflowPage({ params }: Props) {
  const { token } = await params;
  const shared = await load(token);
  if (!shared) notFound();
  if (shared.share.role !== 'editor') return <SharedPage shared={shared} />;
  const user = await getSessionUser(new Headers(await headers()));
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(`/s/${token}`)}`);
  const { workflow, share } = shared;
  const steps = workflow.document.nodes.length;
  return (
    <EditLink
      token={token}
      name={workflow.name}
      summary={`${countOf(steps, 'step')}${workflow.task ? `: ${workflow.task.slice(0, 200)}` : ''}.`}
      email={user.email}
      expiresAt={share.expiresAt?.toISOString() ?? null}
    />
  );
}
