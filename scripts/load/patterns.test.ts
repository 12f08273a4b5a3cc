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
      processes: 1,
    });
    expect(parseArgs(['--scenario', 'patterns', '--seconds', '5', '--clients', '3'])).toMatchObject({
      seconds: 5,
      clients: 3,
    });
    expect(() => parseArgs(['--scenario', 'other'])).toThrow('--scenario must be "patterns"');
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
