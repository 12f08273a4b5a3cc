import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getPrisma } from '@/lib/db/client';
import { getWorkflow } from '@/lib/db/workflows';
import { Editor } from '@/components/editor/editor';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const workflow = await getWorkflow(await getPrisma(), id);
  return { title: workflow?.name ?? 'Not found' };
}

/** The editor for one workflow. */
export default async function WorkflowPage({ params }: Props) {
  const { id } = await params;
  const workflow = await getWorkflow(await getPrisma(), id);
  if (!workflow) notFound();
  return (
    <Editor
      init={{
        meta: { id: workflow.id, name: workflow.name, version: workflow.version, readOnly: false },
        doc: workflow.document,
      }}
    />
  );
}
