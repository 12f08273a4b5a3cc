/**
 * The test-run domain (docs/design.md §9): what a run of an exported workflow is made of, as plain data.
 * The runner executes exactly a v1 export; these types say what each node did.
 */

/** A run as a whole. `interrupted`: the process that ran it stopped before it ended. */
export type RunStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted';

/**
 * One node in a run. `skipped`: a node feeding it did not succeed, so it was never called.
 * `interrupted`: it was being called when the process stopped, so whether the call happened is
 * unknown.
 */
export type NodeRunStatus =
  'queued' | 'running' | 'succeeded' | 'failed' | 'skipped' | 'cancelled' | 'interrupted';

export const FINAL_RUN_STATUSES: ReadonlySet<RunStatus> = new Set([
  'succeeded',
  'failed',
  'cancelled',
  'interrupted',
]);

export const FINAL_NODE_STATUSES: ReadonlySet<NodeRunStatus> = new Set([
  'succeeded',
  'failed',
  'skipped',
  'cancelled',
  'interrupted',
]);

/** Where a node's tool is called: a configured stdio server by name, or a Streamable HTTP URL. */
export type ServerRef = { kind: 'stdio'; name: string } | { kind: 'http'; url: string };

/**
 * Why a node failed or was not called. `path` points into its arguments when a value is to blame.
 * People read `message`; the code and `detail` are the details line (lib/run/error-words.ts).
 */
export interface RunError {
  /**
   * `no_server`, `placeholder`, `unknown_tool`, `missing_required`, `invalid_arguments`,
   * `invalid_step`, `type_mismatch`, `cannot_convert`, `no_value`, `cycle`, `server_unavailable`,
   * `server_start_timeout`, `tool_error`, `timeout`, `run_time_limit`, `server_exited`,
   * `call_failed`, `upstream_failed`, `cancelled`, `interrupted`.
   */
  code: string;
  /** What happened, in people's words: the headline. */
  message: string;
  path?: string;
  /** What the tool or server said, word for word, when `message` puts it in other words. */
  detail?: string;
}

/** An MCP content block as the server sent it (text, image, audio, resource, resource_link). */
export type ContentBlock = { type: string; [key: string]: unknown };

/** What a tool call returned (MCP `CallToolResult`). */
export interface ToolCallResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  /** The tool reported a failure of its own. */
  isError: boolean;
}

/** Limits of one run, from the configuration (lib/run/limits.ts reads the environment). */
export interface RunLimits {
  /** Most nodes called at the same time. */
  concurrency: number;
  /** Longest one call may take, counted from the call: its server is already running. */
  nodeTimeoutMs: number;
  /**
   * Longest a step waits for its server to start (a stdio process started and initialized, an
   * HTTP server connected and initialized) before its call; a server already running is no wait.
   */
  serverStartTimeoutMs: number;
  /** Longest the whole run may take. */
  runTimeoutMs: number;
  /** Largest stored result (and stored arguments) of one node, in bytes of JSON. */
  maxResultBytes: number;
}

/** What one node did, as stored and shown. */
export interface NodeRunRecord {
  nodeId: string;
  stepIndex: number;
  toolName: string;
  /** The server called, as shown to people (configured name or URL); null when there is none. */
  server: string | null;
  status: NodeRunStatus;
  /** The arguments exactly as sent (after capping for storage: see `truncated`). */
  arguments?: Record<string, unknown>;
  result?: ToolCallResult;
  error?: RunError;
  /** What was cut to keep the stored arguments and result within `maxResultBytes`. */
  truncated?: string[];
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
}
