import type { Metadata } from 'next';
import { SharedView } from '@/components/save/shared-view';
import { toClientProps } from '@/lib/tools/json-value';
import type { ShareSummary } from '@/lib/db/shares';
import type { WorkflowRecord } from '@/lib/db/workflows';
import { countOf } from '@/lib/plural';

/** What a share page shows: one version of a workflow behind a live link. */
export interface SharedPageData {
  share: ShareSummary;
  workflow: Pick<WorkflowRecord, 'id' | 'name' | 'task' | 'version' | 'document'>;
}

/**
 * The share page's title and preview card. Share links are for the people they were sent to:
 * never indexed, never leaked as a Referer.
 */
export function getSharedMetadata(shared: SharedPageData | null): Metadata {
  const title = shared ? `${shared.workflow.name} (shared workflow)` : 'Link not available';
  const steps = shared?.workflow.document.nodes.length ?? 0;
  return {
    title,
    robots: { index: false, follow: false },
    referrer: 'no-referrer',
    openGraph: shared
      ? {
          title,
          description: `${countOf(steps, 'step')}${shared.workflow.task ? `: ${shared.workflow.task.slice(0, 160)}` : ''}. Read-only on Toolflow.`,
          siteName: 'Toolflow',
          type: 'website',
        }
      : undefined,
  };
}

/** A shared workflow, read-only, with Download JSON and Fork. The token is not in it (see SharedView). */
export function SharedPage({ shared: { workflow, share } }: { shared: SharedPageData }) {
  return (
    <SharedView
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
