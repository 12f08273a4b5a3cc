import { describe, expect, it } from 'vitest';
import { getValueProblems } from '../../lib/workflow/export';
import { getDocumentIssues } from '../../lib/workflow/check';
import type { WorkflowDocument } from '../../lib/workflow/types';
import { parseArgs } from './index';
import { CATASTROPHIC_PATTERNS } from '../../tests/fixtures/catastrophic-patterns';
import { buildPatternDocument } from './patterns';
import { createRandom } from './random';

describe('the schema-pattern scenario', () => {
  it('is chosen by a flag, with its own defaults', () => {
    expect(parseArgs(['--scenario', 'patterns'])).toMatchObject({
      scenario: 'patterns',
      seconds: 30,
      thinkMs: 1000,
    });
    expect(parseArgs(['--scenario', 'patterns', '--seconds', '5', '--clients', '3'])).toMatchObject({
      seconds: 5,
      clients: 3,
    });
    expect(() => parseArgs(['--scenario', 'other'])).toThrow('--scenario must be "patterns"');
  });

  it('counts the CPU of a server it did not start only when told its processes', () => {
    const given = ['--server-url', 'http://127.0.0.1:8080', '--database-url', 'postgres://x@127.0.0.1/db'];
    expect(parseArgs([...given, '--server-pids', '11,12']).serverPids).toEqual([11, 12]);
    expect(parseArgs(given).serverPids).toBeUndefined();
    expect(() => parseArgs([...given, '--server-pids', '11,x'])).toThrow('--server-pids takes process ids');
    expect(() => parseArgs(['--server-pids', '11'])).toThrow('--server-pids goes with --server-url');
    expect(() => parseArgs(['--processes', '2'])).toThrow('unknown option --processes');
  });

  it('sends documents the server accepts, whose checks are linear', () => {
    const random = createRandom(1);
    for (const pattern of CATASTROPHIC_PATTERNS) {
      const doc = buildPatternDocument(random, pattern) as unknown as WorkflowDocument;
      expect(getDocumentIssues(doc)).toEqual([]);
      const started = performance.now();
      getValueProblems(doc);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});
