import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../lib/llm/testing/server';
import { checkReply, checkRequest } from '../../lib/llm/testing/spec';
import type { WorkflowExportV1 } from '../../lib/workflow/types';
import { runCli } from '../cli';
import { createMemoryIo } from '../__fixtures__/memory-io';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOOLS_FILE = fileURLToPath(
  new URL('../../lib/planner/__fixtures__/materials-tools.json', import.meta.url),
);
const TOOLS = readFileSync(TOOLS_FILE, 'utf8');
const TASK =
  'Optimise the structure at https://example.org/a.cif with model https://example.org/m.pt, then compute its phonons';

let server: ScriptedServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  if (server) {
    // What the SDK sent and what the server answered must fit the official OpenAI schemas.
    expect([
      ...server.requests.flatMap(checkRequest),
      ...server.replies.flatMap((r, i) => checkReply(r, i)),
    ]).toEqual([]);
    await server.close();
  }
  server = undefined;
});

describe('toolflow plan', () => {
  it('plans offline without a key, printing the export and saying which planner ran and why it stopped', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const { io, out } = createMemoryIo({ 'tools.json': TOOLS });
    expect(await runCli(['plan', TASK, '--tools', 'tools.json'], io)).toBe(0);
    const exported = JSON.parse(out.stdout) as WorkflowExportV1;
    expect(exported.nodes.map((n) => n.tool_name)).toEqual(['optimize_structure', 'calculate_phonons']);
    expect(exported.edges.map((e) => e.id)).toEqual(['step_1.optimized_structure->step_2.structure_path']);
    expect(exported.task).toBe(TASK);
    expect(out.stderr).toContain('toolflow plan: planner offline (no OPENAI_API_KEY set');
    expect(out.stderr).toContain('  step_1  optimize_structure\n');
    expect(out.stderr).toContain(
      'stopped (no_tool_calls: the planner made no more tool calls) after 2 turns with 2 steps and 1 edge: planned everything the task asked.\n',
    );
  });

  it('plans with an OpenAI-compatible endpoint (the scripted server) and --max-iterations', async () => {
    const again = { tool_calls: [{ name: 'fetch_structure', arguments: { material_id: 'mp-149' } }] };
    server = await startScriptedServer({ turns: [again, again, again] });
    vi.stubEnv('OPENAI_API_KEY', 'scripted');
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
    vi.stubEnv('TOOLFLOW_LLM_API', 'responses');
    const { io, out } = createMemoryIo({ 'tools.json': TOOLS });
    expect(
      await runCli(
        ['plan', 'fetch mp-149', '--tools', 'tools.json', '--llm', 'openai', '--max-iterations', '2'],
        io,
      ),
    ).toBe(0);
    expect(out.stderr).toContain(`planner openai-responses (gpt-4.1-mini at ${server.baseURL})`);
    expect(out.stderr).toContain(
      'stopped (max_iterations: the turn limit was reached) after 2 turns with 2 steps and 0 edges. Stopped after 2 model turns',
    );
    expect((JSON.parse(out.stdout) as WorkflowExportV1).nodes).toHaveLength(2);
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses']);
  });

  it('exits 1 with the reason when the model endpoint fails', async () => {
    server = await startScriptedServer({
      turns: [{ error: { status: 401, message: 'Incorrect API key provided' } }],
    });
    vi.stubEnv('OPENAI_API_KEY', 'bad');
    vi.stubEnv('OPENAI_BASE_URL', server.baseURL);
    const { io, out } = createMemoryIo({ 'tools.json': TOOLS });
    expect(await runCli(['plan', TASK, '--tools', 'tools.json'], io)).toBe(1);
    expect(out.stderr).toContain(
      'error: The model endpoint refused the request (HTTP 401: Incorrect API key provided). Check OPENAI_API_KEY.',
    );
  });

  it('exits 1 when nothing could be planned, saying why in words about what the CLI has', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const { io, out } = createMemoryIo({ 'tools.json': TOOLS });
    expect(await runCli(['plan', 'asdf qwerty', '--tools', 'tools.json'], io)).toBe(1);
    expect(out.stderr).toContain('warning: No tool matches the task:');
    expect(out.stderr).toContain(
      'after 1 turn with 0 steps and 0 edges: nothing could be planned: No tool matches the task:',
    );
    expect(out.stderr).toContain('toolflow plan: the export above has no steps.\n');
    // No palette, no toolkit and no model in the CLI's offline run: it has none of them.
    expect(out.stderr.replace(/^toolflow plan: planner .*\n/, '')).not.toMatch(/palette|toolkit|model/i);
  });

  it('counts and names the values the task left for the person on the stop line', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    const { io, out } = createMemoryIo({ 'tools.json': TOOLS });
    const task = 'Optimise the structure at https://example.org/a.cif, then compute its phonons';
    expect(await runCli(['plan', task, '--tools', 'tools.json'], io)).toBe(0);
    const exported = JSON.parse(out.stdout) as WorkflowExportV1;
    const left = exported.nodes.flatMap((n) =>
      n.input_parameters.filter((p) => p.required && p.origin === 'zero').map((p) => `${n.id}.${p.name}`),
    );
    expect(left.length).toBeGreaterThan(0);
    expect(out.stderr).toContain(
      `: planned, with ${left.length} ${left.length === 1 ? 'value' : 'values'} left for you (${left.join(', ')}).\n`,
    );
  });

  it('is a usage error (exit 2) without a task, without --tools, or with a bad --llm', async () => {
    const { io, out } = createMemoryIo({});
    expect(await runCli(['plan', '--tools', 'x.json'], io)).toBe(2);
    expect(await runCli(['plan', 'task'], io)).toBe(2);
    expect(await runCli(['plan', 'task', '--tools', 'x.json', '--llm', 'claude'], io)).toBe(2);
    expect(out.stderr).toContain('--llm must be auto, offline or openai (got "claude")');
  });

  it('says when OPENAI is forced without a key', async () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    const { io, out } = createMemoryIo({ 'tools.json': TOOLS });
    expect(await runCli(['plan', 'x', '--tools', 'tools.json', '--llm', 'openai'], io)).toBe(1);
    expect(out.stderr).toContain('needs OPENAI_API_KEY');
  });

  it('runs as `npm run --silent toolflow -- plan` in a plain Node process', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      'npm',
      [
        'run',
        '--silent',
        'toolflow',
        '--',
        'plan',
        '对这个结构进行几何优化，然后计算声子谱',
        '--tools',
        TOOLS_FILE,
        '--llm',
        'offline',
      ],
      {
        cwd: ROOT,
        env: { ...process.env, OPENAI_API_KEY: '' },
      },
    );
    const exported = JSON.parse(stdout) as WorkflowExportV1;
    expect(exported.nodes.map((n) => n.tool_name)).toEqual(['optimize_structure', 'calculate_phonons']);
    expect(stderr).toContain('planner offline (chosen');
  });
});
