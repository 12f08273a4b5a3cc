'use client';
/**
 * One step's inspector: its label, parameters and raw arguments. Loaded when a step is first
 * selected (inspector.tsx), not with the editor.
 */
import { useCallback, useMemo, useState } from 'react';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import { replaceNodeArgs } from '@/lib/editor/param-form';
import { selectCanEdit, useNodeView, type NodeView } from '@/lib/editor/selectors';
import type { EditorState } from '@/lib/editor/store';
import { getParamPlan, type ParamPlanEntry } from '@/lib/workflow/params';
import { DEFAULT_SYSTEM_PARAMS } from '@/lib/tools/types';
import { asNodeId, type NodeIssue, type WorkflowEdge } from '@/lib/workflow/types';
import { ParamRow } from './param-row';
import { lazyComponent } from '@/components/ui/lazy';
import '@/components/ui/controls.css';
import './inspector.css';

// The raw-JSON tab loads when opened: it brings the JSON diagnosis, which the editor's first
// load does not need.
const RawArgsEditor = lazyComponent(
  () => import('./raw-args-editor').then((m) => m.RawArgsEditor),
  <p className="muted">Loading the JSON editor…</p>,
);

const selectEdges = (s: EditorState) => s.doc.edges;
const selectSystemParams = (s: EditorState) => s.doc.systemParams;
const selectReadOnly = (s: EditorState) => s.meta.readOnly;
const NO_PROBLEMS: readonly NodeIssue[] = [];

function LabelEditor({
  nodeId,
  label,
  tool,
  disabled,
}: {
  nodeId: string;
  label: string;
  tool: string;
  disabled: boolean;
}) {
  const store = useEditorStoreApi();
  const [text, setText] = useState(label);
  const [base, setBase] = useState(label);
  if (label !== base) {
    setBase(label);
    setText(label);
  }
  const commit = () => {
    if (text.trim() !== label) store.getState().renameNode(asNodeId(nodeId), text);
  };
  return (
    <input
      className="inspector__label"
      aria-label="Step label"
      placeholder={tool}
      value={text}
      disabled={disabled}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          commit();
          e.currentTarget.blur();
        } else if (e.key === 'Escape') {
          setText(label);
        }
      }}
      data-testid="inspector-label"
    />
  );
}

export function NodeInspector({ nodeId }: { nodeId: string }) {
  const view = useNodeView(nodeId);
  const canEdit = useEditorStore(selectCanEdit);
  const readOnly = useEditorStore(selectReadOnly);
  const [tab, setTab] = useState<'form' | 'raw'>('form');
  const rows = useParamRows(nodeId, view);
  const handlers = useNodeHandlers(nodeId);

  if (!view) return null;
  const { node } = view;

  return (
    <div className="inspector" data-testid="inspector" data-node-id={nodeId}>
      <InspectorHead nodeId={nodeId} view={view} canEdit={canEdit} readOnly={readOnly} />
      <GeneralProblems problems={rows.general} />
      <ParamViewTabs tab={tab} onChange={setTab} />
      {tab === 'form' ? (
        <ParamForm nodeId={nodeId} view={view} rows={rows} handlers={handlers} disabled={!canEdit} />
      ) : (
        <RawArgsEditor
          args={node.args}
          rawArguments={node.rawArguments}
          disabled={!canEdit}
          onApply={handlers.onApplyRaw}
        />
      )}
      <OutputList view={view} />
    </div>
  );
}

/** What each parameter row needs beside the parameter: its plan entry, edge and problems. */
interface ParamRows {
  /** The declaration's parameter plan by name (none for an undeclared tool). */
  entries: Map<string, ParamPlanEntry> | undefined;
  /** The edge feeding each input, by input name. */
  incoming: Map<string, WorkflowEdge>;
  /** Problems about one input, by its name. */
  byParam: Map<string, NodeIssue[]>;
  /** Problems about the step as a whole (or about no input it has). */
  general: NodeIssue[];
}

function useParamRows(nodeId: string, view: NodeView | undefined): ParamRows {
  const edges = useEditorStore(selectEdges);
  const systemParams = useEditorStore(selectSystemParams);

  const incoming = useMemo(() => {
    const byInput = new Map<string, WorkflowEdge>();
    for (const e of edges) if (e.target === nodeId) byInput.set(e.targetInput, e);
    return byInput;
  }, [edges, nodeId]);

  const declaration = view?.declaration;
  const entries = useMemo(
    () =>
      declaration
        ? new Map(getParamPlan(declaration, systemParams ?? DEFAULT_SYSTEM_PARAMS).map((e) => [e.name, e]))
        : undefined,
    [declaration, systemParams],
  );

  const problems = view?.problems;
  const { byParam, general } = useMemo(() => {
    const byParam = new Map<string, NodeIssue[]>();
    const general: NodeIssue[] = [];
    const inputs = new Set(view?.input_parameters.map((p) => p.name));
    for (const p of problems ?? []) {
      if (p.param !== undefined && inputs.has(p.param)) {
        const list = byParam.get(p.param);
        if (list) list.push(p);
        else byParam.set(p.param, [p]);
      } else {
        general.push(p);
      }
    }
    return { byParam, general };
  }, [problems, view?.input_parameters]);

  return { entries, incoming, byParam, general };
}

