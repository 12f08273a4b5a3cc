import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getPrisma } from '@/lib/db/client';
import { getRun, getRunExport, getRunNodes } from '@/lib/db/runs';
import { getPageOwner } from '@/lib/http/access';
import { getRunPathRedactor } from '@/lib/mcp/server-paths';
import { toNodesJson, toRunJson } from '@/app/api/runs/access';
import { importWorkflow } from '@/lib/workflow/import';
import { RunView } from '@/components/run/run-view';
import { NotYourWorkflow } from '@/components/save/not-your-workflow';
import { parseJson, toClientProps } from '@/lib/tools/json-value';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ id: string; runId: string }> };

const load = cache(async (workflowId: string, runId: string) => {
  const db = await getPrisma();
  const [run, owner] = await Promise.all([getRun(db, runId), getPageOwner()]);
  if (!run || run.workflowId !== workflowId) return { run: null, isOwner: false } as const;
  return { run, isOwner: !!owner && run.ownerId === owner.id, db } as const;
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id, runId } = await params;
  const { run, isOwner } = await load(id, runId);
  return { title: run ? (isOwner ? `Run of version ${run.version}` : 'Not your workflow') : 'Not found' };
}

/** A test-run on the canvas of the version that ran; its owner only. */
export default async function RunPage({ params }: Props) {
  const { id, runId } = await params;
  const loaded = await load(id, runId);
  if (!loaded.run) notFound();
  if (!loaded.isOwner) return <NotYourWorkflow />;
  const { run, db } = loaded;
  const [file, nodes] = await Promise.all([getRunExport(db, runId), getRunNodes(db, runId)]);
  // The canvas of the version that ran is the export that ran, read back.
  const imported = importWorkflow(parseJson(file!.exportText));
  if (!imported.ok)
    throw new Error(`The stored export of run ${runId} does not import: ${imported.error[0]?.message}`);
  // What the page starts from passes the owner's path redactor, as every run answer of the API does.
  const paths = getRunPathRedactor(run.ownerId);
  return (
    <RunView
      workflow={{ id, name: imported.value.meta.name }}
      document={toClientProps(imported.value.document)}
      initial={JSON.parse(JSON.stringify({ run: toRunJson(run, paths), nodes: toNodesJson(nodes, paths) }))}
    />
  );
}
