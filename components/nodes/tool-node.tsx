'use client';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  Handle,
  Position,
  useStore,
  useUpdateNodeInternals,
  type NodeProps,
  type ReactFlowState,
} from '@xyflow/react';
import { useEditorStore, useEditorStoreApi } from '@/lib/editor/context';
import { inputHandleId, outputHandleId, type ToolFlowNode } from '@/lib/editor/adapters';
import { selectCanEdit, useNodeView, type IncomingEdge, type NodeView } from '@/lib/editor/selectors';
import { NODE_ROW_HEIGHT } from '@/lib/editor/node-metrics';
import { getDisplayTitle } from '@/lib/editor/display-title';
import {
  MISSING_LABEL,
  MISSING_TITLE,
  ORIGIN_LABELS,
  ORIGIN_TITLES,
  UNSET_VALUE_TEXT,
} from '@/lib/editor/origins';
import { getValuePreview, getValueTitle } from '@/lib/editor/value-preview';
import type { InputParameter, OutputParameter } from '@/lib/workflow/types';
import { formatDuration, useNodeRunBadge, type NodeRunBadge } from '@/components/run/run-status';
import './tool-node.css';

/** The node's status in a test-run, with its duration (only on a run's canvas). */
function RunBadge({ run }: { run: NodeRunBadge }) {
  return (
    <span className={`tn-run tn-run--${run.status}`} data-testid="node-run-status">
      {run.status}
      {run.durationMs !== null ? ` · ${formatDuration(run.durationMs)}` : ''}
    </span>
  );
}

