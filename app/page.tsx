import Link from 'next/link';
import { cookies } from 'next/headers';
import { getPrisma } from '@/lib/db/client';
import { listWorkflows } from '@/lib/db/workflows';
import { OWNER_COOKIE, verifyOwnerCookie } from '@/lib/http/owner';
import { createPlannerFromEnv } from '@/lib/llm/env';
import { NewWorkflowButton } from '@/components/home/new-workflow-button';
import { ImportWorkflow } from '@/components/save/import-workflow';
import { NewWorkflowPrompt } from '@/components/prompt/new-workflow-prompt';
import './home.css';

export const dynamic = 'force-dynamic';

/** The configured language model, described for the planner picker; null when there is none. */
function getConfiguredModel(): string | null {
  const choice = createPlannerFromEnv(process.env, 'openai');
  return choice.ok ? choice.value.description : null;
}

/** Home: describe a task to start a workflow, and my workflows, newest first. */
export default async function HomePage() {
  const ownerId = verifyOwnerCookie((await cookies()).get(OWNER_COOKIE)?.value);
  const workflows = await listWorkflows(await getPrisma(), { ownerId });
  return (
    <main className="page home">
      <header className="home__head">
        <h1>Toolflow</h1>
        <nav className="home__nav">
          <Link href="/toolkits" data-testid="nav-toolkits">
            Toolkits
          </Link>
        </nav>
      </header>
      <p className="muted home__lede">
        Describe a task; a planner proposes tool calls from your toolkits; review the graph and export correct
        node JSON.
      </p>
      <NewWorkflowPrompt llm={getConfiguredModel()} />
      <div className="home__actions" data-testid="home-actions">
        <NewWorkflowButton />
        <ImportWorkflow />
      </div>
      <h2 className="home__section">My workflows</h2>
      {workflows.length === 0 ? (
        <p className="muted" data-testid="no-workflows">
          No workflows yet: describe a task above, or start an empty one.
        </p>
      ) : (
        <ul className="list" data-testid="workflow-list">
          {workflows.map((w) => (
            <li key={w.id} className="card" data-testid="workflow-item">
              <div className="home__item">
                <Link href={`/w/${w.id}`} className="home__item-name">
                  {w.name}
                </Link>
                {w.task ? <div className="muted home__item-task">{w.task}</div> : null}
              </div>
              <span className="muted home__item-meta">
                {w.nodeCount} {w.nodeCount === 1 ? 'step' : 'steps'} · v{w.version} ·{' '}
                {w.updatedAt.toISOString().slice(0, 16).replace('T', ' ')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
