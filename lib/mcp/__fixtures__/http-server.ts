/**
 * An MCP server on the official SDK, served over Streamable HTTP on 127.0.0.1 inside the test
 * process, whose tool list the test changes while a client is connected.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';

export interface ChangingHttpServer {
  url: string;
  /** Resolves once a client has opened its event stream (GET), so notifications reach it. */
  eventStreamOpened: Promise<void>;
  /** Replace the tool list and announce it with tools/list_changed. */
  setTools(tools: Tool[]): Promise<void>;
  close(): Promise<void>;
}

export async function startChangingHttpServer(initial: Tool[]): Promise<ChangingHttpServer> {
  let tools = initial;
  const server = new Server(
    { name: 'changing-http', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);

  let opened!: () => void;
  const eventStreamOpened = new Promise<void>((resolve) => (opened = resolve));
  const httpServer = http.createServer((req, res) => {
    // A GET is the client's event stream; it is registered by the time its headers are out.
    if (req.method === 'GET') {
      const writeHead = res.writeHead.bind(res);
      res.writeHead = ((...args: Parameters<typeof res.writeHead>) => {
        const result = writeHead(...args);
        setImmediate(opened);
        return result;
      }) as typeof res.writeHead;
    }
    void transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    eventStreamOpened,
    async setTools(next) {
      tools = next;
      await server.sendToolListChanged();
    },
    async close() {
      await server.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}
