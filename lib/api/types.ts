/**
 * The HTTP API's contract: what each route under /api accepts and answers. Types only (a test
 * checks that this module exports nothing at run time), so the route handlers in app/api and the
 * browser's client (lib/api/client.ts) are checked against the same definitions while no server
 * code reaches the browser bundle: `import type` is erased.
 *
 * Response bodies are typed as the routes build them, from the records lib/db returns; what the
 * browser receives is `Jsonified<Body>` (a Date arrives as its ISO string).
 */
import type { WorkflowRecord, WorkflowSummary as StoredWorkflowSummary } from '../db/workflows';
import type { RevisionRecord, RevisionSummary as StoredRevisionSummary } from '../db/revisions';
import type { ShareRole, ShareSummary as StoredShareSummary } from '../db/shares';
import type { ToolkitRecord } from '../db/toolkits';
import type { NodeRunDetail, NodeRunSummary, RunSummary } from '../db/runs';
import type { ToolkitChanges } from '../toolkits/changes';
import type { PlanEvent } from '../planner/types';
import type { Issue } from '../result';
import type { DocumentDiff } from '../workflow/diff';
import type { StepChange } from '../workflow/step-changes';
import type { SecretFinding } from '../workflow/secrets';
import type { WorkflowDocument } from '../workflow/types';

/** What JSON makes of a server value: dates become ISO strings, functions and undefined vanish. */
export type Jsonified<T> = T extends Date
  ? string
  : T extends string | number | boolean | null
    ? T
    : T extends readonly (infer U)[]
      ? Jsonified<U>[]
      : T extends object
        ? { [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Jsonified<T[K]> }
        : T;

// ---------------------------------------------------------------------------------------------
// Errors

/** The kind of an error, which fixes its HTTP status (lib/http/errors.ts). */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

/** A server error code: its kind, optionally with what it is about (`not_found:workflow`). */
export type ErrorCode = ErrorKind | `${ErrorKind}:${string}`;

/** Every error response: `{code, message}`, the located problems when there are any, and details. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** Problems located by JSON path (an import, a declarations file). */
  issues?: Issue[];
  /** Route-specific details, e.g. `current` on a 409, `secrets` on 422 `unprocessable:secrets`. */
  [detail: string]: unknown;
}

// ---------------------------------------------------------------------------------------------
// Workflows: /api/workflows, /api/workflows/[id], /api/workflows/import

/** POST /api/workflows */
export interface CreateWorkflowRequest {
  name: string;
  task?: string;
  document?: WorkflowDocument;
}

/**
 * Why a PUT saves: `save` (an autosave; the default) is folded into the history's autosave entry
 * of the last few minutes, `plan` (the result of a planning run) and `resolve` (a copy kept
 * through a conflict) begin entries of their own.
 */
export type SaveReason = 'save' | 'plan' | 'resolve';

/** PUT /api/workflows/[id]: saved on top of `version`; a stale version gets 409 with `current`. */
export interface UpdateWorkflowRequest {
  version: number;
  /** Up to 200 characters (WORKFLOW_NAME_MAX), stored whole; blank is refused. */
  name?: string;
  task?: string;
  document: WorkflowDocument;
  reason?: SaveReason;
}

/**
 * PATCH /api/workflows/[id]: renames it as a new version on top of `version` (409 with `current`
 * when stale); answers SavedWorkflowResponse.
 */
export interface RenameWorkflowRequest {
  version: number;
  name: string;
}

/** A workflow as the routes return it. */
export type Workflow = WorkflowRecord;
/** One entry of the list of my workflows. */
export type WorkflowSummary = StoredWorkflowSummary;

/** GET /api/workflows */
export interface WorkflowListResponse {
  workflows: WorkflowSummary[];
}

/**
 * GET /api/workflows/[id], POST /api/workflows, POST /api/shares/[token]/fork,
 * POST /api/workflows/[id]/duplicate
 */
export interface WorkflowResponse {
  workflow: Workflow;
}

