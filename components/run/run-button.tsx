'use client';
/**
 * Run and Runs in the editor's header. Only these two buttons load with the editor: the dialog
 * and the list are separate chunks fetched on first click (lazyComponent), so the test-run UI adds
 * nothing else to the editor's first load.
 */
import { useState } from 'react';
import { lazyComponent } from '@/components/ui/lazy';
import { useEditorStore } from '@/lib/editor/context';
import type { EditorState } from '@/lib/editor/store';

const RunDialog = lazyComponent(() => import('./run-dialog').then((m) => m.RunDialog));
const RunsDialog = lazyComponent(() => import('./runs-dialog').then((m) => m.RunsDialog));

// Test-runs belong to the workflow's workspace: not offered through an edit link.
const selectReadOnly = (s: EditorState) => s.meta.readOnly || !!s.meta.viaLink;
const selectHasNodes = (s: EditorState) => s.doc.nodes.length > 0;

export function RunButtons() {
  const readOnly = useEditorStore(selectReadOnly);
  const hasNodes = useEditorStore(selectHasNodes);
  const [open, setOpen] = useState<'run' | 'runs' | null>(null);
  if (readOnly) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-small btn-primary"
        disabled={!hasNodes}
        title={hasNodes ? 'Run the saved workflow against its MCP servers' : 'Add steps to run'}
        aria-haspopup="dialog"
        onClick={() => setOpen('run')}
        data-testid="run-open"
      >
        Run
      </button>
      <button
        type="button"
        className="btn btn-small"
        aria-haspopup="dialog"
        onClick={() => setOpen('runs')}
        data-testid="runs-open"
      >
        Runs
      </button>
      {open === 'run' ? <RunDialog onClose={() => setOpen(null)} /> : null}
      {open === 'runs' ? <RunsDialog onClose={() => setOpen(null)} /> : null}
    </>
  );
}
