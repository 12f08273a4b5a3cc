import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getPrisma } from '@/lib/db/client';
import { getSharedWorkflow } from '@/lib/db/shares';
import { SharedView } from '@/components/save/shared-view';
import { toClientProps } from '@/lib/tools/json-value';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ token: string }> };

// One lookup per request, shared by the metadata and the page.
const load = cache(async (token: string) => getSharedWorkflow(await getPrisma(), token));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { token } = await params;
  const shared = await load(token);
  const title = shared ? `${shared.workflow.name} (shared workflow)` : 'Link not available';
  const steps = shared?.workflow.document.nodes.length ?? 0;
  return {
    title,
    // Share links are for the people they were sent to: never indexed, never leaked as a Referer.
    robots: { index: false, follow: false },
    referrer: 'no-referrer',
    openGraph: shared
      ? {
          title,
          description: `${steps} step${steps === 1 ? '' : 's'}${shared.workflow.task ? `: ${shared.workflow.task.slice(0, 160)}` : ''}. Read-only on Toolflow.`,
          siteName: 'Toolflow',
          type: 'website',
        }
      : undefined,
  };
}

/** A shared workflow, read-only, with Download JSON and Fork. 404 once revoked or expired. */
export default async function SharedWorkflowPage({ params }: Props) {
  const { token } = await params;
  const shared = await load(token);
  if (!shared) notFound();
  const { workflow, share } = shared;
  return (
    <SharedView
      token={token}
      workflow={{
        id: workflow.id,
        name: workflow.name,
        task: workflow.task,
        version: workflow.version,
        document: toClientProps(workflow.document),
        expiresAt: share.expiresAt?.toISOString() ?? null,
      }}
    />
  );
}
