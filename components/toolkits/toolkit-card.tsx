'use client';
import dynamic from 'next/dynamic';
import { useRef, useState } from 'react';
import { describeApiError } from '@/lib/api/client';
import { deleteToolkit, refreshToolkit, type ToolkitSummary } from '@/lib/api/toolkits';
import type { ToolDeclaration } from '@/lib/tools/types';
import { ConfirmButton } from '@/components/ui/confirm';

// The converters (strict mode, Gemini, catalogue) load when a report is first opened, not with
// the page.
const ConversionReport = dynamic(() => import('./conversion-report').then((m) => m.ConversionReport), {
  ssr: false,
  loading: () => <section className="tk-report" aria-busy="true" />,
});

interface Props {
  toolkit: ToolkitSummary;
  onChanged(toolkit: ToolkitSummary): void;
  onDeleted(id: string): void;
}

const SOURCE_LABELS: Record<string, string> = {
  builtin: 'Built-in sample',
  file: 'File',
  'mcp-http': 'MCP server',
  'mcp-stdio': 'Configured MCP server',
};

function ToolRow({ tool }: { tool: ToolDeclaration }) {
  const [open, setOpen] = useState(false);
  const schema = {
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
  };
  return (
    <li className="tk-tool" data-testid={`toolkit-tool-${tool.name}`}>
      <div className="tk-tool__head">
        <code className="tk-tool__name">{tool.name}</code>
        <button
          type="button"
          className="link-btn"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          data-testid={`toolkit-tool-schema-toggle-${tool.name}`}
        >
          {open ? 'Hide schema' : 'Schema'}
        </button>
      </div>
      {tool.description ? <p className="tk-tool__desc">{tool.description}</p> : null}
      {open ? (
        <pre className="tk-tool__schema" data-testid={`toolkit-tool-schema-${tool.name}`}>
          {JSON.stringify(schema, null, 2)}
        </pre>
      ) : null}
    </li>
  );
}

/**
 * One toolkit: where its tools come from, when they were read, its tools with their schemas,
 * and Refresh / Delete. Tool names and descriptions are untrusted text, shown as text.
 */
export function ToolkitCard({ toolkit, onChanged, onDeleted }: Props) {
  const [open, setOpen] = useState(false);
  const [reportOpen, setReportOpen] = useState(false);
  const [busy, setBusy] = useState<'refresh' | 'delete' | null>(null);
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);

  const refresh = async (text?: string) => {
    setBusy('refresh');
    setMessage(null);
    const result = await refreshToolkit(toolkit.id, text);
    setBusy(null);
    if (!result.ok) return setMessage({ kind: 'error', text: describeApiError(result.error) });
    const before = toolkit.contentHash;
    const refreshed = result.value.toolkit;
    onChanged(refreshed);
    setMessage({
      kind: 'info',
      text:
        refreshed.contentHash === before
          ? 'Up to date: no tool changed.'
          : `Refreshed: ${refreshed.tools.length} tools. Workflows using changed tools show it on their nodes.`,
    });
  };

  const remove = async () => {
    setBusy('delete');
    setMessage(null);
    const result = await deleteToolkit(toolkit.id);
    setBusy(null);
    if (!result.ok) return setMessage({ kind: 'error', text: describeApiError(result.error) });
    onDeleted(toolkit.id);
  };

  return (
    <li
      className="tk card"
      data-testid="toolkit-card"
      data-toolkit-id={toolkit.id}
      data-toolkit-name={toolkit.name}
    >
      <div className="tk__head">
        <ToolkitTitle toolkit={toolkit} />
        <ToolkitActions
          toolkit={toolkit}
          busy={busy}
          onRefresh={(text) => void refresh(text)}
          onDelete={() => void remove()}
        />
      </div>
      <p className="tk__runs-note muted" data-testid="toolkit-runnable-note">
        {toolkit.runnableNote}
      </p>
      <div className="tk__meta muted">
        {toolkit.tools.length} {toolkit.tools.length === 1 ? 'tool' : 'tools'}
        {toolkit.fetchedAt ? ` · read ${toolkit.fetchedAt.slice(0, 16).replace('T', ' ')} UTC` : ''}
        {toolkit.contentHash ? (
          <>
            {' · '}
            <code title={toolkit.contentHash}>
              {toolkit.contentHash.replace(/^sha256:/, '').slice(0, 12)}
            </code>
          </>
        ) : null}
      </div>
      {message ? (
        <p
          className={message.kind === 'error' ? 'error-text tk__message' : 'tk__message tk__message--info'}
          role={message.kind === 'error' ? 'alert' : 'status'}
          data-testid="toolkit-message"
        >
          {message.text}
        </p>
      ) : null}
      <button
        type="button"
        className="link-btn tk__toggle"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        data-testid="toolkit-tools-toggle"
      >
        {open ? 'Hide tools' : 'Show tools'}
      </button>
      {open ? (
        <ul className="tk__tools" data-testid="toolkit-tools">
          {toolkit.tools.map((tool) => (
            <ToolRow key={tool.name} tool={tool} />
          ))}
        </ul>
      ) : null}
      <button
        type="button"
        className="link-btn tk__toggle"
        aria-expanded={reportOpen}
        onClick={() => setReportOpen((o) => !o)}
        data-testid="toolkit-conversion-toggle"
      >
        {reportOpen ? 'Hide conversion report' : 'What converting changes'}
      </button>
      {reportOpen ? <ConversionReport tools={toolkit.tools} /> : null}
    </li>
  );
}