/** A workflow without its document. */
export type WorkflowHead = Omit<Workflow, 'document'>;

/**
 * PUT /api/workflows/[id]: the saved workflow without its document, which is the one the request
 * sent, stored as sent (echoing it back cost a save as much as a read: JSON, gzip and the socket).
 */
export interface SavedWorkflowResponse {
  workflow: WorkflowHead;
}

/** 409 `conflict:version` of PUT /api/workflows/[id] and of a restore: the server's copy. */
export interface VersionConflictBody extends ErrorBody {
  current: Workflow;
}

/** POST /api/workflows/import: the new workflow and the nodes whose tool the file lacks. */
export interface ImportWorkflowResponse {
  workflow: Workflow;
  placeholders: string[];
}

// ---------------------------------------------------------------------------------------------
// Revisions: /api/workflows/[id]/revisions/**

export type RevisionSummary = StoredRevisionSummary;

/** GET /api/workflows/[id]/revisions */
export interface RevisionListResponse {
  revisions: RevisionSummary[];
  /** How many unnamed revisions are kept. */
  retention: number;
}

/**
 * GET /api/workflows/[id]/revisions/[version] (`?against=<version>|current`, the entry before it
 * by default): the revision, and what changed between it and `comparedWith`, always from the
 * older of the two to the newer.
 */
export interface RevisionResponse {
  revision: RevisionRecord;
  comparedWith: number | null;
  diff: DocumentDiff | null;
  /** The same changes step by step, by title, with parameter values (short) before and after. */
  steps: StepChange[];
  summary: string;
}

/** PATCH /api/workflows/[id]/revisions/[version] */
export interface LabelRevisionRequest {
  /** A name keeps the revision beyond the retention bound; null removes it. */
  label: string | null;
}

/** PATCH /api/workflows/[id]/revisions/[version] */
export interface LabelRevisionResponse {
  version: number;
  label: string | null;
}

/** POST /api/workflows/[id]/revisions/[version]/restore */
export interface RestoreRevisionRequest {
  /** The version the client holds; the restore is saved on top of it (409 when stale). */
  version: number;
}

/** POST /api/workflows/[id]/revisions/[version]/restore */
export interface RestoreRevisionResponse {
  workflow: Workflow;
  restoredFrom: number;
}

// ---------------------------------------------------------------------------------------------
// Share links: /api/workflows/[id]/shares/**, /api/shares/[token]/**

export type ShareSummary = StoredShareSummary & { expired: boolean };

/** GET /api/workflows/[id]/shares: the live links and what looks like a secret in the document. */
export interface ShareListResponse {
  shares: ShareSummary[];
  secrets: SecretFinding[];
}

/** POST /api/workflows/[id]/shares */
export interface CreateShareRequest {
  /** Days until the link stops working; omitted or null: never. */
  expiresInDays?: number | null;
  /** Set after the owner saw the secret-scan warning and chose to share anyway. */
  acknowledgeSecrets?: boolean;
  /** "can view" (`viewer`, the default) or "can edit" (`editor`: holders sign in to edit). */
  role?: ShareRole;
}

/** POST /api/workflows/[id]/shares: the token is in this answer only (just its hash is stored). */
export interface CreateShareResponse {
  share: StoredShareSummary;
  token: string;
  path: string;
  secrets: SecretFinding[];
}

/** POST /api/shares/[token]/accept: the account may now edit this workflow, at /w/<workflowId>. */
export interface AcceptShareResponse {
  workflowId: string;
}

/** 422 `unprocessable:secrets` of POST /api/workflows/[id]/shares */
export interface SecretsBody extends ErrorBody {
  secrets: SecretFinding[];
}

/** GET /api/shares/[token] */
export interface SharedWorkflowResponse {
  workflow: Pick<Workflow, 'name' | 'task' | 'version' | 'document' | 'updatedAt'>;
  share: { expiresAt: Date | null; readOnly: true };
}

// ---------------------------------------------------------------------------------------------
// Toolkits: /api/toolkits/**

