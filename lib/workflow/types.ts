/**
 * The workflow domain: the editable document stored in the database, and the v1 export format
 * derived from it. Pure data (docs/design.md §2 and §4). The document keeps what the user (or model)
 * configured; everything the export shows about parameters is derived from it by the §1 rules.
 */
import type { ParamType, ToolDeclaration, ToolSource } from '../tools/types';

type Brand<T, B extends string> = T & { readonly __brand: B };
export type NodeId = Brand<string, 'NodeId'>;
export type EdgeId = Brand<string, 'EdgeId'>;

export const asNodeId = (id: string) => id as NodeId;
export const asEdgeId = (id: string) => id as EdgeId;

/** Parameter types of the node JSON contract (docs/design.md §2.4), defined beside the schema mapping. */
export type { ParamType };
/** Where a parameter's value came from (docs/design.md §2.3). */
export type ParamOrigin = 'edge' | 'arg' | 'default' | 'zero';

export interface XY {
  x: number;
  y: number;
}

/** A problem on a node: from the planner (bad JSON, unknown reference), the builder or Ajv. */
export interface NodeIssue {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  /** The parameter the issue concerns, when it concerns one. */
  param?: string;
}

/** One step of a workflow as stored: a tool call with the args configured for it. */
export interface WorkflowNode {
  id: NodeId;
  /** Tool name; looked up in `WorkflowDocument.tools`. */
  tool: string;
  /** Optional user label shown as the node title. */
  label?: string;
  position: XY;
  /** tool_args: values set by the model or the user. Edge-fed inputs may still hold a value here
   * (it comes back when the edge is removed). */
  args: Record<string, unknown>;
  /** Names of args the model sent that the declaration does not have (dropped from `args`). */
  unknownArgs?: string[];
  /** Hash of the declaration the node was built from (schema drift detection). */
  toolHash?: string;
  /** Issues recorded when the node was made (planner: raw arguments that were not JSON, …). */
  notes?: NodeIssue[];
  /** Raw argument text from the model when it could not be parsed. */
  rawArguments?: string;
  /** For a node whose tool is unknown: the parameters as imported, kept verbatim. */
  placeholderParams?: InputParameter[];
  /** For a placeholder node: the outputs as imported. */
  placeholderOutputs?: OutputParameter[];
  /** For a placeholder node: `missing_tool_args` as imported. */
  placeholderMissingArgs?: string[];
}

export interface WorkflowEdge {
  id: EdgeId;
  source: NodeId;
  sourceOutput: string;
  target: NodeId;
  targetInput: string;
}

/** A declaration snapshot used by a workflow, with its content hash. */
export interface ToolSnapshot {
  declaration: ToolDeclaration;
  hash: string;
}

/** What is stored in `Workflow.document`. */
export interface WorkflowDocument {
  task: string;
  nodes: WorkflowNode[];
  edges: WorkflowEdge[];
  /** Snapshot of every declaration the nodes use, keyed by tool name. */
  tools: Record<string, ToolSnapshot>;
  /** Overrides DEFAULT_SYSTEM_PARAMS when set. */
  systemParams?: string[];
}

// ---- v1 export (snake_case, docs/design.md §4.3) ----

export interface InputParameter {
  name: string;
  type: ParamType;
  value: unknown;
  origin: ParamOrigin;
  required: boolean;
  description?: string;
}

export interface OutputParameter {
  name: string;
  type: ParamType;
}

export interface ExportNode {
  id: string;
  step_index: number;
  tool_name: string;
  tool_source: ToolSource | null;
  label?: string;
  position: XY;
  input_parameters: InputParameter[];
  missing_tool_args: string[];
  unknown_args: string[];
  output_parameters: OutputParameter[];
  tool_hash: string | null;
  placeholder?: boolean;
  problems: NodeIssue[];
}

export interface ExportEdge {
  id: string;
  source: string;
  source_output: string;
  target: string;
  target_input: string;
}

export interface ExportTool {
  name: string;
  hash: string;
  title?: string;
  description: string;
  input_schema: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** MCP Tool fields, kept so the snapshot's hash is the declaration's. */
  icons?: unknown[];
  execution?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  source?: ToolSource;
}

export interface WorkflowExportV1 {
  format: 'toolflow.workflow';
  version: 1;
  id: string;
  name: string;
  task: string;
  system_parameters: string[];
  nodes: ExportNode[];
  edges: ExportEdge[];
  tools: ExportTool[];
}

/** What a planner (or a person writing one by hand) produces; the CLI's `build` input. */
export interface Plan {
  task?: string;
  steps: { id: string; tool: string; args: Record<string, unknown> }[];
  edges?: { source: string; source_output: string; target: string; target_input: string }[];
}
