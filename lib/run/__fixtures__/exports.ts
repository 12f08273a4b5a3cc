/** Typed builders of v1 exports for the runner's tests: tools, a plan, and the export they give. */
import type { ToolDeclaration } from '../../tools/types';
import { exportWorkflow } from '../../workflow/export';
import { createDocumentFromPlan } from '../../workflow/plan';
import type { Plan, WorkflowExportV1 } from '../../workflow/types';

/** A tool on stdio server `server` with the given input properties (all required unless listed). */
export function tool(
  name: string,
  properties: Record<string, Record<string, unknown>> = {},
  opts: {
    required?: string[];
    output?: Record<string, Record<string, unknown>>;
    readOnly?: boolean;
    server?: string;
    kind?: 'mcp-stdio' | 'mcp-http' | 'file' | 'builtin';
  } = {},
): ToolDeclaration {
  return {
    name,
    description: `${name} tool`,
    inputSchema: {
      type: 'object',
      properties,
      required: opts.required ?? Object.keys(properties),
    },
    ...(opts.output ? { outputSchema: { type: 'object', properties: opts.output } } : {}),
    ...(opts.readOnly !== undefined ? { annotations: { readOnlyHint: opts.readOnly } } : {}),
    source: { kind: opts.kind ?? 'mcp-stdio', server: opts.server ?? 'test', toolkit: 'Test' },
  };
}

/** The v1 export of `plan` built over `tools` (throws when the plan does not build). */
export function buildExport(plan: Plan, tools: ToolDeclaration[]): WorkflowExportV1 {
  const doc = createDocumentFromPlan(plan, tools);
  if (!doc.ok) throw new Error(JSON.stringify(doc.error));
  return exportWorkflow(doc.value, { id: 'wf_test', name: 'Test' });
}
