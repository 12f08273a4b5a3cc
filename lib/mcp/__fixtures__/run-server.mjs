#!/usr/bin/env node
/**
 * A small MCP server over stdio for the test-run's fault tests, speaking raw JSON-RPC lines:
 *   echo {text}      answers with the text (and structuredContent {text})
 *   sleep {ms}       answers after ms milliseconds (or when cancelled)
 *   exit {}          exits the process in the middle of the call, without answering
 *   deep {levels}    answers with structuredContent nested `levels` arrays and objects deep, and a
 *                    text block holding an unpaired surrogate (neither can be stored as sent)
 * Every call is appended to the file named by RUN_SERVER_LOG, when set, so a test can see which
 * calls reached the server. RUN_SERVER_START_DELAY_MS delays the answer to `initialize` (a server
 * slow to start).
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
const object = (properties) => ({ type: 'object', properties, required: Object.keys(properties) });
const TOOLS = [
  { name: 'echo', description: 'Echo the text', inputSchema: object({ text: { type: 'string' } }) },
  { name: 'sleep', description: 'Wait ms milliseconds', inputSchema: object({ ms: { type: 'integer' } }) },
  { name: 'exit', description: 'Exit mid-call', inputSchema: object({}) },
  { name: 'deep', description: 'Answer deeply nested', inputSchema: object({ levels: { type: 'integer' } }) },
];

/** An object nested `levels` arrays and objects deep: `{"a": [{"a": [… 1 …]}]}`. */
function nest(levels) {
  let value = 1;
  for (let i = 1; i < levels; i++) value = i % 2 ? [value] : { a: value };
  return { a: value };
}
const timers = new Map();

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.method === 'notifications/cancelled') {
    clearTimeout(timers.get(message.params?.requestId));
    return;
  }
  if (message.id === undefined) return;
  if (message.method === 'initialize') {
    const answer = () =>
      send({
        id: message.id,
        result: {
          protocolVersion: message.params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'run-server', version: '0.0.1' },
        },
      });
    setTimeout(answer, Number(process.env.RUN_SERVER_START_DELAY_MS) || 0);
  } else if (message.method === 'tools/list') {
    send({ id: message.id, result: { tools: TOOLS } });
  } else if (message.method === 'tools/call') {
    const { name, arguments: args = {} } = message.params;
    if (process.env.RUN_SERVER_LOG)
      appendFileSync(process.env.RUN_SERVER_LOG, JSON.stringify({ name, args }) + '\n');
    if (name === 'echo') {
      send({
        id: message.id,
        result: { content: [{ type: 'text', text: args.text }], structuredContent: { text: args.text } },
      });
    } else if (name === 'sleep') {
      timers.set(
        message.id,
        setTimeout(
          () => send({ id: message.id, result: { content: [{ type: 'text', text: `slept ${args.ms}` }] } }),
          args.ms,
        ),
      );
    } else if (name === 'deep') {
      send({
        id: message.id,
        result: {
          content: [{ type: 'text', text: `nested ${args.levels} levels, half a pair: \ud83d` }],
          structuredContent: nest(args.levels),
        },
      });
    } else if (name === 'exit') {
      process.exit(1);
    } else {
      send({
        id: message.id,
        result: { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true },
      });
    }
  } else {
    send({ id: message.id, error: { code: -32601, message: `method ${message.method} not found` } });
  }
});
