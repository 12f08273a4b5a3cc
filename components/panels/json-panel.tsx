'use client';
import { useMemo, useState } from 'react';
import { useEditorStore } from '@/lib/editor/context';
import { downloadText } from '@/lib/editor/download';
import { getExportFileName } from '@/lib/workflow/file-name';
import { selectExport } from '@/lib/editor/select-export';
import { selectMeta } from '@/lib/editor/selectors';
import '@/components/ui/controls.css';
import './panels.css';

/**
 * The live v1 export: exactly the bytes Export downloads (`JSON.stringify(export, null, 2)` and
 * a final newline),
 * updated on every edit, with Copy and Download.
 */
export function JsonPanel() {
  const exported = useEditorStore(selectExport);
  const meta = useEditorStore(selectMeta);
  // The same bytes as the server's Export (GET /api/workflows/:id/export), final newline included.
  const text = useMemo(() => JSON.stringify(exported, null, 2) + '\n', [exported]);
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopyState('copied');
    } catch {
      setCopyState('failed');
    }
    setTimeout(() => setCopyState('idle'), 2000);
  };

  return (
    <div className="json-panel" data-testid="json-panel">
      <div className="panel-toolbar">
        <span className="muted panel-toolbar__note">
          {exported.nodes.length} {exported.nodes.length === 1 ? 'node' : 'nodes'} · {exported.edges.length}{' '}
          {exported.edges.length === 1 ? 'edge' : 'edges'} · {text.length.toLocaleString('en')} bytes
        </span>
        <button type="button" className="btn btn-small" onClick={copy} data-testid="json-copy">
          {copyState === 'copied' ? 'Copied' : copyState === 'failed' ? 'Copy failed' : 'Copy'}
        </button>
        <button
          type="button"
          className="btn btn-small"
          onClick={() => downloadText(getExportFileName(meta.name), text)}
          data-testid="json-download"
        >
          Download
        </button>
      </div>
      {copyState === 'failed' ? (
        <p className="error-text panel-note" role="alert">
          The browser refused clipboard access; select the text below and copy it, or use Download.
        </p>
      ) : null}
      <pre className="json-panel__text" data-testid="json-panel-text" tabIndex={0}>
        {text}
      </pre>
    </div>
  );
}
