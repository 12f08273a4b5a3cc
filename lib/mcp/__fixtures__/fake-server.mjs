#!/usr/bin/env node
/**
 * A tiny MCP server over stdio for the client's failure tests, speaking raw JSON-RPC lines so it
 * can misbehave in ways the SDK's server would not allow. The first argument picks the behaviour:
 *
 *   crash          writes a reason to stderr and exits 3 before answering anything
 *   silent         reads requests and never answers (initialize times out)
 *   slow-list      initializes, then never answers tools/list
 *   malformed      answers tools/list with tools that have no name / a non-object schema
 *   no-tools       answers tools/list without a "tools" array
 *   paginate       three pages of tools, linked by cursors
 *   cursor-loop    every page points to the same cursor
 *   dialects       tools whose schemas are 2020-12 (prefixItems) and draft-07; tools/call
 *                  echoes `structuredContent` from its `reply` argument
 */
import { createInterface } from 'node:readline';

const mode = process.argv[2] ?? 'paginate';

if (mode === 'crash') {
  process.stderr.write('fake-server: cannot open /nonexistent/db.sqlite: no such file\n');
  process.exit(3);
}

const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
const object = (properties, required = []) => ({ type: 'object', properties, required });
const tool = (name, properties, extra = {}) => ({
  name,
  description: `The ${name} tool`,
  inputSchema: object(properties),
  ...extra,
});

const pages = [
  [tool('alpha', { a: { type: 'string' } }), tool('beta', { b: { type: 'integer', default: 2 } })],
  [
    tool('gamma', { c: { type: 'boolean' } }),
    tool('delta', { d: { type: 'array', items: { type: 'string' } } }),
  ],
  [tool('epsilon', { e: { type: 'number' } })],
];

function listTools(params) {
  switch (mode) {
    case 'slow-list':
      return undefined;
    case 'malformed':
      return {
        tools: [
          tool('fine', { x: { type: 'string' } }),
          { description: 'a tool with no name', inputSchema: object({}) },
          { name: 'bad_schema', description: 'schema is a string', inputSchema: 'not a schema' },
        ],
      };
    case 'no-tools':
      return { items: [] };
    case 'paginate': {
      const index = params?.cursor === undefined ? 0 : Number(String(params.cursor).replace('page-', '')) - 1;
      if (!(index >= 0 && index < pages.length))
        return { error: { code: -32602, message: `unknown cursor ${params?.cursor}` } };
      return {
        tools: pages[index],
        ...(index + 1 < pages.length ? { nextCursor: `page-${index + 2}` } : {}),
      };
    }
    case 'cursor-loop':
      return { tools: [tool(`t${Math.random().toString(36).slice(2, 8)}`, {})], nextCursor: 'again' };
    case 'dialects':
      return {
        tools: [
          tool(
            'pair_2020',
            { reply: { type: 'object' } },
            {
              inputSchema: {
                $schema: 'https://json-schema.org/draft/2020-12/schema',
                type: 'object',
                properties: {
                  pair: {
                    type: 'array',
                    prefixItems: [{ type: 'string' }, { type: 'integer' }],
                    items: false,
                  },
                },
              },
              outputSchema: {
                $schema: 'https://json-schema.org/draft/2020-12/schema',
                type: 'object',
                properties: {
                  pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
                },
                required: ['pair'],
              },
            },
          ),
          tool(
            'tuple_07',
            {},
            {
              inputSchema: {
                $schema: 'http://json-schema.org/draft-07/schema#',
                type: 'object',
                properties: {
                  tuple: {
                    type: 'array',
                    items: [{ type: 'string' }, { type: 'integer' }],
                    additionalItems: false,
                  },
                },
              },
            },
          ),
        ],
      };
    default:
      return { error: { code: -32601, message: `unknown mode ${mode}` } };
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim() || mode === 'silent') return;
  const message = JSON.parse(line);
  if (message.id === undefined) return; // notifications
  if (message.method === 'initialize') {
    send({
      id: message.id,
      result: {
        protocolVersion: message.params.protocolVersion,
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: `fake-${mode}`, version: '0.0.1' },
      },
    });
  } else if (message.method === 'tools/list') {
    const result = listTools(message.params);
    if (result === undefined) return;
    if (result.error) send({ id: message.id, error: result.error });
    else send({ id: message.id, result });
  } else if (message.method === 'tools/call') {
    send({
      id: message.id,
      result: { content: [], structuredContent: message.params.arguments?.reply ?? {} },
    });
  } else {
    send({ id: message.id, error: { code: -32601, message: `method ${message.method} not found` } });
  }
});
