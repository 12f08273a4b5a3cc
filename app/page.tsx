import Link from 'next/link';
import { getPrisma } from '@/lib/db/client';
import { listWorkflows } from '@/lib/db/workflows';
import { getPageAccount } from '@/lib/http/access';
import { AccountBar } from '@/components/account/account-bar';
import { createPlannerFromEnv } from '@/lib/llm/env';
import { NewWorkflowButton } from '@/components/home/new-workflow-button';
import { WorkflowList } from '@/components/home/workflow-list';
import { ImportWorkflow } from '@/components/save/import-workflow';
import { NewWorkflowPrompt } from '@/components/prompt/new-workflow-prompt';
import './home.css';

export const dynamic = 'force-dynamic';

/** The configured language model, described for the planner picker; null when there is none. */
function getConfiguredModel(): string | null {
  const choice = createPlannerFromEnv(process.env, 'openai');
  return choice.ok ? choice.value.description : null;
}

/** Home: describe a task to start a workflow, and my workflows, newest first, to open and manage. */
export default async function HomePage() {
  const { owner, user, workspaces: spaces } = await getPageAccount();
  const workflows = await listWorkflows(await getPrisma(), { ownerId: owner?.id ?? null });
  return (
    <main className="page home">
      <header className="home__head">
        <h1>Toolflow</h1>
        <nav className="home__nav">
          <Link href="/toolkits" data-testid="nav-toolkits">
            Toolkits
          </Link>
          <AccountBar
            user={user ? { email: user.email } : null}
            workspaces={spaces.map(({ id, name, role }) => ({ id, name, role }))}
            current={user ? (owner?.id ?? null) : null}
          />
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
      <WorkflowList workflows={workflows.map((w) => ({ ...w, updatedAt: w.updatedAt.toISOString() }))} />
    </main>
  );
}
