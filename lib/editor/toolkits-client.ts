/**
 * The browser's view of `/api/toolkits`: the list the palette, the prompt bar's toolkit picker
 * and the toolkit manager show, and the calls that change it. Every failure comes back as a
 * message that says what failed and what to do, never as a thrown error.
 */
import { isJsonObject } from '../tools/json-schema';
import type { ToolDeclaration } from '../tools/types';

/** A toolkit as listed by the API. */
export interface ToolkitSummary {
  id: string;
  name: string;
  /** builtin | file | mcp-http | mcp-stdio */
  sourceKind: string;
  sourceRef: string | null;
  format: string | null;
  contentHash: string;
  fetchedAt: string | null;
  /** A built-in sample toolkit: part of Toolflow, cannot be deleted. */
  builtin: boolean;
  tools: ToolDeclaration[];
}

/** A stdio MCP server configured on the server (its command is never sent to the browser). */
export interface ConfiguredMcpServer {
  name: string;
  description?: string;
}

export type ClientResult<T> = { ok: true; value: T } | { ok: false; message: string };

function readToolkit(raw: unknown): ToolkitSummary | undefined {
  if (!isJsonObject(raw) || typeof raw.id !== 'string') return undefined;
  const tools = Array.isArray(raw.tools)
    ? raw.tools
    : Array.isArray(raw.declarations)
      ? raw.declarations
      : [];
  return {
    id: raw.id,
    name: typeof raw.name === 'string' ? raw.name : raw.id,
    sourceKind: typeof raw.sourceKind === 'string' ? raw.sourceKind : 'file',
    sourceRef: typeof raw.sourceRef === 'string' ? raw.sourceRef : null,
    format: typeof raw.format === 'string' ? raw.format : null,
    contentHash: typeof raw.contentHash === 'string' ? raw.contentHash : '',
    fetchedAt: typeof raw.fetchedAt === 'string' ? raw.fetchedAt : null,
    builtin: raw.builtin === true || raw.sourceKind === 'builtin',
    tools: tools.filter(
      (t): t is ToolDeclaration =>
        isJsonObject(t) && typeof t.name === 'string' && isJsonObject(t.inputSchema),
    ),
  };
}

/** The `{code, message}` of an API error response, or a description of the HTTP failure. */
async function readError(res: Response, what: string): Promise<string> {
  const body: unknown = await res.json().catch(() => undefined);
  if (isJsonObject(body) && typeof body.message === 'string') {
    const message = body.message;
    const issues = Array.isArray(body.issues) ? body.issues : [];
    const details = issues
      .filter(isJsonObject)
      .map((i) => `${typeof i.path === 'string' && i.path ? `${i.path}: ` : ''}${String(i.message ?? '')}`)
      .filter(Boolean);
    const mcp = isJsonObject(body.mcp) && Array.isArray(body.mcp.issues) ? body.mcp.issues : [];
    for (const i of mcp.filter(isJsonObject)) {
      details.push(`${typeof i.path === 'string' && i.path ? `${i.path}: ` : ''}${String(i.message ?? '')}`);
    }
    // The first issue is already in the message; list the rest.
    const rest = details.filter((d) => !message.includes(d));
    return rest.length > 0 ? `${message}\n${rest.join('\n')}` : message;
  }
  return `${what} failed (HTTP ${res.status}). Check that the Toolflow server is running and try again.`;
}

async function call(input: string, init: RequestInit, what: string): Promise<ClientResult<unknown>> {
  let res: Response;
  try {
    res = await fetch(input, init);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    return {
      ok: false,
      message: `${what} failed: the server did not answer (${(error as Error).message}). Check your connection and try again.`,
    };
  }
  if (!res.ok) return { ok: false, message: await readError(res, what) };
  return { ok: true, value: await res.json().catch(() => ({})) };
}

/** Every toolkit the person can use, in the API's order, and the configured MCP servers. */
export async function fetchToolkits(
  signal?: AbortSignal,
): Promise<ClientResult<{ toolkits: ToolkitSummary[]; mcpServers: ConfiguredMcpServer[] }>> {
  const result = await call('/api/toolkits', { signal }, 'Loading toolkits');
  if (!result.ok) return result;
  const body = isJsonObject(result.value) ? result.value : {};
  const list = Array.isArray(body.toolkits) ? body.toolkits : [];
  const servers = Array.isArray(body.mcpServers) ? body.mcpServers : [];
  return {
    ok: true,
    value: {
      toolkits: list.map(readToolkit).filter((t): t is ToolkitSummary => t !== undefined),
      mcpServers: servers
        .filter((s): s is Record<string, unknown> => isJsonObject(s) && typeof s.name === 'string')
        .map((s) => ({
          name: s.name as string,
          ...(typeof s.description === 'string' ? { description: s.description } : {}),
        })),
    },
  };
}

/** What a new toolkit is made from. */
export type ToolkitInput =
  | { kind: 'file'; name: string; text: string; fileName?: string }
  | { kind: 'mcp-http'; name: string; url: string }
  | { kind: 'mcp-stdio'; name: string; server: string };

/** Creates a toolkit from declarations text, an MCP server URL or a configured MCP server. */
export async function createToolkit(input: ToolkitInput): Promise<ClientResult<ToolkitSummary>> {
  const body =
    input.kind === 'file'
      ? { name: input.name, text: input.text, ...(input.fileName ? { fileName: input.fileName } : {}) }
      : input.kind === 'mcp-http'
        ? { name: input.name, mcpUrl: input.url }
        : { name: input.name, mcpServer: input.server };
  const result = await call(
    '/api/toolkits',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    'Adding the toolkit',
  );
  if (!result.ok) return result;
  const toolkit = readToolkit(isJsonObject(result.value) ? result.value.toolkit : undefined);
  return toolkit
    ? { ok: true, value: toolkit }
    : { ok: false, message: 'The server answered without the new toolkit; reload the page to see it.' };
}

/**
 * Re-reads a toolkit from its source: its MCP server, the built-in set, or — for a toolkit read
 * from a file — the new file text given here.
 */
export async function refreshToolkit(id: string, text?: string): Promise<ClientResult<ToolkitSummary>> {
  const result = await call(
    `/api/toolkits/${encodeURIComponent(id)}/refresh`,
    text === undefined
      ? { method: 'POST' }
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) },
    'Refreshing the toolkit',
  );
  if (!result.ok) return result;
  const toolkit = readToolkit(isJsonObject(result.value) ? result.value.toolkit : undefined);
  return toolkit
    ? { ok: true, value: toolkit }
    : { ok: false, message: 'The server answered without the refreshed toolkit; reload the page to see it.' };
}

/** Deletes a toolkit (workflows keep their snapshots of its tools). */
export async function deleteToolkit(id: string): Promise<ClientResult<null>> {
  const result = await call(
    `/api/toolkits/${encodeURIComponent(id)}`,
    { method: 'DELETE' },
    'Deleting the toolkit',
  );
  return result.ok ? { ok: true, value: null } : result;
}