function getSourceText(view: NodeView): string {
  if (view.placeholder) return 'unknown tool';
  const source = view.declaration?.source;
  if (!source) return 'tool declaration';
  if (source.toolkit) return source.toolkit;
  if (source.server) return source.server.replace(/^https?:\/\//, '');
  return source.kind === 'builtin' ? 'built-in' : source.kind;
}

const InputRow = memo(function InputRow({
  param,
  incoming,
  problem,
}: {
  param: InputParameter;
  incoming: IncomingEdge | undefined;
  problem: string | undefined;
}) {
  const missing = param.origin === 'zero' && param.required;
  const origin = missing ? MISSING_LABEL : ORIGIN_LABELS[param.origin];
  let valueText: string;
  let valueTitle: string;
  if (param.origin === 'edge') {
    valueText = incoming ? `← ${incoming.source}.${incoming.sourceOutput}` : '← edge';
    valueTitle = incoming
      ? `Fed by output "${incoming.sourceOutput}" of ${incoming.source}`
      : 'Fed by an edge';
  } else if (param.origin === 'zero') {
    // The zero value is a placeholder nobody chose: not shown as a value.
    valueText = missing ? 'required' : UNSET_VALUE_TEXT;
    valueTitle = missing ? MISSING_TITLE : ORIGIN_TITLES.zero;
  } else {
    valueText = getValuePreview(param.value);
    valueTitle = getValueTitle(param.value);
  }
  return (
    <li
      className={`tn-row tn-row--in${problem ? ' tn-row--problem' : ''}${missing ? ' tn-row--missing' : ''}`}
      data-testid={`param-${param.name}`}
      data-origin={param.origin}
      title={problem ?? param.description}
    >
      <Handle
        type="target"
        position={Position.Left}
        id={inputHandleId(param.name)}
        className={`tn-handle tn-handle--${param.type}`}
      />
      <span className="tn-row__name">
        {param.name}
        {param.required && (
          <span className="tn-row__required" aria-label="required">
            *
          </span>
        )}
      </span>
      <span className="tn-row__type">{param.type}</span>
      <span
        className={`tn-row__value tn-value--${param.origin}${missing ? ' tn-value--missing' : ''}`}
        data-testid="param-value"
        title={valueTitle}
      >
        {valueText}
      </span>
      <span
        className={`tn-origin tn-origin--${missing ? 'missing' : param.origin}`}
        data-testid="param-origin"
        title={missing ? MISSING_TITLE : ORIGIN_TITLES[param.origin]}
      >
        {origin}
      </span>
    </li>
  );
});

const OutputRow = memo(function OutputRow({ param }: { param: OutputParameter }) {
  return (
    <li className="tn-row tn-row--out" data-testid={`output-${param.name}`}>
      <span className="tn-row__type">{param.type}</span>
      <span className="tn-row__name">{param.name}</span>
      <Handle
        type="source"
        position={Position.Right}
        id={outputHandleId(param.name)}
        className={`tn-handle tn-handle--${param.type}`}
      />
    </li>
  );
});

interface Badge {
  key: string;
  tone: 'error' | 'warn' | 'drift' | 'muted';
  text: string;
  title: string;
}

function getBadges(view: NodeView): Badge[] {
  const { counts, drift, placeholder } = view;
  const badges: Badge[] = [];
  if (placeholder) {
    badges.push({
      key: 'placeholder',
      tone: 'muted',
      text: 'unknown tool',
      title: `No declaration of "${view.node.tool}" in this workflow: import its toolkit or replace the node. Its parameters and edges are kept.`,
    });
  }
  if (counts.missingRequired) {
    badges.push({
      key: 'missing',
      tone: 'error',
      text: `${counts.missingRequired} missing`,
      title: 'Required inputs with no value: set them in the inspector or connect an edge.',
    });
  }
  if (counts.invalid) {
    badges.push({
      key: 'invalid',
      tone: 'error',
      text: `${counts.invalid} invalid`,
      title: 'Values that break the tool’s schema: see the problems list.',
    });
  }
  if (counts.otherErrors > 0) {
    badges.push({
      key: 'errors',
      tone: 'error',
      text: `${counts.otherErrors} error${counts.otherErrors > 1 ? 's' : ''}`,
      title: view.problems
        .filter((p) => p.severity === 'error')
        .map((p) => p.message)
        .join('\n'),
    });
  }
  if (counts.unknownArgs) {
    badges.push({
      key: 'unknown-args',
      tone: 'warn',
      text: `${counts.unknownArgs} unknown arg${counts.unknownArgs > 1 ? 's' : ''}`,
      title: `Dropped, not parameters of this tool: ${view.unknown_args.join(', ')}`,
    });
  }
  if (drift.status === 'changed') {
    badges.push({ key: 'drift', tone: 'drift', text: 'schema changed', title: drift.details.join(' ') });
  }
  return badges;
}

function Badges({ badges }: { badges: Badge[] }) {
  if (badges.length === 0) return null;
  return (
    <div className="tn-badges">
      {badges.map((b) => (
        <span
          key={b.key}
          className={`tn-badge tn-badge--${b.tone}`}
          data-testid={`badge-${b.key}`}
          title={b.title}
        >
          {b.text}
        </span>
      ))}
    </div>
  );
}

/** What a node is called: its label, else its tool's title in the interface's language, else the tool. */
function getNodeTitle(view: NodeView): string {
  const title = view.declaration?.title;
  return view.node.label || (title ? getDisplayTitle(title) : '') || view.node.tool;
}

function NodeTitle({ view, canEdit }: { view: NodeView; canEdit: boolean }) {
  const store = useEditorStoreApi();
  const [draft, setDraft] = useState<string | null>(null);
  const title = getNodeTitle(view);
  const commit = () => {
    if (draft !== null) store.getState().renameNode(view.node.id, draft);
    setDraft(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commit();
    if (e.key === 'Escape') setDraft(null);
    e.stopPropagation();
  };
  if (draft !== null) {
    return (
      <input
        className="tn-title-input nodrag"
        data-testid="node-title-input"
        aria-label="Node label"
        autoFocus
        value={draft}
        placeholder={view.node.tool}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={onKeyDown}
      />
    );
  }
  return (
    <span
      className="tn-title"
      data-testid="node-title"
      title={canEdit ? `${view.node.tool} — double-click to rename` : view.node.tool}
      onDoubleClick={canEdit ? () => setDraft(view.node.label ?? '') : undefined}
    >
      {title}
    </span>
  );
}

/** Below this zoom, text is too small to read: nodes draw their outline, title and ports only. */
export const COMPACT_ZOOM = 0.45;
const selectCompact = (s: ReactFlowState) => s.transform[2] < COMPACT_ZOOM;

/**
 * A port as React Flow measures it (its classes and data attributes are what React Flow reads to
 * place edge ends), without the Handle component: at this zoom ports are hidden and not
 * interactive, and thousands of Handle subscriptions to React Flow's store are the cost of a big
 * overview. A plain function, not a component: there are many, with no state of their own.
 */
function renderPortMarker(nodeId: string, name: string, type: string, index: number, side: 'in' | 'out') {
  const isTarget = side === 'in';
  return (
    <div
      key={name}
      className={`react-flow__handle react-flow__handle-${isTarget ? 'left' : 'right'} ${isTarget ? 'target' : 'source'} tn-handle tn-handle--${type}`}
      data-handleid={isTarget ? inputHandleId(name) : outputHandleId(name)}
      data-nodeid={nodeId}
      data-handlepos={isTarget ? Position.Left : Position.Right}
      style={{ top: 4 + index * NODE_ROW_HEIGHT + NODE_ROW_HEIGHT / 2 }}
    />
  );
}

/**
 * The zoomed-out look: the same box, ports at the same places (so edges do not move), a large
 * title and a status strip, and none of the per-row text, which would be a few pixels high.
 * This keeps a 500-node overview about as cheap to draw as plain React Flow nodes.
 */
function CompactBody({ view, badges }: { view: NodeView; badges: Badge[] }) {
  const tone = badges.find((b) => b.tone === 'error')?.tone ?? badges[0]?.tone;
  const title = getNodeTitle(view);
  const id = view.node.id;
  // Only ports with an edge get a marker: edge ends are all React Flow needs from them here.
  return (
    <>
      <div className="tn-header tn-header--compact" title={title} data-testid="node-title">
        {title}
      </div>
      {badges.length > 0 && <div className={`tn-badges tn-badges--compact tn-strip--${tone}`} />}
      {view.input_parameters.length > 0 && (
        <div
          className="tn-inputs tn-rows--compact"
          style={{ height: view.input_parameters.length * NODE_ROW_HEIGHT }}
        >
          {view.input_parameters.map((param, i) =>
            view.incoming[param.name] ? renderPortMarker(id, param.name, param.type, i, 'in') : null,
          )}
        </div>
      )}
      <div
        className="tn-outputs tn-rows--compact"
        style={{ height: view.output_parameters.length * NODE_ROW_HEIGHT }}
      >
        {view.output_parameters.map((param, i) =>
          view.connectedOutputs.has(param.name)
            ? renderPortMarker(id, param.name, param.type, i, 'out')
            : null,
        )}
      </div>
    </>
  );
}

/**
 * React Flow measures a node's ports when the node mounts or resizes. Switching between the
 * compact and the full look, or an edge appearing while compact, changes the ports without
 * resizing the node, so ask for a new measurement then (not on mount: React Flow does that).
 */
function usePortMeasurement(id: string, compact: boolean, connectionKey: string | undefined) {
  const updateNodeInternals = useUpdateNodeInternals();
  const measured = useRef({ compact, connectionKey });
  useEffect(() => {
    const last = measured.current;
    if (last.compact === compact && (!compact || last.connectionKey === connectionKey)) return;
    measured.current = { compact, connectionKey };
    updateNodeInternals(id);
  }, [id, compact, connectionKey, updateNodeInternals]);
}

const isSameNode = (a: NodeProps<ToolFlowNode>, b: NodeProps<ToolFlowNode>) =>
  a.id === b.id && a.selected === b.selected;

/**
 * A tool call on the canvas. It reads its own view by id, so a drag or an edit elsewhere
 * re-renders only the nodes whose view changed. It shows nothing of React Flow's props but its
 * id and selection, so a node being dragged (new coordinates every frame) does not re-render.
 */
export const ToolNode = memo(function ToolNode({ id, selected }: NodeProps<ToolFlowNode>) {
  const view = useNodeView(id);
  const canEdit = useEditorStore(selectCanEdit);
  const compact = useStore(selectCompact);
  const run = useNodeRunBadge(id);
  usePortMeasurement(id, compact, view?.connectionKey);
  if (!view) return null;
  const badges = getBadges(view);
  const className = `tn${selected ? ' tn--selected' : ''}${view.placeholder ? ' tn--placeholder' : ''}${view.counts.errors > 0 ? ' tn--error' : ''}${run ? ` tn--run-${run.status}` : ''}`;
  if (compact) {
    return (
      <div
        className={`${className} tn--compact`}
        data-testid={`node-${id}`}
        data-node-id={id}
        data-run-status={run?.status}
      >
        {run && <RunBadge run={run} />}
        <CompactBody view={view} badges={badges} />
      </div>
    );
  }
  const problemByParam = new Map<string, string>();
  for (const p of view.problems)
    if (p.param && !problemByParam.has(p.param)) problemByParam.set(p.param, p.message);
  return (
    <div className={className} data-testid={`node-${id}`} data-node-id={id} data-run-status={run?.status}>
      <div className="tn-header">
        <div className="tn-title-row">
          <span className="tn-dot" aria-hidden />
          <NodeTitle view={view} canEdit={canEdit} />
          {view.node.label && <span className="tn-tool">{view.node.tool}</span>}
        </div>
        {run && <RunBadge run={run} />}
        <div className="tn-source" data-testid="node-source">
          {getSourceText(view)}
        </div>
      </div>
      <Badges badges={badges} />
      {view.input_parameters.length > 0 && (
        <ul className="tn-inputs" aria-label="Inputs">
          {view.input_parameters.map((param) => (
            <InputRow
              key={param.name}
              param={param}
              incoming={view.incoming[param.name]}
              problem={problemByParam.get(param.name)}
            />
          ))}
        </ul>
      )}
      <ul className="tn-outputs" aria-label="Outputs">
        {view.output_parameters.map((param) => (
          <OutputRow key={param.name} param={param} />
        ))}
      </ul>
    </div>
  );
}, isSameNode);