/** The toolkit's name, whether it can run, and where its tools come from. */
function ToolkitTitle({ toolkit }: { toolkit: ToolkitSummary }) {
  return (
    <div className="tk__title">
      <strong className="tk__name">{toolkit.name}</strong>
      <span
        className={`tk__runs${toolkit.runnable ? ' tk__runs--on' : ''}`}
        title={toolkit.runnableNote}
        data-testid="toolkit-runnable"
        data-runnable={toolkit.runnable}
      >
        {toolkit.runnable ? '▶ Runnable' : 'Declarations only'}
      </span>
      <span className="tk__source muted">
        {SOURCE_LABELS[toolkit.sourceKind] ?? toolkit.sourceKind}
        {toolkit.sourceRef && toolkit.sourceKind !== 'builtin' ? (
          <>
            {' · '}
            <code>{toolkit.sourceRef}</code>
          </>
        ) : null}
        {toolkit.format ? ` · ${toolkit.format} format` : ''}
      </span>
    </div>
  );
}

interface ActionsProps {
  toolkit: ToolkitSummary;
  busy: 'refresh' | 'delete' | null;
  /** Reads the tools again; `text` is a new version of the file, for a toolkit from a file. */
  onRefresh(text?: string): void;
  onDelete(): void;
}

/** Refresh (from the source, or from a new file) and Delete (never for a built-in toolkit). */
function ToolkitActions({ toolkit, busy, onRefresh, onDelete }: ActionsProps) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <div className="tk__actions">
      {toolkit.sourceKind === 'file' ? (
        <>
          <input
            ref={fileInput}
            type="file"
            accept=".json,application/json,text/plain"
            hidden
            onChange={async (e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) onRefresh(await file.text());
            }}
            data-testid="toolkit-refresh-file"
          />
          <button
            type="button"
            className="btn btn-small"
            disabled={busy !== null}
            onClick={() => fileInput.current?.click()}
            title="Read a new version of the file"
            data-testid="toolkit-refresh"
          >
            {busy === 'refresh' ? 'Refreshing…' : 'Refresh from file…'}
          </button>
        </>
      ) : (
        <button
          type="button"
          className="btn btn-small"
          disabled={busy !== null}
          onClick={() => onRefresh()}
          title={
            toolkit.sourceKind === 'builtin'
              ? 'Reload the built-in declarations'
              : 'List the server’s tools again'
          }
          data-testid="toolkit-refresh"
        >
          {busy === 'refresh' ? 'Refreshing…' : 'Refresh'}
        </button>
      )}
      {toolkit.builtin ? null : (
        <ConfirmButton
          className="btn btn-small btn-danger"
          disabled={busy !== null}
          confirm={{
            title: `Delete the toolkit "${toolkit.name}"?`,
            description:
              'Its tools leave the palette and the planner. Workflows keep their copies of the tools they use.',
            confirmLabel: 'Delete toolkit',
          }}
          onConfirm={onDelete}
          data-testid="toolkit-delete"
        >
          {busy === 'delete' ? 'Deleting…' : 'Delete'}
        </ConfirmButton>
      )}
    </div>
  );
}
