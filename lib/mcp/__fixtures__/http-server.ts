/**
 * An MCP server on the official SDK, served over Streamable HTTP on 127.0.0.1 inside the test
 * process, whose tool list the test changes while clients are connected. One SDK server and
 * transport per client session, as real servers do.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

export interface ChangingHttpServer {
  url: string;
  /** Replace the tool list and announce it with tools/list_changed to every connected client. */
  setTools(tools: Tool[]): Promise<void>;
  /** Sessions the server still holds. */
  getSessionCount(): number;
  close(): Promise<void>;
}

export async function startChangingHttpServer(initial: Tool[]): Promise<ChangingHttpServer> {
  let tools = initial;
  const sessions = new Map<string, { server: Server; transport: StreamableHTTPServerTransport }>();

  async function openSession(): Promise<StreamableHTTPServerTransport> {
    const server = new Server(
      { name: 'changing-http', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  }

  const httpServer = http.createServer((req, res) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      const session = typeof id === 'string' ? sessions.get(id) : undefined;
      if (typeof id === 'string' && !session) {
        res.writeHead(404).end();
        return;
      }
      const transport = session?.transport ?? (await openSession());
      await transport.handleRequest(req, res);
    })();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async setTools(next) {
      tools = next;
      await Promise.all(
        [...sessions.values()].map(({ server }) => server.sendToolListChanged().catch(() => {})),
      );
    },
    getSessionCount: () => sessions.size,
    async close() {
      await Promise.all([...sessions.values()].map(({ server }) => server.close()));
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}
