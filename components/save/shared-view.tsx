'use client';
import { ReactFlowProvider } from '@xyflow/react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, useSyncExternalStore } from 'react';
import { forkShared } from '@/lib/api/workflows';
import { EditorStoreProvider, useEditorStore } from '@/lib/editor/context';
import { selectSelectedNodeIds } from '@/lib/editor/selectors';
import type { WorkflowDocument } from '@/lib/workflow/types';
import { WorkflowCanvas } from '@/components/canvas/workflow-canvas';
import { Inspector } from '@/components/inspector/inspector';
import { JsonPanel } from '@/components/panels/json-panel';
import '@/components/ui/controls.css';
import './save.css';

export interface SharedWorkflow {
  id: string;
  name: string;
  task: string;
  version: number;
  document: WorkflowDocument;
  expiresAt: string | null;
}

const subscribeNever = () => () => {};

/**
 * The link's token, from the address bar (/s/<token>). The page itself does not carry it: one
 * rendered copy of a version serves every request for the link (app/s/v/[hash]/[version]).
 */
function getTokenFromAddress(): string {
  return decodeURIComponent(window.location.pathname.split('/').filter(Boolean).pop() ?? '');
}

type SideTab = 'step' | 'json';

/**
 * Beside the canvas: the JSON export, and the parameters of the step clicked on the canvas (the
 * editor's inspector, read-only). Clicking a step shows its parameters.
 */
function SharedSide({ hydrated }: { hydrated: boolean }) {
  const selected = useEditorStore(selectSelectedNodeIds);
  const [tab, setTab] = useState<SideTab>('json');
  const [shownSelection, setShownSelection] = useState(selected);
  if (selected !== shownSelection) {
    setShownSelection(selected);
    if (selected.length > 0) setTab('step');
  }
  const tabs: { id: SideTab; label: string }[] = [
    { id: 'step', label: 'Step' },
    { id: 'json', label: 'JSON' },
  ];
  return (
    <aside className="shared__side" aria-label="Details" data-testid="shared-side">
      <div className="tabs" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`shared-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="shared-panel"
            className={`tabs__tab${tab === t.id ? ' tabs__tab--on' : ''}`}
            onClick={() => setTab(t.id)}
            data-testid={`shared-tab-${t.id}`}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="shared__panel" id="shared-panel" role="tabpanel" aria-labelledby={`shared-tab-${tab}`}>
        {tab === 'step' ? <Inspector /> : hydrated ? <JsonPanel /> : null}
      </div>
    </aside>
  );
}

/**
 * A shared workflow, read-only: the editor's own canvas, inspector and JSON panel on a store that
 * refuses edits (`meta.readOnly`), with Download JSON and Fork (a copy of one's own to edit).
 */
export function SharedView({ workflow }: { workflow: SharedWorkflow }) {
  const router = useRouter();
  const [forking, setForking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The JSON panel is the export, derived from the document the page already carries: rendered in
  // the browser only, so the HTML does not carry the workflow a second time (as escaped text).
  const hydrated = useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );

  // The token from the address bar once in the browser (the rendered page does not carry it).
  const token = useSyncExternalStore(subscribeNever, getTokenFromAddress, () => '');

  const fork = async () => {
    setForking(true);
    setError(null);
    const res = await forkShared(token);
    if (res.ok) return router.push(`/w/${res.value.workflow.id}`);
    setError(res.error.code === 'network' ? res.error.message : `Could not fork: ${res.error.message}`);
    setForking(false);
  };

  return (
    <EditorStoreProvider
      init={{
        meta: { id: workflow.id, name: workflow.name, version: workflow.version, readOnly: true },
        doc: workflow.document,
      }}
    >
      <ReactFlowProvider>
        <div className="shared" data-testid="shared-view">
          <header className="shared__bar" data-testid="shared-bar">
            <Link href="/">Toolflow</Link>
            <span aria-hidden="true">/</span>
            <h1 className="shared__name" data-testid="shared-name">
              {workflow.name}
            </h1>
            <span className="shared__badge" data-testid="shared-read-only">
              Read-only
            </span>
            {workflow.task ? <span className="muted">{workflow.task}</span> : null}
            <div className="shared__actions">
              {workflow.expiresAt ? (
                <span className="muted">Link expires {workflow.expiresAt.slice(0, 10)}</span>
              ) : null}
              <a
                className="btn btn-small"
                href={`/api/shares/${encodeURIComponent(token)}/export`}
                download
                data-testid="shared-download"
              >
                Download JSON
              </a>
              <button
                type="button"
                className="btn btn-small btn-primary"
                onClick={() => void fork()}
                disabled={forking}
                title="Copy it into your own workflows, where you can edit it"
                data-testid="shared-fork"
              >
                {forking ? 'Forking…' : 'Fork to edit'}
              </button>
            </div>
            {error ? (
              <p className="error-text" role="alert" data-testid="shared-error">
                {error}
              </p>
            ) : null}
          </header>
          <main className="shared__body">
            <div className="shared__canvas">
              <WorkflowCanvas />
            </div>
            <SharedSide hydrated={hydrated} />
          </main>
        </div>
      </ReactFlowProvider>
    </EditorStoreProvider>
  );
}
