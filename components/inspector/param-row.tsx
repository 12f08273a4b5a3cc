'use client';
import { memo, useCallback, useMemo } from 'react';
import type { RJSFSchema } from '@rjsf/utils';
import { getFormValue, getParamFormSchema, isNullableSchema, previewJson } from '@/lib/editor/param-form';
import { MISSING_LABEL, MISSING_TITLE, ORIGIN_LABELS, ORIGIN_TITLES } from '@/lib/editor/origins';
import type { ParamPlanEntry } from '@/lib/workflow/params';
import type { JsonSchema } from '@/lib/tools/types';
import type { InputParameter, NodeIssue, WorkflowEdge } from '@/lib/workflow/types';
import { lazyComponent } from '@/components/ui/lazy';

// The form library (@rjsf/core, its Ajv validator and lodash) is about a quarter of the editor's
// JavaScript: it loads when a step is first inspected, not with the page.
const ParamFormField = lazyComponent(
  () => import('./param-form-field').then((m) => m.ParamFormField),
  <div className="param-form param-form--loading" aria-busy="true" />,
);

interface Props {
  nodeId: string;
  param: InputParameter;
  entry: Readonly<ParamPlanEntry> | undefined;
  /** The tool's whole input schema, or undefined for a placeholder node (no form then). */
  inputSchema: JsonSchema | undefined;
  edge: WorkflowEdge | undefined;
  problems: readonly NodeIssue[];
  disabled: boolean;
  onSet(name: string, value: unknown): void;
  onReset(name: string): void;
  onFocusNode(id: string): void;
}

/**
 * One input parameter in the inspector: name, type, required mark, where its value comes from,
 * description and default, the generated form (or the edge that feeds it), the node's own
 * errors for it, and the reset and null actions.
 */
export const ParamRow = memo(function ParamRow({
  nodeId,
  param,
  entry,
  inputSchema,
  edge,
  problems,
  disabled,
  onSet,
  onReset,
  onFocusNode,
}: Props) {
  const { name, origin } = param;
  const formSchema = useMemo(
    () => (inputSchema ? (getParamFormSchema(inputSchema, name) as RJSFSchema | undefined) : undefined),
    [inputSchema, name],
  );
  const nullable = useMemo(() => {
    if (!inputSchema) return false;
    const own = (inputSchema.properties as Record<string, JsonSchema> | undefined)?.[name];
    return own ? isNullableSchema(own, inputSchema) : false;
  }, [inputSchema, name]);
  const onValue = useCallback(
    (value: unknown) => (value === undefined ? onReset(name) : onSet(name, value)),
    [name, onReset, onSet],
  );
  const hasError = problems.some((p) => p.severity === 'error');
  const missing = origin === 'zero' && param.required;

  return (
    <section
      className={`param${hasError ? ' param--error' : ''}`}
      data-testid={`inspector-param-${name}`}
      data-origin={origin}
    >
      <header className="param__head">
        <label className="param__name" htmlFor={`${nodeId}__${name}`}>
          {name}
          {param.required ? (
            <span className="param__required" title="Required">
              *
            </span>
          ) : null}
        </label>
        <span className="param__type">{param.type}</span>
        <span
          className={`origin origin--${origin}${missing ? ' origin--missing' : ''}`}
          title={missing ? MISSING_TITLE : ORIGIN_TITLES[origin]}
          data-testid={`inspector-origin-${name}`}
        >
          {missing ? MISSING_LABEL : ORIGIN_LABELS[origin]}
        </span>
        <span className="param__actions">
          {nullable && !edge && param.value !== null ? (
            <button
              type="button"
              className="link-btn"
              disabled={disabled}
              onClick={() => onSet(name, null)}
              data-testid={`inspector-set-null-${name}`}
            >
              Set null
            </button>
          ) : null}
          {origin === 'arg' ? (
            <button
              type="button"
              className="link-btn"
              disabled={disabled}
              onClick={() => onReset(name)}
              title={
                entry?.hasDefault
                  ? `Back to the default ${previewJson(entry.defaultValue)}`
                  : 'Remove the value'
              }
              data-testid={`inspector-reset-${name}`}
            >
              {entry?.hasDefault ? 'Reset to default' : 'Clear'}
            </button>
          ) : null}
        </span>
      </header>
      {param.description ? <p className="param__description">{param.description}</p> : null}
      {entry?.hasDefault ? (
        <p className="param__default">
          default <code>{previewJson(entry.defaultValue)}</code>
        </p>
      ) : null}
      {edge ? (
        <p className="param__edge" data-testid={`inspector-edge-${name}`}>
          connected from{' '}
          <button type="button" className="link-btn" onClick={() => onFocusNode(edge.source)}>
            {edge.source}.{edge.sourceOutput}
          </button>
        </p>
      ) : formSchema ? (
        <ParamFormField
          idPrefix={`${nodeId}__${name}`}
          schema={formSchema}
          value={getFormValue(param)}
          disabled={disabled}
          onValue={onValue}
        />
      ) : (
        <p className="param__raw">
          <code>{previewJson(param.value, 200)}</code>
          <span className="muted"> — no declaration to edit it with; use Raw JSON.</span>
        </p>
      )}
      {problems.length > 0 ? (
        <ul className="param__problems" data-testid={`inspector-problems-${name}`}>
          {problems.map((p, i) => (
            <li key={i} className={`problem-text problem-text--${p.severity}`}>
              {p.message}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
});
