'use client';
import { useState } from 'react';
import type { ToolkitSummary } from '@/lib/api/toolkits';
import { useToolkits } from '@/lib/editor/use-toolkits';
import { AddToolkitForm } from './add-toolkit-form';
import { ToolkitCard } from './toolkit-card';
import '@/components/ui/controls.css';
import './toolkits.css';

/** The toolkit manager: every toolkit with its tools, and the form to add one. */
export function ToolkitManager() {
  const { toolkits, mcpServers, error, reload } = useToolkits();
  // Local edits on top of the loaded list, so an add or refresh shows at once.
  const [overrides, setOverrides] = useState<{
    added: ToolkitSummary[];
    changed: Record<string, ToolkitSummary>;
    deleted: Set<string>;
  }>({
    added: [],
    changed: {},
    deleted: new Set(),
  });
  const list = [...(toolkits ?? []), ...overrides.added.filter((a) => !toolkits?.some((t) => t.id === a.id))]
    .filter((t) => !overrides.deleted.has(t.id))
    .map((t) => overrides.changed[t.id] ?? t);

  return (
    <div className="tk-manager">
      <AddToolkitForm
        mcpServers={mcpServers}
        onAdded={(toolkit) => setOverrides((o) => ({ ...o, added: [...o.added, toolkit] }))}
      />
      <section className="tk-manager__list">
        <div className="tk-manager__head">
          <h2>Toolkits</h2>
          <button type="button" className="btn btn-small" onClick={reload} data-testid="toolkits-reload">
            Reload
          </button>
        </div>
        {error ? (
          <p className="error-text" role="alert" data-testid="toolkits-error">
            {error}
          </p>
        ) : null}
        {toolkits === null ? <p className="muted">Loading toolkits…</p> : null}
        {toolkits !== null && list.length === 0 ? (
          <p className="muted">No toolkits yet: add one above.</p>
        ) : null}
        <ul className="tk-manager__items" data-testid="toolkit-list">
          {list.map((toolkit) => (
            <ToolkitCard
              key={toolkit.id}
              toolkit={toolkit}
              onChanged={(next) =>
                setOverrides((o) => ({ ...o, changed: { ...o.changed, [next.id]: next } }))
              }
              onDeleted={(id) => setOverrides((o) => ({ ...o, deleted: new Set([...o.deleted, id]) }))}
            />
          ))}
        </ul>
      </section>
    </div>
  );
}
