/**
 * POST /api/toolkits/[id]/refresh — read the toolkit's tools again from where they came from: the
 * MCP server (URL or configured name), or, for a file toolkit, the new file in the body
 * (`text` or `declarations`). Answers with the toolkit and which tools were added, removed or
 * changed, parameter by parameter; workflows built on changed tools show drift from then on.
 */
import type { RefreshToolkitRequest, RefreshToolkitResponse } from '@/lib/api/types';
import { getPrisma } from '@/lib/db/client';
import { replaceToolkitTools } from '@/lib/db/toolkits';
import { parseJsonBody, readBodyText } from '@/lib/http/body';
import { assertSameOrigin } from '@/lib/http/csrf';
import { AppError, withErrors } from '@/lib/http/errors';
import { assertCan, getRequestOwner } from '@/lib/http/access';
import { createRateLimiter, enforceRateLimit, getRateLimitKey } from '@/lib/http/rate-limit';
import { getConfiguredServerNames, getConfiguredStdioTarget, getMcpClientOptions } from '@/lib/mcp/config';
import { getSampleSpace } from '@/lib/mcp/sample-spaces';
import { readMcpDeclarations } from '@/lib/mcp/toolkit-tools';
import { findBuiltinToolkit } from '@/lib/toolkits/builtin';
import { getToolkitChanges } from '@/lib/toolkits/changes';
import { readDeclarations } from '@/lib/toolkits/read';
import type { ToolDeclaration } from '@/lib/tools/types';
import { declarationsError, mcpError, requireToolkit, toToolkitJson } from '../../access';
import { validateRefreshToolkit } from '../../schema';

export const dynamic = 'force-dynamic';

const refreshes = createRateLimiter({ name: 'toolkit-refreshes', limit: 60, windowMs: 60_000 });

type Context = { params: Promise<{ id: string }> };

export const POST = withErrors(async (request: Request, context: Context) => {
  const { id } = await context.params;
  assertSameOrigin(request);
  const owner = await getRequestOwner(request);
  assertCan(owner, 'edit', 'refresh toolkits in this workspace');
  await enforceRateLimit(refreshes, getRateLimitKey(request, owner), 'toolkit refreshes');
  const body = await parseOptionalBody(request);
  const db = await getPrisma();
  const toolkit = await requireToolkit(db, id, owner, 'refresh', 'read');

  let tools: ToolDeclaration[];
  let format = toolkit.format;
  switch (toolkit.sourceKind) {
    case 'builtin': {
      tools = findBuiltinToolkit(toolkit.id)?.tools ?? toolkit.tools;
      break;
    }
    case 'file': {
      if (body.text === undefined && body.declarations === undefined) {
        throw new AppError(
          'bad_request:source',
          `"${toolkit.name}" was read from a file: send the new file as "text" (or parsed as "declarations") to refresh it.`,
        );
      }
      const read = readDeclarations(
        body.text !== undefined ? { text: body.text } : { declarations: body.declarations },
        toolkit.name,
      );
      if (!read.ok) throw declarationsError(read.error);
      tools = read.value.tools;
      format = read.value.format;
      break;
    }
    case 'mcp-http':
    case 'mcp-stdio': {
      let target;
      if (toolkit.sourceKind === 'mcp-http') {
        target = { kind: 'http' as const, url: toolkit.sourceRef! };
      } else {
        const configured = await getConfiguredStdioTarget(toolkit.sourceRef!, {
          space: getSampleSpace(owner.id),
        });
        if (!configured.ok)
          throw new AppError(
            'unprocessable:mcpServer',
            `${configured.error[0].message} The toolkit "${toolkit.name}" cannot be refreshed until it is configured again.`,
          );
        target = configured.value;
      }
      const listed = await readMcpDeclarations(target, toolkit.name, getMcpClientOptions());
      if (!listed.ok) throw mcpError(listed.error);
      tools = listed.value;
      break;
    }
  }

  const refreshed = await replaceToolkitTools(db, toolkit, tools, format);
  return Response.json({
    toolkit: toToolkitJson(refreshed, await getConfiguredServerNames()),
    changes: getToolkitChanges(toolkit.tools, tools),
  } satisfies RefreshToolkitResponse);
});

/** The body is optional (MCP and built-in toolkits need none); when present it is validated. */
async function parseOptionalBody(request: Request): Promise<RefreshToolkitRequest> {
  const text = await readBodyText(request.clone());
  return text.trim() ? parseJsonBody(request, validateRefreshToolkit) : {};
}
