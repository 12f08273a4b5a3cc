'use client';
import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useRef, useState, type DragEvent, type MouseEvent } from 'react';
import { EditorStoreProvider, useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import { findFreeSpot, PALETTE_DRAG_TYPE, parsePaletteDrag } from '@/lib/editor/palette';
import { getHandedOffPlan } from '@/lib/editor/plan-handoff';
import { loadEditorCommands } from '@/lib/editor/load-commands';
import {
  selectCanEdit,
  selectNodeCount,
  selectProblems,
  selectSelectedNodeIds,
} from '@/lib/editor/selectors';
import type { EditorInit, EditorState } from '@/lib/editor/store';
import { useAutosave } from '@/lib/editor/use-autosave';
import { useToolkits } from '@/lib/editor/use-toolkits';
import type { ToolDeclaration } from '@/lib/tools/types';
import { WorkflowCanvas } from '@/components/canvas/workflow-canvas';
import { Inspector } from '@/components/inspector/inspector';
import { SaveControls } from '@/components/save/save-controls';
import { RunButtons } from '@/components/run/run-button';
import { ToolPalette } from '@/components/panels/tool-palette';
import { PromptBar, type AutoStartPlan } from '@/components/prompt/prompt-bar';
import { lazyComponent } from '@/components/ui/lazy';
import { AppLink } from '@/components/ui/app-link';
import { WorkflowMenu, WorkflowTitle } from './workflow-header';
import '@/components/ui/controls.css';
import './editor.css';

// The JSON and Problems tabs load when first opened, not with the editor.
const JsonPanel = lazyComponent(() => import('@/components/panels/json-panel').then((m) => m.JsonPanel));
const ProblemsPanel = lazyComponent(() =>
  import('@/components/panels/problems-panel').then((m) => m.ProblemsPanel),
);

const SAVE_LABELS: Record<EditorState['saveState'], string> = {
  saved: 'Saved',
  dirty: 'Unsaved changes',
  saving: 'Saving…',
  conflict: 'Changed elsewhere',
  offline: 'Offline — will retry',
  error: 'Not saved',
};

type SideTab = 'inspector' | 'json' | 'problems';

const selectWorkflowId = (s: EditorState) => s.meta.id;
const selectTask = (s: EditorState) => s.doc.task;
const selectSave = (s: EditorState) => s.saveState;
const selectSaveError = (s: EditorState) => s.saveError;

/**
 * The skip link's target: the first step on the canvas (steps are focusable, and Enter selects
 * the focused one), or the canvas itself when it has none. Keyboard users reach the graph without
 * tabbing through the header and the palette.
 */
function skipToCanvas(event: MouseEvent<HTMLAnchorElement>) {
  const canvas = document.getElementById('editor-canvas');
  if (!canvas) return;
  event.preventDefault();
  (canvas.querySelector<HTMLElement>('.react-flow__node') ?? canvas).focus();
}

/** The size assumed for a node not measured yet, when placing one added by click or keyboard. */
const NEW_NODE_SIZE = { width: 280, height: 180 };

function SaveStateLabel() {
  const saveState = useEditorStore(selectSave);
  const saveError = useEditorStore(selectSaveError);
  return (
    <span
      className={`save-state save-state--${saveState}`}
      data-testid="save-state"
      title={saveError ?? undefined}
    >
      {SAVE_LABELS[saveState]}
    </span>
  );
}

/**
 * The first plan of a workflow made on the home page: `?plan=1&toolkits=a,b&llm=1`. The home page
 * usually hands over its run, already streaming; after a reload the editor plans by itself.
 */
function useAutoStart(): AutoStartPlan | null {
  const params = useSearchParams();
  const workflowId = useEditorStore(selectWorkflowId);
  const task = useEditorStore(selectTask);
  const nodeCount = useEditorStore(selectNodeCount);
  const wanted = params.get('plan') === '1';
  const toolkits = params.get('toolkits') ?? '';
  const llm = params.get('llm') === '1';
  // Only for a workflow that has no steps yet: a reload after planning must not plan again.
  const [plan] = useState<AutoStartPlan | null>(() =>
    wanted && task.trim() && nodeCount === 0
      ? {
          task,
          toolkitIds: toolkits.split(',').filter(Boolean),
          llm,
          handoff: getHandedOffPlan(workflowId) ?? undefined,
        }
      : null,
  );
  return plan;
}

function SidePanel() {
  const [tab, setTab] = useState<SideTab>('inspector');
  const problems = useEditorStore(selectProblems);
  const selected = useEditorStore(selectSelectedNodeIds);
  // Selecting a step shows its inspector, whichever panel was open.
  const [shownSelection, setShownSelection] = useState(selected);
  if (selected !== shownSelection) {
    setShownSelection(selected);
    if (selected.length > 0 && tab !== 'inspector') setTab('inspector');
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  const tabs: { id: SideTab; label: string }[] = [
    { id: 'inspector', label: 'Inspector' },
    { id: 'json', label: 'JSON' },
    { id: 'problems', label: 'Problems' },
  ];
  return (
    <aside className="editor__side" aria-label="Details" data-testid="side-panel">
      <div className="tabs" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`side-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="side-panel"
            className={`tabs__tab${tab === t.id ? ' tabs__tab--on' : ''}`}
            onClick={() => setTab(t.id)}
            data-testid={`tab-${t.id}`}
          >
            {t.label}
            {t.id === 'problems' && problems.length > 0 ? (
              <span
                className={`tabs__count${errors > 0 ? ' tabs__count--error' : ''}`}
                data-testid="problems-count"
              >
                {problems.length}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      <div className="editor__side-body" id="side-panel" role="tabpanel" aria-labelledby={`side-tab-${tab}`}>
        {tab === 'inspector' ? <Inspector /> : null}
        {tab === 'json' ? <JsonPanel /> : null}
        {tab === 'problems' ? <ProblemsPanel onOpen={() => setTab('inspector')} /> : null}
      </div>
    </aside>
  );
}

/**
 * Asks for the editing commands (they load on demand, lib/editor/load-commands.ts) at the first
 * pointerdown or keydown anywhere in the page: a drag, a connection or a key that edits begins
 * with one, so the commands are usually there before the edit needs them (one that is not still
 * waits for them in the store).
 */
function usePreloadedCommands() {
  useEffect(() => {
    const events = ['pointerdown', 'keydown'] as const;
    const preload = () => {
      for (const type of events) window.removeEventListener(type, preload, true);
      loadEditorCommands().catch(() => {
        // Offline: the store asks again with the first edit.
      });
    };
    for (const type of events) window.addEventListener(type, preload, true);
    return () => {
      for (const type of events) window.removeEventListener(type, preload, true);
    };
  }, []);
}

/** Below this width the panels do not fit beside the canvas (the same width as in editor.css). */
const NARROW_SCREEN = '(max-width: 760px)';

/** Keeps the store's `narrow` in step with the screen: a phone shows the canvas to look at. */
function useNarrowScreen() {
  const store = useEditorStoreApi();
  useEffect(() => {
    const query = window.matchMedia(NARROW_SCREEN);
    const update = () => store.getState().setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, [store]);
}

function EditorShell({ llm }: { llm: string | null }) {
  const store = useEditorStoreApi();
  useAutosave(store);
  usePreloadedCommands();
  useNarrowScreen();
  const workflowId = useEditorStore(selectWorkflowId);
  const canEdit = useEditorStore(selectCanEdit);
  const { toolkits, error } = useToolkits();
  const { screenToFlowPosition } = useReactFlow();
  const canvasBox = useRef<HTMLDivElement>(null);
  const autoStart = useAutoStart();
  const pathname = usePathname();

  // The start parameters are read once; drop them from the address so a reload or a shared
  // link does not carry them (Next.js keeps its router in step with history.replaceState).
  useEffect(() => {
    if (window.location.search.includes('plan=')) {
      window.history.replaceState(window.history.state, '', pathname ?? `/w/${workflowId}`);
    }
  }, [pathname, workflowId]);

  const findTool = useCallback(
    (toolkitId: string, name: string): ToolDeclaration | undefined =>
      toolkits?.find((t) => t.id === toolkitId)?.tools.find((tool) => tool.name === name),
    [toolkits],
  );

  const onDragOver = (event: DragEvent) => {
    if (!canEdit || !event.dataTransfer.types.includes(PALETTE_DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDrop = (event: DragEvent) => {
    const data = parsePaletteDrag(event.dataTransfer.getData(PALETTE_DRAG_TYPE));
    if (!data) return;
    event.preventDefault();
    const decl = findTool(data.toolkitId, data.tool);
    if (!decl) return;
    store.getState().addToolNode(decl, screenToFlowPosition({ x: event.clientX, y: event.clientY }));
  };
  const addInView = (decl: ToolDeclaration) => {
    const box = canvasBox.current?.getBoundingClientRect();
    if (!box) return;
    const centre = screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 });
    const boxes = store.getState().flowNodes.map((n) => ({
      x: n.position.x,
      y: n.position.y,
      width: n.measured?.width ?? NEW_NODE_SIZE.width,
      height: n.measured?.height ?? NEW_NODE_SIZE.height,
    }));
    const start = { x: centre.x - NEW_NODE_SIZE.width / 2, y: centre.y - NEW_NODE_SIZE.height / 2 };
    store.getState().addToolNode(decl, findFreeSpot(start, NEW_NODE_SIZE, boxes));
  };

  return (
    <div className="editor">
      <a href="#editor-canvas" className="skip-link" onClick={skipToCanvas} data-testid="skip-to-canvas">
        Skip to the canvas
      </a>
      <header className="editor__bar" data-testid="editor-bar">
        <AppLink href="/" className="editor__brand">
          Toolflow
        </AppLink>
        <span className="editor__sep" aria-hidden="true">
          /
        </span>
        <WorkflowTitle />
        <div className="editor__slot" data-testid="editor-actions">
          {/* Save state, conflicts, share, export/import and revisions mount here. */}
          <SaveStateLabel />
          <SaveControls />
          <RunButtons />
          <WorkflowMenu />
        </div>
      </header>
      <p className="editor__narrow-note" data-testid="narrow-note">
        Editing needs a wider screen. Here you can look at the workflow, share it, export it and run it.
      </p>
      <div className="editor__body">
        <div className="editor__palette">
          <ToolPalette toolkits={toolkits} error={error} canAdd={canEdit} onAdd={addInView} />
        </div>
        <main className="editor__center">
          <div
            className="editor__canvas"
            id="editor-canvas"
            tabIndex={-1}
            ref={canvasBox}
            onDragOver={onDragOver}
            onDrop={onDrop}
          >
            <WorkflowCanvas />
          </div>
          <PromptBar toolkits={toolkits} llm={llm} autoStart={autoStart} />
        </main>
        <SidePanel />
      </div>
    </div>
  );
}

/**
 * The workflow editor: palette, canvas and prompt, and the inspector / JSON / problems panels.
 * `llm` describes the configured language model, when there is one, for the planner picker.
 */
export function Editor({ init, llm = null }: { init: EditorInit; llm?: string | null }) {
  return (
    <EditorStoreProvider init={init}>
      <ReactFlowProvider>
        <EditorShell llm={llm} />
      </ReactFlowProvider>
    </EditorStoreProvider>
  );
}
