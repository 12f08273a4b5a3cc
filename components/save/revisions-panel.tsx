'use client';
import { useEffect, useState } from 'react';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import type { EditorState } from '@/lib/editor/store';
import { getRevision, labelRevision, listRevisions, restoreRevision } from '@/lib/api/workflows';
import type { Jsonified, RevisionListResponse, RevisionResponse } from '@/lib/api/types';
import { getSaveSession } from '@/lib/editor/use-autosave';
import type { DocumentDiff } from '@/lib/workflow/diff';
import { Modal } from '@/components/ui/dialog';
import { ConfirmButton } from '@/components/ui/confirm';
import { formatWhen } from './format-when';

type RevisionSummary = Jsonified<RevisionListResponse>['revisions'][number];
type RevisionDetail = Jsonified<RevisionResponse>;

const selectId = (s: EditorState) => s.meta.id;
const selectVersion = (s: EditorState) => s.meta.version;
const selectSaveState = (s: EditorState) => s.saveState;

/** "Saved", "Restored v3", "Imported", … for a revision's reason. */
function describeReason(reason: string): string {
  const restored = /^restore:(\d+)$/.exec(reason);
  if (restored) return `Restored v${restored[1]}`;
  return (
    { create: 'Created', save: 'Saved', import: 'Imported', fork: 'Forked', plan: 'Planned' }[reason] ??
    reason
  );
}

function DiffLists({ diff }: { diff: DocumentDiff }) {
  const rows: [string, string[]][] = [
    ['Nodes added', diff.nodes.added],
    ['Nodes removed', diff.nodes.removed],
    ['Nodes changed', diff.nodes.changed],
    ['Nodes moved', diff.nodes.moved],
    ['Edges added', diff.edges.added],
    ['Edges removed', diff.edges.removed],
    ['Params added', diff.params.added.map((p) => `${p.node}.${p.param}`)],
    ['Params removed', diff.params.removed.map((p) => `${p.node}.${p.param}`)],
    ['Params changed', diff.params.changed.map((p) => `${p.node}.${p.param}`)],
  ];
  return (
    <dl className="revisions__diff">
      {rows
        .filter(([, items]) => items.length)
        .map(([title, items]) => (
          <div key={title}>
            <dt>{title}</dt>
            <dd>
              {items.slice(0, 12).join(', ') + (items.length > 12 ? ` and ${items.length - 12} more` : '')}
            </dd>
          </div>
        ))}
    </dl>
  );
}

/**
 * The workflow's saved versions, newest first: what each changed against the one before, a name
 * to keep it beyond the retention bound, and Restore (which saves it as a new version).
 */
export function RevisionsPanel({ onClose }: { onClose: () => void }) {
  const store = useEditorStoreApi();
  const id = useEditorStore(selectId);
  const version = useEditorStore(selectVersion);
  const saveState = useEditorStore(selectSaveState);
  const [revisions, setRevisions] = useState<RevisionSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<RevisionDetail | null>(null);
  const [label, setLabel] = useState('');
  const [busy, setBusy] = useState(false);

  // Bumped after a change here (a name) to list again; a new version lists again by itself.
  const [listed, setListed] = useState(0);
  useEffect(() => {
    let current = true;
    void listRevisions(id).then((res) => {
      if (!current) return;
      if (res.ok) {
        setRevisions(res.value.revisions);
        setError(null);
      } else setError(`Could not load the history: ${res.error.message}`);
    });
    return () => {
      current = false;
    };
  }, [id, version, listed]);

  const show = async (v: number) => {
    const res = await getRevision(id, v);
    if (!res.ok) return setError(`Could not open version ${v}: ${res.error.message}`);
    setOpen(res.value);
    setLabel(res.value.revision.label ?? '');
  };

  const restore = async (v: number) => {
    setBusy(true);
    const res = await restoreRevision(id, v, version);
    setBusy(false);
    if (!res.ok) return setError(`Could not restore version ${v}: ${res.error.message}`);
    // Autosave may not have started (nothing was edited): it starts now, on top of the restored copy.
    (await getSaveSession(store))?.adoptServerCopy(res.value.workflow);
    setOpen(null);
  };

  const saveLabel = async (v: number) => {
    const res = await labelRevision(id, v, label.trim() || null);
    if (!res.ok) return setError(`Could not name version ${v}: ${res.error.message}`);
    setListed((n) => n + 1);
  };

  const unsaved = saveState !== 'saved';
  return (
    <Modal
      title="History"
      placement="side"
      onClose={onClose}
      testId="revisions-panel"
      closeTestId="revisions-close"
    >
      <p className="muted save-drawer__note">
        Every save is kept (the last 200, plus the ones you name). Restoring saves the old version as a new
        one, so nothing is lost.
      </p>
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      {revisions === null ? <p className="muted">Loading…</p> : null}
      <ol className="revisions" data-testid="revisions-list">
        {revisions?.map((r) => (
          <li key={r.version} className={open?.revision.version === r.version ? 'revisions__item--open' : ''}>
            <button
              type="button"
              className="revisions__row"
              onClick={() => void show(r.version)}
              data-testid={`revision-${r.version}`}
            >
              <span className="revisions__version">v{r.version}</span>
              <span>
                {describeReason(r.reason)}
                {r.label ? <span className="revisions__label"> · {r.label}</span> : null}
                {r.version === version ? <span className="muted"> · current</span> : null}
              </span>
              <span className="muted">
                {r.nodeCount} nodes · {formatWhen(r.createdAt)}
              </span>
            </button>
            {open?.revision.version === r.version ? (
              <div className="revisions__detail" data-testid="revision-detail">
                <p data-testid="revision-summary">
                  {open.comparedWith ? `Against v${open.comparedWith}: ` : ''}
                  {open.summary}
                </p>
                {open.diff ? <DiffLists diff={open.diff} /> : null}
                <div className="revisions__actions">
                  <input
                    value={label}
                    onChange={(e) => setLabel(e.target.value)}
                    placeholder="Name this version to keep it"
                    maxLength={100}
                    aria-label="Version name"
                    data-testid="revision-label-input"
                  />
                  <button type="button" className="btn btn-small" onClick={() => void saveLabel(r.version)}>
                    {label.trim() ? 'Save name' : 'Remove name'}
                  </button>
                </div>
                {r.version !== version ? (
                  <div className="revisions__actions">
                    <ConfirmButton
                      className="btn btn-primary btn-small"
                      disabled={busy || unsaved}
                      confirm={{
                        title: `Restore version ${r.version}?`,
                        description: `The canvas changes to version ${r.version}. What you have now stays in the history as version ${version}, so you can restore it again.`,
                        confirmLabel: `Restore v${r.version}`,
                      }}
                      onConfirm={() => void restore(r.version)}
                      data-testid="revision-restore"
                    >
                      Restore v{r.version}
                    </ConfirmButton>
                    {unsaved ? <span className="muted">Wait until your changes are saved.</span> : null}
                  </div>
                ) : null}
              </div>
            ) : null}
          </li>
        ))}
      </ol>
    </Modal>
  );
}
