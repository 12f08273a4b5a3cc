import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { materialsTools } from '../../planner/__fixtures__/tools';
import { runPlanner } from '../../planner/loop';
import type { PlanEvent } from '../../planner/types';
import { createOpenAIPort } from '../openai-port';
import { parseScenario, type Scenario } from './scenario';
import { startScriptedServer, type LoggedReply, type LoggedRequest, type ScriptedServer } from './server';
import { checkReply, checkRequest } from './spec';

const SCENARIO_DIR = fileURLToPath(new URL('./scenarios/', import.meta.url));
const servers: ScriptedServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

async function start(scenario: Scenario) {
  const server = await startScriptedServer(scenario);
  servers.push(server);
  return server;
}

function loadScenario(file: string): Scenario {
  const parsed = parseScenario(JSON.parse(readFileSync(SCENARIO_DIR + file, 'utf8')));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return parsed.value;
}

describe('parseScenario', () => {
  it('reports every problem with its JSON path', () => {
    const result = parseScenario({
      turns: [
        { txt: 'x' },
        { tool_calls: [{ arguments: {} }] },
        { error: { status: 200 } },
        { delay_ms: -1 },
      ],
    });
    expect(result.ok ? [] : result.error.map((i) => i.path)).toEqual([
      '/turns/0/txt',
      '/turns/1/tool_calls/0',
      '/turns/2/error',
      '/turns/3/delay_ms',
    ]);
  });

  it('refuses a file without turns', () => {
    expect(parseScenario({ steps: [] })).toEqual({
      ok: false,
      error: [
        expect.objectContaining({ path: '', message: 'A scenario is an object with a "turns" array.' }),
      ],
    });
  });
});

describe('the bundled scenarios through the SDK', () => {
  async function plan(file: string, api: 'chat' | 'responses') {
    const server = await start(loadScenario(file));
    const client = new OpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 });
    const events: PlanEvent[] = [];
    for await (const event of runPlanner(
      { task: 't', tools: materialsTools },
      createOpenAIPort({ client, model: 'm', api }),
    ))
      events.push(event);
    const problems = [
      ...server.requests.flatMap(checkRequest),
      ...server.replies.flatMap((r, i) => checkReply(r, i)),
    ];
    return { events, problems, server };
  }

  it('has only valid scenario files', () => {
    const files = readdirSync(SCENARIO_DIR).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) expect(() => loadScenario(file), file).not.toThrow();
  });

  it.each(['chat', 'responses'] as const)('optimize-phonons plans three wired steps (%s)', async (api) => {
    const { events, problems } = await plan('optimize-phonons.json', api);
    expect(problems).toEqual([]);
    expect(events.filter((e) => e.type === 'step').map((e) => e.type === 'step' && e.step.tool)).toEqual([
      'optimize_structure',
      'calculate_phonons',
      'calculate_band_structure',
    ]);
    expect(events.filter((e) => e.type === 'edge')).toHaveLength(2);
  });

  it('tools-refused falls back to the text protocol', async () => {
    const { events, problems } = await plan('tools-refused.json', 'chat');
    expect(problems).toEqual([]);
    const steps = events.flatMap((e) => (e.type === 'step' ? [e.step] : []));
    expect(steps.map((s) => [s.tool, s.issues.map((i) => i.code)])).toEqual([
      ['optimize_structure', []],
      ['calculate_phonons', ['repaired_arguments']],
    ]);
  });

  it('flaky retries, repairs a reply cut off mid-call (leaving out the cut argument), still wires to that step, drops a hallucinated arg and rejects an unknown tool', async () => {
    const { events, problems } = await plan('flaky.json', 'responses');
    expect(problems).toEqual([]);
    const codes = events.flatMap((e) =>
      e.type === 'step'
        ? e.step.issues.map((i) => i.code)
        : e.type === 'error'
          ? [e.code]
          : e.type === 'warning'
            ? ['warning']
            : [],
    );
    // The cut-off step keeps what arrived whole; the argument cut before its value is left out
    // and flagged, and step 2 still wires to it.
    expect(codes).toEqual([
      'warning',
      'repaired_arguments',
      'possibly_truncated',
      'missing_required',
      'unknown_arg',
      'unknown_tool',
    ]);
    expect(events.filter((e) => e.type === 'edge')).toHaveLength(1);
  });
});

