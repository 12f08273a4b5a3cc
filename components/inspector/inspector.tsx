'use client';
import { useEditorStore } from '@/lib/editor/context';
import { selectSelectedNodeIds } from '@/lib/editor/selectors';
import type { EditorState } from '@/lib/editor/store';
import { lazyComponent } from '@/components/ui/lazy';
import '@/components/ui/controls.css';
import './inspector.css';

// A step's inspector (its form, the parameter plan, the raw-JSON editor) loads when a step is
// first selected, not with the editor.
const NodeInspector = lazyComponent(
  () => import('./node-inspector').then((m) => m.NodeInspector),
  <div className="inspector" aria-busy="true" />,
);

const selectReadOnly = (s: EditorState) => s.meta.readOnly;

/** The inspector for the selection: one node's form, or a hint. */
export function Inspector() {
  const selected = useEditorStore(selectSelectedNodeIds);
  const readOnly = useEditorStore(selectReadOnly);
  if (selected.length === 0) {
    return (
      <div className="inspector inspector--empty" data-testid="inspector-empty">
        <p className="muted">
          Select a step on the canvas to see {readOnly ? '' : 'and edit '}its parameters.
        </p>
      </div>
    );
  }
  if (selected.length > 1) {
    return (
      <div className="inspector inspector--empty" data-testid="inspector-multi">
        <p className="muted">
          {selected.length} steps selected. Select one to edit it; Ctrl+C / Ctrl+D copy or duplicate them all.
        </p>
      </div>
    );
  }
  return <NodeInspector key={selected[0]} nodeId={selected[0]} />;
}
