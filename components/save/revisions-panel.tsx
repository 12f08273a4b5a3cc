'use client';
import { useEffect, useRef, useState } from 'react';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import type { EditorState } from '@/lib/editor/store';
import { getRevision, labelRevision, listRevisions, restoreRevision } from '@/lib/api/workflows';
import type { Jsonified, RevisionListResponse, RevisionResponse } from '@/lib/api/types';
import { describeRevision, describeVersions } from '@/lib/editor/revision-text';
import { getSaveSession } from '@/lib/editor/use-autosave';
import { Modal } from '@/components/ui/dialog';
import { ConfirmButton } from '@/components/ui/confirm';
import { formatWhen } from './format-when';
import { StepChangesList } from './step-changes-list';
import './revisions.css';

type RevisionSummary = Jsonified<RevisionListResponse>['revisions'][number];
type RevisionDetail = Jsonified<RevisionResponse>;

const selectId = (s: EditorState) => s.meta.id;
const selectVersion = (s: EditorState) => s.meta.version;
const selectSaveState = (s: EditorState) => s.saveState;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the opened entry is compared with, and how the changes read. */
function DetailHeading({ detail, current }: { detail: RevisionDetail; current: number }) {
  const { revision, comparedWith, summary } = detail;
  if (comparedWith === null) return <p data-testid="revision-summary">The first version kept.</p>;
  if (revision.version === current)
    return (
      <p data-testid="revision-summary">
        What this version changed since version {comparedWith}: {summary}.
      </p>
    );
  return (
    <p data-testid="revision-summary">
      From this version to the current one (version {comparedWith}): {summary}.
    </p>
  );
}

interface OpenedRevisionProps {
  entry: RevisionSummary;
  detail: RevisionDetail;
  /** The current version. */
  current: number;
  label: string;
  onLabel(label: string): void;
  onSaveLabel(): void;
  canRestore: boolean;
  /** True while the editor has changes not yet saved (Restore waits for them). */
  unsaved: boolean;
  onRestore(): void;
}

/** An opened entry: what changed, step by step, its name, and Restore. */
function OpenedRevision({
  entry,
  detail,
  current,
  label,
  onLabel,
  onSaveLabel,
  canRestore,
  unsaved,
  onRestore,
}: OpenedRevisionProps) {
  return (
    <div className="revisions__detail" data-testid="revision-detail">
      <DetailHeading detail={detail} current={current} />
      <StepChangesList steps={detail.steps} />
      <div className="revisions__actions">
        <input
          value={label}
          onChange={(e) => onLabel(e.target.value)}
          placeholder="Name this version to keep it"
          maxLength={100}
          aria-label="Version name"
          data-testid="revision-label-input"
        />
        <button
          type="button"
          className="btn btn-small"
          disabled={label.trim() === (entry.label ?? '')}
          onClick={onSaveLabel}
        >
          {label.trim() || !entry.label ? 'Save name' : 'Remove name'}
        </button>
      </div>
      {entry.version !== current ? (
        <div className="revisions__actions">
          <ConfirmButton
            className="btn btn-primary btn-small"
            disabled={!canRestore}
            confirm={{
              title: `Restore version ${entry.version}?`,
              description: `The canvas changes to version ${entry.version}. What you have now stays in the history as version ${current}, so you can restore it again.`,
              confirmLabel: `Restore v${entry.version}`,
            }}
            onConfirm={onRestore}
            data-testid="revision-restore"
          >
            Restore v{entry.version}
          </ConfirmButton>
          {unsaved ? <span className="muted">Wait until your changes are saved.</span> : null}
        </div>
      ) : null}
    </div>
  );
}

/**
 * The workflow's history, newest first: an entry per version, except that the autosaves of a few
 * minutes are one entry; each says what it is (planned from, autosaved, restored, …) and when.
 * Opening an entry shows what changed between it and the current version, step by step, with a
 * name to keep it and Restore, which saves it as a new version and says so.
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
  const [restored, setRestored] = useState<{ from: number; to: number } | null>(null);
  const firstRow = useRef<HTMLButtonElement>(null);

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

  // After a restore, the new current entry heads the list: bring it into view and focus it.
  const restoredTo = restored?.to;
  const top = revisions?.[0]?.version;
  useEffect(() => {
    if (restoredTo === undefined || top !== restoredTo) return;
    firstRow.current?.scrollIntoView({ block: 'nearest' });
    firstRow.current?.focus();
  }, [restoredTo, top]);

  const show = async (v: number) => {
    if (open?.revision.version === v) return setOpen(null);
    // The current entry shows what it changed; any other, how it differs from the current one.
    const res = await getRevision(id, v, v === version ? {} : { against: 'current' });
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
    setError(null);
    setRestored({ from: v, to: res.value.workflow.version });
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
        The autosaves of a few minutes are one entry; plans, restores and named versions are their own. The
        last 200 entries are kept, and every named one. Restoring saves the old version as a new one, so
        nothing is lost.
      </p>
      <div role="status" className="revisions__status" data-testid="revisions-status">
        {restored ? `Restored version ${restored.from} as version ${restored.to}.` : ''}
      </div>
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
      {revisions === null ? <p className="muted">Loading…</p> : null}
      <ol className="revisions" data-testid="revisions-list">
        {revisions?.map((r, i) => {
          const isOpen = open?.revision.version === r.version;
          const isCurrent = r.version === version;
          const headline = describeRevision(r, revisions[i + 1]).join(' · ');
          return (
            <li
              key={r.version}
              className={isOpen ? 'revisions__item--open' : ''}
              data-testid="revision-entry"
              data-version={r.version}
            >
              <button
                type="button"
                ref={i === 0 ? firstRow : undefined}
                className="revisions__row"
                aria-expanded={isOpen}
                onClick={() => void show(r.version)}
                data-testid={`revision-${r.version}`}
              >
                <span className="revisions__version">v{r.version}</span>
                <span className="revisions__headline" title={headline} data-testid="revision-headline">
                  {headline}
                </span>
                {isCurrent ? (
                  <span className="revisions__current" data-testid="revision-current">
                    current
                  </span>
                ) : null}
                <span className="muted revisions__meta">
                  {describeVersions(r)} · {plural(r.nodeCount, 'step')} · {formatWhen(r.updatedAt)}
                </span>
              </button>
              {isOpen && open ? (
                <OpenedRevision
                  entry={r}
                  detail={open}
                  current={version}
                  label={label}
                  onLabel={setLabel}
                  onSaveLabel={() => void saveLabel(r.version)}
                  canRestore={!busy && !unsaved}
                  unsaved={unsaved}
                  onRestore={() => void restore(r.version)}
                />
              ) : null}
            </li>
          );
        })}
      </ol>
    </Modal>
  );
}
