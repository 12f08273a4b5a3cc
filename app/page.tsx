import Link from 'next/link';
import { getPrisma } from '@/lib/db/client';
import { listWorkflows } from '@/lib/db/workflows';
import { NewWorkflowButton } from '@/components/home/new-workflow-button';

export const dynamic = 'force-dynamic';

/** My workflows, newest first. */
export default async function HomePage() {
  const db = await getPrisma();
  const workflows = await listWorkflows(db);
  return (
    <main className="page">
      <h1>Toolflow</h1>
      <p className="muted">
        Describe a task, review the tool calls a model proposes, export correct node JSON.
      </p>
      <NewWorkflowButton />
      <h2>My workflows</h2>
      {workflows.length === 0 ? (
        <p className="muted" data-testid="no-workflows">
          No workflows yet.
        </p>
      ) : (
        <ul className="list" data-testid="workflow-list">
          {workflows.map((w) => (
            <li key={w.id} className="card" data-testid="workflow-item">
              <div>
                <Link href={`/w/${w.id}`}>{w.name}</Link>
                {w.task ? <div className="muted">{w.task}</div> : null}
              </div>
              <span className="muted">
                {w.nodeCount} {w.nodeCount === 1 ? 'node' : 'nodes'} · v{w.version}
              </span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