describe('the scripted server', () => {
  it('restarts a scenario for a new conversation when asked to', async () => {
    const server = await start({
      restart_on_new_conversation: true,
      turns: [{ text: 'one' }, { text: 'two' }],
    });
    const client = new OpenAI({ apiKey: 'k', baseURL: server.baseURL, maxRetries: 0 });
    const ask = async (messages: OpenAI.Chat.ChatCompletionMessageParam[]) =>
      (await client.chat.completions.create({ model: 'm', messages })).choices[0].message.content;
    expect(await ask([{ role: 'user', content: 'hi' }])).toBe('one');
    expect(
      await ask([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'one' },
      ]),
    ).toBe('two');
    expect(await ask([{ role: 'user', content: 'again' }])).toBe('one');
    expect(
      await ask([
        { role: 'user', content: 'again' },
        { role: 'assistant', content: 'one' },
        { role: 'user', content: '?' },
      ]),
    ).toBe('two');
    expect(
      await ask([
        { role: 'user', content: 'x' },
        { role: 'assistant', content: 'two' },
      ]),
    ).toBe('Done.');
  });

  it('answers unknown paths with 404 and lists a model', async () => {
    const server = await start({ turns: [] });
    const missing = await fetch(`${server.baseURL}/embeddings`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain(
      'POST /v1/chat/completions',
    );
    const models = (await (await fetch(`${server.baseURL}/models`)).json()) as { data: { id: string }[] };
    expect(models.data[0].id).toBe('scripted-model');
  });
});

describe('the spec checks', () => {
  const request = (api: 'chat' | 'responses', body: unknown): LoggedRequest => ({
    method: 'POST',
    path: `/v1/${api}`,
    api,
    body,
    turn: 0,
  });

  it('accepts a valid Chat request and rejects a Responses-shaped tool sent to Chat', () => {
    const valid = {
      model: 'm',
      messages: [],
      tools: [{ type: 'function', function: { name: 'a', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
    };
    expect(checkRequest(request('chat', valid))).toEqual([]);
    const flat = {
      model: 'm',
      messages: [],
      tools: [{ type: 'function', name: 'a', parameters: { type: 'object' } }],
    };
    expect(checkRequest(request('chat', flat)).length).toBeGreaterThan(0);
  });

  it('rejects a tool message without its call id and a Responses output without call_id', () => {
    expect(checkRequest(request('chat', { messages: [{ role: 'tool', content: 'x' }] }))).toEqual([
      expect.stringContaining("must have required property 'tool_call_id'"),
    ]);
    expect(
      checkRequest(request('responses', { input: [{ type: 'function_call', name: 'a', arguments: '{}' }] })),
    ).toEqual([expect.stringContaining("must have required property 'call_id'")]);
  });

  it('rejects a streamed tool-call delta without an index and a Responses event without its sequence number', () => {
    const chat: LoggedReply = {
      api: 'chat',
      status: 200,
      stream: true,
      events: [
        { data: { choices: [{ delta: { tool_calls: [{ id: 'c', function: { arguments: '' } }] } }] } },
      ],
    };
    expect(checkReply(chat)).toEqual([expect.stringContaining("must have required property 'index'")]);
    const responses: LoggedReply = {
      api: 'responses',
      status: 200,
      stream: true,
      events: [
        {
          event: 'response.function_call_arguments.delta',
          data: { type: 'response.function_call_arguments.delta', item_id: 'i', output_index: 0, delta: 'x' },
        },
      ],
    };
    expect(checkReply(responses)).toEqual([
      expect.stringContaining("must have required property 'sequence_number'"),
    ]);
  });
});

describe('npm run mock-llm', () => {
  it('starts the server, prints how to use it and answers requests', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./serve.ts', import.meta.url)), '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const output = await new Promise<string>((resolve, reject) => {
        let text = '';
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${text}`)), 20_000);
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('Ctrl+C')) {
            clearTimeout(timer);
            resolve(text);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${text}`)));
      });
      const baseURL = /OPENAI_BASE_URL=(\S+)/.exec(output)?.[1];
      expect(output).toContain('scenario "optimize-phonons", 3 turns');
      const client = new OpenAI({ apiKey: 'k', baseURL, maxRetries: 0 });
      const completion = await client.chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'plan' }],
      });
      expect(completion.choices[0].message.tool_calls?.[0]).toMatchObject({
        function: { name: 'optimize_structure' },
      });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
