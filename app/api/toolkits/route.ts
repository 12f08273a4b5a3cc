/**
 * GET /api/toolkits — the built-in sample toolkits and mine, with their tools, plus the names of
 * the stdio MCP servers configured on this server (never their commands).
 * POST /api/toolkits — add a toolkit from a declarations file (`text` or `declarations`), an MCP
 * server URL (`mcpUrl`, fetched by this server through the URL guard) or a configured stdio MCP
 * server (`mcpServer`, by name).
 */
import type { ToolkitListResponse, ToolkitResponse } from '@/lib/api/types';
import { getPrisma } from '@/lib/db/client';
import { createToolkit, listToolkits } from '@/lib/db/toolkits';
import { parseJsonBody } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { withOwnerCookie } from '@/lib/http/owner';
import { assertCan, getRequestOwner } from '@/lib/http/access';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import {
  getConfiguredServerNames,
  getConfiguredStdioTarget,
  getMcpClientOptions,
  getMcpServerConfigs,
} from '@/lib/mcp/config';
import { getSampleSpace } from '@/lib/mcp/sample-spaces';
import { readMcpDeclarations } from '@/lib/mcp/toolkit-tools';
import { readDeclarations } from '@/lib/toolkits/read';
import { declarationsError, mcpError, toToolkitJson } from './access';
import { TOOLKIT_SOURCES, validateCreateToolkit } from './schema';

export const dynamic = 'force-dynamic';

// Adding from MCP starts a connection or a process: keep a runaway script from doing it in bulk.
const additions = createRateLimiter({ name: 'toolkit-additions', limit: 30, windowMs: 60_000 });

export const GET = withErrors(async (request: Request) => {
  const owner = await getRequestOwner(request);
  assertCan(owner, 'read', 'see the toolkits of this workspace');
  const db = await getPrisma();
  const toolkits = await listToolkits(db, { ownerId: owner.isNew ? null : owner.id });
  const configs = await getMcpServerConfigs();
  const mcpServers = configs.ok
    ? Object.entries(configs.value).map(([name, config]) => ({
        name,
        ...(config.description ? { description: config.description } : {}),
      }))
    : [];
  const configured = new Set(configs.ok ? Object.keys(configs.value) : []);
  return withOwnerCookie(
    Response.json({
      toolkits: toolkits.map((toolkit) => toToolkitJson(toolkit, configured)),
      mcpServers,
    } satisfies ToolkitListResponse),
    owner,
    request,
  );
});

export const POST = withErrors(async (request: Request) => {
  assertSameOrigin(request);
  const owner = await getRequestOwner(request);
  assertCan(owner, 'edit', 'add toolkits to this workspace');
  await enforceRateLimit(additions, getRateLimitKey(request, owner), 'new toolkits');
  const body = await parseJsonBody(request, validateCreateToolkit);
  const sources = TOOLKIT_SOURCES.filter((key) => body[key] !== undefined);
  if (sources.length !== 1) {
    throw new AppError(
      'bad_request:source',
      sources.length === 0
        ? 'Say where the tools come from: "text" or "declarations" (a declarations file), "mcpUrl" (an MCP server URL) or "mcpServer" (a configured MCP server name).'
        : `Give only one source for the tools, not ${sources.map((s) => `"${s}"`).join(' and ')}.`,
    );
  }
  const name = body.name.trim();

  let input: Parameters<typeof createToolkit>[1];
  if (body.mcpUrl !== undefined || body.mcpServer !== undefined) {
    let target;
    if (body.mcpUrl !== undefined) {
      target = { kind: 'http' as const, url: body.mcpUrl.trim() };
    } else {
      const configured = await getConfiguredStdioTarget(body.mcpServer!, {
        space: getSampleSpace(owner.id),
      });
      if (!configured.ok) throw new AppError('bad_request:mcpServer', configured.error[0].message);
      target = configured.value;
    }
    const tools = await readMcpDeclarations(target, name, getMcpClientOptions());
    if (!tools.ok) throw mcpError(tools.error);
    input = {
      ownerId: owner.id,
      name,
      sourceKind: target.kind === 'http' ? 'mcp-http' : 'mcp-stdio',
      sourceRef: target.kind === 'http' ? target.url : target.name!,
      format: 'mcp',
      tools: tools.value,
    };
  } else {
    const read = readDeclarations(
      body.text !== undefined ? { text: body.text } : { declarations: body.declarations },
      name,
    );
    if (!read.ok) throw declarationsError(read.error);
    input = {
      ownerId: owner.id,
      name,
      sourceKind: 'file',
      sourceRef: body.fileName ?? null,
      format: read.value.format,
      tools: read.value.tools,
    };
  }

  const db = await getPrisma();
  const toolkit = await createToolkit(db, input);
  return withOwnerCookie(
    Response.json(
      { toolkit: toToolkitJson(toolkit, await getConfiguredServerNames()) } satisfies ToolkitResponse,
      {
        status: 201,
        headers: { location: `/api/toolkits/${toolkit.id}` },
      },
    ),
    owner,
    request,
  );
});
