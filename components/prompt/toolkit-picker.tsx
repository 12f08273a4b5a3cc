'use client';
import type { ToolkitSummary } from '@/lib/api/toolkits';

interface Props {
  toolkits: ToolkitSummary[] | null;
  selected: ReadonlySet<string>;
  disabled?: boolean;
  onChange(selected: Set<string>): void;
}

/**
 * Which toolkits the planner may use: one toggle chip per toolkit, with its tool count. A toolkit
 * a test-run can call (a server is behind its tools) is marked runnable.
 */
export function ToolkitPicker({ toolkits, selected, disabled, onChange }: Props) {
  if (toolkits === null) return <span className="muted toolkit-picker__loading">Loading toolkits…</span>;
  if (toolkits.length === 0) {
    return (
      <span className="muted toolkit-picker__loading" data-testid="toolkit-picker-empty">
        No toolkits: add one on the <a href="/toolkits">Toolkits</a> page first.
      </span>
    );
  }
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  return (
    <div
      className="toolkit-picker"
      role="group"
      aria-label="Toolkits the planner may use"
      data-testid="toolkit-picker"
    >
      {toolkits.map((t) => (
        <label
          key={t.id}
          className={`chip${selected.has(t.id) ? ' chip--on' : ''}${t.runnable ? ' chip--runnable' : ''}`}
          title={`${t.runnable ? 'Runnable' : 'Declarations only'}: ${t.runnableNote}\n${t.tools.length} tools: ${t.tools
            .slice(0, 12)
            .map((tool) => tool.name)
            .join(', ')}${t.tools.length > 12 ? ', …' : ''}`}
          data-runnable={t.runnable}
        >
          <input
            type="checkbox"
            checked={selected.has(t.id)}
            disabled={disabled}
            onChange={() => toggle(t.id)}
            data-testid={`toolkit-chip-${t.id}`}
          />
          <span>{t.name}</span>
          {t.runnable ? <span className="sr-only">, runnable</span> : null}
          <span className="chip__count">{t.tools.length}</span>
        </label>
      ))}
    </div>
  );
}
