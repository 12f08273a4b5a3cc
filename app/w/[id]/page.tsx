import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getPrisma } from '@/lib/db/client';
import { getWorkflow } from '@/lib/db/workflows';
import { getValueProblems } from '@/lib/workflow/export';
import { can, getPageOwner, getWorkflowOwner, type Action, type RequestOwner } from '@/lib/http/access';
import { AppError } from '@/lib/http/errors';
import { createPlannerFromEnv } from '@/lib/llm/env';
import { Editor } from '@/components/editor/editor';
import { NotYourWorkflow } from '@/components/save/not-your-workflow';
import { toClientProps } from '@/lib/tools/json-value';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

/** Who the page acts as on the workflow for `action` (lib/http/access.ts), or null when refused. */
async function tryOwner(
  owner: RequestOwner,
  workflow: { id: string; ownerId: string | null },
  action: Action,
): Promise<RequestOwner | null> {
  try {
    return await getWorkflowOwner(owner, workflow, action, 'open');
  } catch (error) {
    if (error instanceof AppError && error.status === 403) return null;
    throw error;
  }
}

// One lookup per request, shared by the metadata and the page.
const load = cache(async (id: string) => {
  const [workflow, owner] = await Promise.all([getWorkflow(await getPrisma(), id), getPageOwner()]);
  if (!workflow || !owner) return { workflow, isOwner: false, canEdit: false, viaLink: false };
  // Its workspace, or an account's live edit link to it (docs/design.md §13.4). A viewer of the
  // workspace sees the editor read-only; the API refuses their writes anyway.
  const acting = (await tryOwner(owner, workflow, 'edit')) ?? (await tryOwner(owner, workflow, 'read'));
  return {
    workflow,
    isOwner: acting !== null,
    canEdit: acting !== null && can(acting.role, 'edit'),
    viaLink: !!acting?.viaLink,
  };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const { workflow, isOwner } = await load(id);
  // Another browser's workflow does not even show its name.
  return { title: workflow ? (isOwner ? workflow.name : 'Not your workflow') : 'Not found' };
}

/** The editor for one workflow; only its workspace may open it (others are told to ask for a share link). */
export default async function WorkflowPage({ params }: Props) {
  const { id } = await params;
  const { workflow, isOwner, canEdit, viaLink } = await load(id);
  if (!workflow) notFound();
  if (!isOwner) return <NotYourWorkflow />;
  // The configured language model, offered next to the offline planner in the prompt bar.
  const model = createPlannerFromEnv(process.env, 'openai');
  return (
    <Editor
      init={{
        meta: {
          id: workflow.id,
          name: workflow.name,
          version: workflow.version,
          readOnly: !canEdit,
          viaLink,
        },
        // Read without prototypes (lib/db); a Client Component's props must be plain objects.
        doc: toClientProps(workflow.document),
        // Checked here, so the browser needs the schema compiler only once something changes.
        valueProblems: getValueProblems(workflow.document),
      }}
      llm={model.ok ? model.value.description : null}
    />
  );
}
