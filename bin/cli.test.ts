import { getFixturePath } from '../tests/fixtures/index';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli';
import { createMemoryIo } from './__fixtures__/memory-io';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SEED = getFixturePath('seed-optimize-structure/');
const run = promisify(execFile);

const seedFiles = {
  'tools.json': readFileSync(SEED + 'tools.json', 'utf8'),
  'plan.json': readFileSync(SEED + 'plan.json', 'utf8'),
};

const chainTools = JSON.stringify({
  tools: [
    {
      name: 'fetch',
      description: 'Download',
      inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
    },
    {
      name: 'parse',
      description: 'Parse',
      inputSchema: {
        type: 'object',
        properties: { file: { type: 'string' }, strict: { type: 'boolean', default: true } },
      },
    },
  ],
});
const chainPlan = JSON.stringify({
  task: 'Fetch and parse',
  steps: [
    { id: 's1', tool: 'fetch', args: { url: 'https://x' } },
    { id: 's2', tool: 'parse', args: { file: '{{s1.result}}', colour: 'red' } },
  ],
});

describe('runCli', () => {
  describe('usage', () => {
    it('prints the usage and exits 2 without a command', async () => {
      const { io, out } = createMemoryIo({});
      expect(await runCli([], io)).toBe(2);
      expect(out.stderr).toContain('Usage: toolflow <command>');
    });
    it('exits 2 for an unknown command, naming it', async () => {
      const { io, out } = createMemoryIo({});
      expect(await runCli(['frobnicate'], io)).toBe(2);
      expect(out.stderr).toMatch(/unknown command "frobnicate"/);
    });
    it('exits 2 for an unknown option, with the command usage', async () => {
      const { io, out } = createMemoryIo(seedFiles);
      expect(await runCli(['build', '--tools', 'tools.json', '--plan', 'plan.json', '--colour'], io)).toBe(2);
      expect(out.stderr).toMatch(/--colour/);
      expect(out.stderr).toContain('Usage: toolflow build');
    });
    it('prints a command usage with --help and exits 0', async () => {
      const { io, out } = createMemoryIo({});
      expect(await runCli(['validate', '--help'], io)).toBe(0);
      expect(out.stdout).toContain('Usage: toolflow validate FILE');
    });
  });

  describe('build', () => {
    it('prints the export of the seed with step_1 as expected.json says', async () => {
      const { io, out } = createMemoryIo(seedFiles);
      expect(
        await runCli(['build', '--tools', 'tools.json', '--plan', 'plan.json', '--name', 'Seed'], io),
      ).toBe(0);
      const exported = JSON.parse(out.stdout);
      expect(exported).toMatchObject({ format: 'toolflow.workflow', version: 1, name: 'Seed' });
      const expected = JSON.parse(readFileSync(SEED + 'expected.json', 'utf8')).nodes.step_1;
      const node = exported.nodes.find((n: { id: string }) => n.id === 'step_1');
      expect(node).toMatchObject(expected);
      expect(out.stderr).toBe('');
    });
    it('wires references, applies --system-params and reports node problems on stderr', async () => {
      const { io, out } = createMemoryIo({ 't.json': chainTools, 'p.json': chainPlan });
      expect(
        await runCli(
          ['build', '--tools', 't.json', '--plan', 'p.json', '--system-params', 'strict', '--id', 'w1'],
          io,
        ),
      ).toBe(0);
      const exported = JSON.parse(out.stdout);
      expect(exported).toMatchObject({ id: 'w1', name: 'Fetch and parse', system_parameters: ['strict'] });
      expect(exported.edges).toEqual([
        {
          id: 's1.result->s2.file',
          source: 's1',
          source_output: 'result',
          target: 's2',
          target_input: 'file',
        },
      ]);
      expect(exported.nodes[1].input_parameters).toEqual([
        { name: 'file', type: 'str', value: '', origin: 'edge', required: false },
      ]);
      expect(exported.nodes[1].unknown_args).toEqual(['colour']);
      expect(out.stderr).toBe(
        'toolflow build: 0 errors and 1 warning on nodes; see "problems" in the export.\n',
      );
    });
    it('gives the same bytes twice (a content-derived id)', async () => {
      const a = createMemoryIo(seedFiles);
      const b = createMemoryIo(seedFiles);
      await runCli(['build', '--tools', 'tools.json', '--plan', 'plan.json'], a.io);
      await runCli(['build', '--tools', 'tools.json', '--plan', 'plan.json'], b.io);
      expect(a.out.stdout).toBe(b.out.stdout);
      expect(JSON.parse(a.out.stdout).id).toMatch(/^wf_[0-9a-f]{12}$/);
    });
    it('exits 1 with the path of every plan problem', async () => {
      const plan = JSON.stringify({
        steps: [
          { id: 's1', tool: 'fetch' },
          { id: 's1', tool: 'fetch' },
        ],
        edges: [{ source: 's9', source_output: 'result', target: 's1', target_input: 'url' }],
      });
      const { io, out } = createMemoryIo({ 't.json': chainTools, 'p.json': plan });
      expect(await runCli(['build', '--tools', 't.json', '--plan', 'p.json'], io)).toBe(1);
      expect(out.stdout).toBe('');
      expect(out.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^p\.json \/steps\/1\/id: Step id "s1" is already used/),
        expect.stringMatching(/^p\.json \/edges\/0\/source: No step has id "s9"/),
      ]);
    });
    it('exits 1 for a step whose tool the declarations lack, naming the step, as the README says of bad input', async () => {
      const plan = JSON.stringify({
        steps: [
          { id: 's1', tool: 'fetch', args: { url: 'https://x' } },
          { id: 's2', tool: 'frobnicate', args: {} },
        ],
      });
      const { io, out } = createMemoryIo({ 't.json': chainTools, 'p.json': plan });
      expect(await runCli(['build', '--tools', 't.json', '--plan', 'p.json'], io)).toBe(1);
      expect(out.stdout).toBe('');
      expect(out.stderr).toBe(
        'p.json /steps/1/tool: Tool "frobnicate" is not declared in t.json: add its declaration there, or fix the name.\n',
      );
      const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
      expect(readme).toContain('Exit codes: 0 ok, 1 bad input');
      expect(readme).toMatch(/a step whose tool `--tools` does not declare/);
    });
    it('exits 1 for a plan that is not JSON, with line and column', async () => {
      const { io, out } = createMemoryIo({ 't.json': chainTools, 'p.json': '{"steps": [' });
      expect(await runCli(['build', '--tools', 't.json', '--plan', 'p.json'], io)).toBe(1);
      expect(out.stderr).toMatch(/^p\.json: Invalid JSON at line 1, column 12/);
    });
    it('exits 1 for a missing file and says which', async () => {
      const { io, out } = createMemoryIo(seedFiles);
      expect(await runCli(['build', '--tools', 'nope.json', '--plan', 'plan.json'], io)).toBe(1);
      expect(out.stderr).toBe(
        'toolflow: cannot read --tools file "nope.json": no such file. Check the path.\n',
      );
    });
    it('exits 1 for declarations in no known shape', async () => {
      const { io, out } = createMemoryIo({ 't.json': '{"x": 1}', 'p.json': chainPlan });
      expect(await runCli(['build', '--tools', 't.json', '--plan', 'p.json'], io)).toBe(1);
      expect(out.stderr).toMatch(/not tool declarations in any known shape/);
    });
  });

  describe('validate', () => {
    async function buildSeed(): Promise<string> {
      const { io, out } = createMemoryIo(seedFiles);
      await runCli(['build', '--tools', 'tools.json', '--plan', 'plan.json'], io);
      return out.stdout;
    }
    it('exits 0 for a valid export', async () => {
      const { io, out } = createMemoryIo({ 'w.json': await buildSeed() });
      expect(await runCli(['validate', 'w.json'], io)).toBe(0);
      expect(out.stdout).toBe('w.json: ok (1 node, 0 edges)\n');
    });
    it('counts one edge in the singular and two nodes in the plural', async () => {
      const built = createMemoryIo({ 't.json': chainTools, 'p.json': chainPlan });
      await runCli(['build', '--tools', 't.json', '--plan', 'p.json'], built.io);
      const { io, out } = createMemoryIo({ 'w.json': built.out.stdout });
      expect(await runCli(['validate', 'w.json'], io)).toBe(0);
      expect(out.stdout).toBe('w.json: ok (2 nodes, 1 edge)\n');
    });
    it('exits 1 with one "path: message" line per problem', async () => {
      const file = JSON.parse(await buildSeed());
      file.nodes[0].step_index = 0;
      file.nodes[0].input_parameters[2].origin = 'model';
      const { io, out } = createMemoryIo({ 'w.json': JSON.stringify(file) });
      expect(await runCli(['validate', 'w.json'], io)).toBe(1);
      expect(out.stderr.trim().split('\n')).toEqual([
        '/nodes/0/step_index: Must be >= 1: fix this value to match the v1 format.',
        '/nodes/0/input_parameters/2/origin: Must be one of "edge", "arg", "default", "zero".',
      ]);
    });
    it('exits 2 without a file', async () => {
      const { io } = createMemoryIo({});
      expect(await runCli(['validate'], io)).toBe(2);
    });
  });

  describe('tools', () => {
    it('converts declarations to OpenAI Chat tools', async () => {
      const { io, out } = createMemoryIo(seedFiles);
      expect(await runCli(['tools', '--in', 'tools.json', '--to', 'openai-chat'], io)).toBe(0);
      const [tool] = JSON.parse(out.stdout);
      expect(tool).toMatchObject({ type: 'function', function: { name: 'optimize_structure' } });
      expect(Object.keys(tool.function.parameters.properties)).toContain('max_iterations');
    });
    it('leaves out the parameters given to --omit-params', async () => {
      const { io, out } = createMemoryIo(seedFiles);
      await runCli(
        ['tools', '--in', 'tools.json', '--to', 'anthropic', '--omit-params', 'executor,storage'],
        io,
      );
      const [tool] = JSON.parse(out.stdout);
      expect(Object.keys(tool.input_schema.properties)).not.toContain('executor');
    });
    it('prints the text catalogue for prompt', async () => {
      const { io, out } = createMemoryIo(seedFiles);
      expect(await runCli(['tools', '--in', 'tools.json', '--to', 'prompt'], io)).toBe(0);
      expect(out.stdout).toContain('optimize_structure');
      expect(out.stdout).toContain('force_tolerance');
    });
    it('exits 2 for an unknown target, listing the targets', async () => {
      const { io, out } = createMemoryIo(seedFiles);
      expect(await runCli(['tools', '--in', 'tools.json', '--to', 'cohere'], io)).toBe(2);
      expect(out.stderr).toMatch(/openai-chat, openai-responses, gemini, anthropic, mcp, prompt/);
    });
  });
});

describe('the installed command (spawned)', () => {
  it('npm run toolflow -- build prints the seed export whose step_1 matches expected.json', async () => {
    const { stdout } = await run(
      'npm',
      [
        'run',
        '--silent',
        'toolflow',
        '--',
        'build',
        '--tools',
        'tests/fixtures/seed-optimize-structure/tools.json',
        '--plan',
        'tests/fixtures/seed-optimize-structure/plan.json',
      ],
      { cwd: ROOT },
    );
    const node = JSON.parse(stdout).nodes.find((n: { id: string }) => n.id === 'step_1');
    expect(node).toMatchObject(JSON.parse(readFileSync(SEED + 'expected.json', 'utf8')).nodes.step_1);
  });
  it('bin/toolflow.mjs exits 2 with usage and 1 with a clear message, no stack trace', async () => {
    const usage = await run('node', ['bin/toolflow.mjs'], { cwd: ROOT }).catch((e) => e);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: toolflow');
    const bad = await run('node', ['bin/toolflow.mjs', 'validate', 'no/such/file.json'], { cwd: ROOT }).catch(
      (e) => e,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'toolflow: cannot read file "no/such/file.json": no such file. Check the path.\n',
    );
  });
});
