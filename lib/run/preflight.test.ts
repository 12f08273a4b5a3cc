import { describe, expect, it } from 'vitest';
import { buildExport, tool } from './__fixtures__/exports';
import { blockUnavailableServers, getPreflight, getRunRefusal, planRun } from './preflight';

describe('planRun', () => {
  const tools = [
    tool(
      'remote',
      { q: { type: 'string' }, n: { type: 'integer', minimum: 1 } },
      { required: ['q'], server: 'memory' },
    ),
    tool('web', { url: { type: 'string' } }, { kind: 'mcp-http', server: 'https://mcp.example.com/mcp' }),
    tool('file', { q: { type: 'string' } }, { kind: 'file' }),
    tool('sample', { q: { type: 'string' } }, { kind: 'builtin' }),
  ];

  it('lists each server with the tools called there', () => {
    const file = buildExport(
      {
        steps: [
          { id: 'a', tool: 'remote', args: { q: 'x' } },
          { id: 'b', tool: 'web', args: { url: '{{a.result}}' } },
          { id: 'c', tool: 'remote', args: { q: 'y' } },
        ],
      },
      tools,
    );
    const plan = planRun(file);
    expect(plan.servers).toEqual([
      { server: { kind: 'stdio', name: 'memory' }, label: 'memory', tools: ['remote'] },
      {
        server: { kind: 'http', url: 'https://mcp.example.com/mcp' },
        label: 'https://mcp.example.com/mcp',
        tools: ['web'],
      },
    ]);
    expect(plan.nodes.every((n) => !n.blocked)).toBe(true);
  });

  it('says why nodes cannot run: no server, missing required value, a value failing its schema, a placeholder', () => {
    const file = buildExport(
      {
        steps: [
          { id: 'f', tool: 'file', args: { q: 'x' } },
          { id: 's', tool: 'sample', args: { q: 'x' } },
          { id: 'm', tool: 'remote', args: {} },
          { id: 'v', tool: 'remote', args: { q: 'x', n: 0 } },
        ],
      },
      tools,
    );
    file.nodes.push({ ...file.nodes[0], id: 'p', tool_name: 'gone', placeholder: true, step_index: 5 });
    const blocked = planRun(file).nodes.map((n) => [n.nodeId, n.blocked?.code, n.blocked?.path]);
    expect(blocked).toEqual([
      ['f', 'no_server', undefined],
      ['s', 'no_server', undefined],
      ['m', 'missing_required', '/q'],
      ['v', 'invalid_arguments', '/n'],
      ['p', 'placeholder', undefined],
    ]);
    expect(planRun(file).nodes[0].blocked?.message).toContain('declarations file (toolkit "Test")');
  });

  it('blocks the nodes of a server that is not available here', () => {
    const file = buildExport({ steps: [{ id: 'a', tool: 'remote', args: { q: 'x' } }] }, tools);
    const plan = blockUnavailableServers(
      planRun(file),
      new Map([['memory', { code: 'server_unavailable', message: 'not configured' }]]),
    );
    expect(plan.nodes[0].blocked?.code).toBe('server_unavailable');
    expect(plan.servers).toEqual([]);
  });

  it('blocks a step the canvas marks with an error the schema check does not see', () => {
    const file = buildExport({ steps: [{ id: 'a', tool: 'remote', args: { q: 'x' } }] }, tools);
    file.nodes[0].problems.push(
      { severity: 'warning', code: 'embedded_reference', message: 'a warning does not block', param: 'q' },
      {
        severity: 'error',
        code: 'bad_reference',
        message: 'Reference "{{z.out}}" names no step.',
        param: 'n',
      },
    );
    expect(planRun(file).nodes[0].blocked).toEqual({
      code: 'invalid_step',
      message: 'Reference "{{z.out}}" names no step.',
      path: '/n',
    });
  });
});

describe('getRunRefusal', () => {
  const tools = [
    tool('remote', { q: { type: 'string' } }, { server: 'memory' }),
    tool('file', { q: { type: 'string' } }, { kind: 'file' }),
  ];

  it('holds the run back while a step is invalid, naming each', () => {
    const file = buildExport(
      {
        steps: [
          { id: 'a', tool: 'remote', args: { q: 'x' } },
          { id: 'b', tool: 'remote', args: {} },
          { id: 'c', tool: 'remote', args: { q: 3 } },
        ],
      },
      tools,
    );
    const plan = planRun(file);
    const refusal = {
      code: 'invalid_steps',
      message:
        'Fix 2 invalid steps first (2. remote, 3. remote): a run starts only when every step is valid.',
    };
    expect(getRunRefusal(plan)).toEqual(refusal);
    const preflight = getPreflight(plan, 1, 'sha256:x');
    expect([preflight.runnable, preflight.invalid, preflight.refusal]).toEqual([1, 2, refusal]);
  });

  it('lets the rest run when steps only lack a server here, and refuses when nothing can run', () => {
    const some = planRun(
      buildExport(
        {
          steps: [
            { id: 'a', tool: 'remote', args: { q: 'x' } },
            { id: 'f', tool: 'file', args: { q: 'x' } },
          ],
        },
        tools,
      ),
    );
    expect(getRunRefusal(some)).toBeUndefined();
    expect(getPreflight(some, 1, 'sha256:x')).not.toHaveProperty('refusal');
    const none = planRun(buildExport({ steps: [{ id: 'f', tool: 'file', args: { q: 'x' } }] }, tools));
    expect(getRunRefusal(none)?.code).toBe('nothing_to_run');
    expect(getRunRefusal({ nodes: [], servers: [], order: [] })?.message).toBe(
      'The workflow has no steps to run.',
    );
  });
});