/**
 * A toolkit as the routes return it: the record without its owner, and whether a test-run can
 * call its tools here (lib/toolkits/runnable.ts), with why in a sentence.
 */
export type Toolkit = Omit<ToolkitRecord, 'ownerId'> & { runnable: boolean; runnableNote: string };

/** A stdio MCP server configured on the server (its command is never sent to the browser). */
export interface ConfiguredMcpServer {
  name: string;
  description?: string;
}

/** GET /api/toolkits */
export interface ToolkitListResponse {
  toolkits: Toolkit[];
  mcpServers: ConfiguredMcpServer[];
}

/** POST /api/toolkits: exactly one source (`text`, `declarations`, `mcpUrl` or `mcpServer`). */
export interface CreateToolkitRequest {
  name: string;
  text?: string;
  declarations?: unknown;
  fileName?: string;
  mcpUrl?: string;
  mcpServer?: string;
}

/** POST /api/toolkits/[id]/refresh: new file text for a file toolkit; nothing for the others. */
export interface RefreshToolkitRequest {
  text?: string;
  declarations?: unknown;
}

/** GET /api/toolkits/[id], POST /api/toolkits */
export interface ToolkitResponse {
  toolkit: Toolkit;
}

/** POST /api/toolkits/[id]/refresh */
export interface RefreshToolkitResponse {
  toolkit: Toolkit;
  changes: ToolkitChanges;
}

// ---------------------------------------------------------------------------------------------
// Planning: POST /api/plan answers NDJSON, one PlanLine per line

/**
 * What to plan: the task, the tools (saved toolkits by id and/or declarations in any format),
 * and for a follow-up the workflow to edit (a saved one by id, or the editor's current document,
 * which wins because it may hold unsaved edits).
 */
export interface PlanRequest {
  task: string;
  toolkitIds?: string[];
  tools?: unknown;
  workflowId?: string;
  document?: WorkflowDocument;
  llm?: 'auto' | 'offline' | 'openai';
  maxIterations?: number;
}

/** One line of the plan stream: the planner's events, then the document they make. */
export type PlanLine = PlanEvent | { type: 'document'; document: WorkflowDocument };

// ---------------------------------------------------------------------------------------------
// Test-runs (app/api/workflows/[id]/runs, app/api/runs)

/** A run as the API answers it (no owner id). */
export type RunJson = Jsonified<Omit<RunSummary, 'ownerId'>>;
/** A run's node as listed with it. */
export type NodeRunJson = Jsonified<NodeRunSummary>;
/** One node with its arguments and result. */
export type NodeRunDetailJson = Jsonified<NodeRunDetail>;

/** The pre-flight list of a saved version (lib/run/preflight.ts `getPreflight`). */
export interface PreflightJson {
  version: number;
  exportHash: string;
  nodes: {
    nodeId: string;
    stepIndex: number;
    toolName: string;
    label?: string;
    server: string | null;
    readOnly: boolean;
    blocked?: { code: string; message: string; path?: string; detail?: string };
    /** Blocked for a reason the person fixes in the editor (a value, a wire, a tool). */
    invalid?: true;
  }[];
  /**
   * `dataNote`: for a runnable sample, where it keeps the person's data, in plain words (the Run
   * dialog shows it).
   */
  servers: { label: string; kind: 'stdio' | 'http'; tools: string[]; dataNote?: string }[];
  runnable: number;
  /** Steps blocked for a reason the person fixes in the editor (lib/run/preflight.ts). */
  invalid: number;
  /** Why the run cannot start (Run is disabled with this message); absent when it can. */
  refusal?: { code: 'invalid_steps' | 'nothing_to_run'; message: string };
}

/** A line of GET /api/runs/:runId/events. */
export type RunStreamLine =
  | { type: 'state'; run: RunJson; nodes: NodeRunJson[] }
  | { type: 'end'; status: RunJson['status'] }
  | { type: 'ping' }
  | { type: 'error'; code: string; message: string };
