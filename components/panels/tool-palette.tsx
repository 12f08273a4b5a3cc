'use client';
import { useMemo, useState, type DragEvent } from 'react';
import { PALETTE_DRAG_TYPE, searchPalette, type PaletteDragData } from '@/lib/editor/palette';
import type { ToolkitSummary } from '@/lib/api/toolkits';
import type { ToolDeclaration } from '@/lib/tools/types';
import { AppLink } from '@/components/ui/app-link';
import '@/components/ui/controls.css';
import './panels.css';

interface Props {
  toolkits: ToolkitSummary[] | null;
  error: string | null;
  /** False while the canvas is read-only (the model is editing). */
  canAdd: boolean;
  /** Adds the tool as a node in the middle of the view (click or Enter). */
  onAdd(tool: ToolDeclaration): void;
}

/**
 * The tools of every toolkit, grouped and searchable. Drag a tool onto the canvas to place it
 * there, or press it (click, Enter) to add it in the middle of the view.
 */
export function ToolPalette({ toolkits, error, canAdd, onAdd }: Props) {
  const [query, setQuery] = useState('');
  const groups = useMemo(() => searchPalette(toolkits ?? [], query), [toolkits, query]);

  const onDragStart = (event: DragEvent, toolkitId: string, tool: string) => {
    const data: PaletteDragData = { toolkitId, tool };
    event.dataTransfer.setData(PALETTE_DRAG_TYPE, JSON.stringify(data));
    event.dataTransfer.setData('text/plain', tool);
    event.dataTransfer.effectAllowed = 'copy';
  };

  return (
    <aside className="palette" aria-label="Tools" data-testid="palette">
      <div className="palette__head">
        <h2 className="panel-title">Tools</h2>
        <AppLink href="/toolkits" className="palette__manage" data-testid="palette-manage">
          Manage toolkits
        </AppLink>
      </div>
      <input
        type="search"
        className="palette__search"
        placeholder="Search tools…"
        aria-label="Search tools"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        data-testid="palette-search"
      />
      {error ? (
        <p className="error-text panel-note" role="alert" data-testid="palette-error">
          {error}
        </p>
      ) : null}
      <div className="palette__groups">
        {toolkits === null ? <p className="muted panel-note">Loading toolkits…</p> : null}
        {toolkits !== null && groups.length === 0 ? (
          <p className="muted panel-note" data-testid="palette-empty">
            {query ? `No tool matches “${query}”.` : 'No toolkits yet: add one on the Manage toolkits page.'}
          </p>
        ) : null}
        {groups.map(({ toolkit, tools }) => (
          <section
            key={toolkit.id}
            className="palette__group"
            data-testid="palette-group"
            data-toolkit-id={toolkit.id}
            aria-label={toolkit.name}
          >
            <h3 className="palette__group-title">
              <span>{toolkit.name}</span>
              <span className="palette__count">{tools.length}</span>
            </h3>
            <ul className="palette__tools">
              {tools.map((tool) => (
                <li key={tool.name}>
                  <button
                    type="button"
                    className="palette__tool"
                    draggable={canAdd}
                    disabled={!canAdd}
                    onDragStart={(e) => onDragStart(e, toolkit.id, tool.name)}
                    onClick={() => onAdd(tool)}
                    title={`${tool.description}\n\nDrag onto the canvas, or press Enter to add.`}
                    data-testid={`palette-tool-${tool.name}`}
                  >
                    <span className="palette__tool-name">{tool.name}</span>
                    {tool.description ? <span className="palette__tool-desc">{tool.description}</span> : null}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}
