'use client';
import { useMemo, useState, type DragEvent, type KeyboardEvent } from 'react';
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

/** The keys that move between tools, as in any vertical list of buttons. */
const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (i, n) => Math.min(i + 1, n - 1),
  ArrowUp: (i) => Math.max(i - 1, 0),
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/** Moves focus between the tool buttons of the list that received the key. */
function onToolsKeyDown(event: KeyboardEvent<HTMLElement>) {
  const move = MOVES[event.key];
  if (!move) return;
  const buttons = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('.palette__tool'));
  const index = buttons.indexOf(event.target as HTMLButtonElement);
  if (index < 0) return;
  event.preventDefault();
  buttons[move(index, buttons.length)].focus();
}

/**
 * The tools of every toolkit, grouped and searchable. Drag a tool onto the canvas to place it
 * there, or press it (click, Enter) to add it in the middle of the view. For the keyboard the
 * list is one stop: Tab enters it on the last tool used, the arrow keys move between tools, and
 * the next Tab leaves it, so the canvas is a few presses away however many tools there are.
 */
export function ToolPalette({ toolkits, error, canAdd, onAdd }: Props) {
  const [query, setQuery] = useState('');
  const groups = useMemo(() => searchPalette(toolkits ?? [], query), [toolkits, query]);
  // The tool that Tab enters the list on, by its place in the list (the first when out of range).
  const [tabStop, setTabStop] = useState(0);
  const count = groups.reduce((n, group) => n + group.tools.length, 0);
  let place = 0;

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
      <div
        className="palette__groups"
        role="toolbar"
        aria-orientation="vertical"
        aria-label="Tools to add"
        onKeyDown={onToolsKeyDown}
      >
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
              {tools.map((tool) => {
                const at = place++;
                return (
                  <li key={tool.name}>
                    <button
                      type="button"
                      className="palette__tool"
                      draggable={canAdd}
                      disabled={!canAdd}
                      tabIndex={at === (tabStop < count ? tabStop : 0) ? 0 : -1}
                      onFocus={() => setTabStop(at)}
                      onDragStart={(e) => onDragStart(e, toolkit.id, tool.name)}
                      onClick={() => onAdd(tool)}
                      title={`${tool.description}\n\nDrag onto the canvas, or press Enter to add.`}
                      data-testid={`palette-tool-${tool.name}`}
                    >
                      <span className="palette__tool-name">{tool.name}</span>
                      {tool.description ? (
                        <span className="palette__tool-desc">{tool.description}</span>
                      ) : null}
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}