/** The edits the inspector makes to its step, stable across renders. */
function useNodeHandlers(nodeId: string) {
  const store = useEditorStoreApi();
  const onSet = useCallback(
    (name: string, value: unknown) => store.getState().setArg(asNodeId(nodeId), name, value),
    [store, nodeId],
  );
  const onReset = useCallback(
    (name: string) => store.getState().resetArg(asNodeId(nodeId), name),
    [store, nodeId],
  );
  const onFocusNode = useCallback((id: string) => store.getState().focusNode(asNodeId(id)), [store]);
  const onApplyRaw = useCallback(
    (args: Record<string, unknown>) => {
      const s = store.getState();
      s.setDoc(replaceNodeArgs(s.doc, nodeId, args));
    },
    [store, nodeId],
  );
  return { onSet, onReset, onFocusNode, onApplyRaw };
}

function InspectorHead({
  nodeId,
  view,
  canEdit,
  readOnly,
}: {
  nodeId: string;
  view: NodeView;
  canEdit: boolean;
  readOnly: boolean;
}) {
  const { node, declaration } = view;
  const source = declaration?.source;
  return (
    <header className="inspector__head">
      <LabelEditor nodeId={nodeId} label={node.label ?? ''} tool={node.tool} disabled={!canEdit} />
      <div className="inspector__meta">
        <code data-testid="inspector-tool">{node.tool}</code>
        <span className="muted"> · {node.id}</span>
        {source?.toolkit ? <span className="muted"> · {source.toolkit}</span> : null}
        {view.placeholder ? <span className="badge badge--error">unknown tool</span> : null}
      </div>
      {declaration?.description ? (
        <p className="inspector__description" data-testid="inspector-description">
          {declaration.description}
        </p>
      ) : null}
      {!canEdit ? (
        <p className="inspector__locked muted" data-testid="inspector-locked">
          {readOnly
            ? 'Read-only. Fork the workflow to change it.'
            : 'Read-only while the model edits this workflow.'}
        </p>
      ) : null}
    </header>
  );
}

function GeneralProblems({ problems }: { problems: NodeIssue[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="inspector__problems" data-testid="inspector-problems">
      {problems.map((p, i) => (
        <li key={i} className={`problem-text problem-text--${p.severity}`}>
          {p.message}
        </li>
      ))}
    </ul>
  );
}

function ParamViewTabs({ tab, onChange }: { tab: 'form' | 'raw'; onChange: (tab: 'form' | 'raw') => void }) {
  return (
    <div className="seg" role="tablist" aria-label="Parameter view">
      <button
        type="button"
        role="tab"
        aria-selected={tab === 'form'}
        className={`seg__btn${tab === 'form' ? ' seg__btn--on' : ''}`}
        onClick={() => onChange('form')}
        data-testid="inspector-tab-form"
      >
        Form
      </button>
      <button
        type="button"
        role="tab"
        aria-selected={tab === 'raw'}
        className={`seg__btn${tab === 'raw' ? ' seg__btn--on' : ''}`}
        onClick={() => onChange('raw')}
        data-testid="inspector-tab-raw"
      >
        Raw JSON
      </button>
    </div>
  );
}

function ParamForm({
  nodeId,
  view,
  rows,
  handlers,
  disabled,
}: {
  nodeId: string;
  view: NodeView;
  rows: ParamRows;
  handlers: ReturnType<typeof useNodeHandlers>;
  disabled: boolean;
}) {
  const { declaration } = view;
  return (
    <div className="inspector__params" data-testid="inspector-form">
      {view.input_parameters.length === 0 ? <p className="muted">This tool takes no parameters.</p> : null}
      {view.input_parameters.map((param) => (
        <ParamRow
          key={param.name}
          nodeId={nodeId}
          param={param}
          entry={rows.entries?.get(param.name)}
          inputSchema={view.placeholder ? undefined : declaration?.inputSchema}
          edge={rows.incoming.get(param.name)}
          problems={rows.byParam.get(param.name) ?? NO_PROBLEMS}
          disabled={disabled}
          onSet={handlers.onSet}
          onReset={handlers.onReset}
          onFocusNode={handlers.onFocusNode}
        />
      ))}
    </div>
  );
}

function OutputList({ view }: { view: NodeView }) {
  if (view.output_parameters.length === 0) return null;
  return (
    <section className="inspector__outputs">
      <h2>Outputs</h2>
      <ul>
        {view.output_parameters.map((o) => (
          <li key={o.name}>
            <code>{o.name}</code> <span className="param__type">{o.type}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
