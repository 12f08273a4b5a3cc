import { describe, expect, it } from 'vitest';
import { getToolkitRunnability } from './runnable';

const servers = new Set(['memory', 'filesystem', 'mine']);

describe('getToolkitRunnability', () => {
  it('marks toolkits with a server here runnable', () => {
    for (const toolkit of [
      { sourceKind: 'builtin', sourceRef: 'memory' },
      { sourceKind: 'builtin', sourceRef: 'files' },
      { sourceKind: 'mcp-stdio', sourceRef: 'mine' },
      { sourceKind: 'mcp-http', sourceRef: 'https://mcp.example.com/mcp' },
    ])
      expect(getToolkitRunnability(toolkit, servers).runnable, toolkit.sourceRef).toBe(true);
  });

  it('marks toolkits that only declare tools, saying why', () => {
    expect(getToolkitRunnability({ sourceKind: 'file', sourceRef: 'tools.json' }, servers)).toMatchObject({
      runnable: false,
      note: expect.stringMatching(/^A file has no server behind it/),
    });
    expect(getToolkitRunnability({ sourceKind: 'builtin', sourceRef: 'materials' }, servers)).toMatchObject({
      runnable: false,
      note: 'A sample to plan with; no server runs its tools.',
    });
    expect(getToolkitRunnability({ sourceKind: 'mcp-stdio', sourceRef: 'gone' }, servers).note).toBe(
      'The server "gone" is no longer configured on this Toolflow server.',
    );
    // The samples turned off (TOOLFLOW_SAMPLE_SERVERS=0): their servers are not configured.
    expect(getToolkitRunnability({ sourceKind: 'builtin', sourceRef: 'memory' }, new Set()).runnable).toBe(
      false,
    );
  });
});
