import { describe, expect, it } from 'vitest';
import { getDocumentIssues } from '../../lib/workflow/check';
import { buildDocument, editDocument, MAX_NODES, MIN_NODES, pickNodeCount } from './documents';
import { parseArgs } from './index';
import { createRandom } from './random';
import { isError, percentile } from './stats';
import { hashDocument, isClean, verifyAcks, type Ack, type StoredWorkflow } from './verify';

const h = (n: number) => hashDocument({ n });
const stored = (version: number, revisions: number[], hashOf = h, folded: number[] = []): StoredWorkflow => ({
  version,
  hash: hashOf(version),
  revisions: new Map(revisions.map((v) => [v, hashOf(v)])),
  folded: new Set(folded),
});
const acks = (id: string, versions: number[], hashOf = h): Ack[] =>
  versions.map((version) => ({ workflowId: id, version, hash: hashOf(version) }));

describe('verifyAcks', () => {
  it('passes when every acknowledged version is stored with its document', () => {
    const result = verifyAcks(acks('wf1', [1, 2, 3]), new Map([['wf1', stored(3, [1, 2, 3])]]), 200);
    expect(result).toMatchObject({ lostSaves: 0, duplicateAcks: 0, unacknowledged: 0, problems: [] });
    expect(isClean(result)).toBe(true);
  });

  it('counts a version acknowledged to two writers as a lost update', () => {
    const both = [...acks('wf1', [1, 2]), { workflowId: 'wf1', version: 2, hash: h(99) }];
    const result = verifyAcks(both, new Map([['wf1', stored(2, [1, 2])]]), 200);
    expect(result.duplicateAcks).toBe(1);
    expect(isClean(result)).toBe(false);
  });

  it('finds a save that is missing, or stored with another document', () => {
    const missing = verifyAcks(acks('wf1', [1, 2, 3]), new Map([['wf1', stored(2, [1, 2])]]), 200);
    expect(missing.lostSaves).toBe(1);
    const other = verifyAcks(
      acks('wf1', [1, 2]),
      new Map([['wf1', stored(2, [1, 2], (v) => (v === 2 ? h(42) : h(v)))]]),
      200,
    );
    expect(other.lostSaves).toBe(2); // the workflow row and its revision both hold the wrong one
    expect(verifyAcks(acks('wf2', [1]), new Map(), 200).lostSaves).toBe(1);
  });

  it('flags a stored version nobody was told about', () => {
    const result = verifyAcks(acks('wf1', [1, 2]), new Map([['wf1', stored(3, [1, 2, 3])]]), 200);
    expect(result.unacknowledged).toBe(1);
    expect(isClean(result)).toBe(false);
  });

  it('accepts revisions pruned by the retention window, not newer ones', () => {
    const pruned = verifyAcks(acks('wf1', [1, 2, 3, 4, 5]), new Map([['wf1', stored(5, [3, 4, 5])]]), 3);
    expect(pruned).toMatchObject({ pruned: 2, lostSaves: 0 });
    expect(isClean(pruned)).toBe(true);
    const gap = verifyAcks(acks('wf1', [1, 2, 3, 4, 5]), new Map([['wf1', stored(5, [3, 5])]]), 3);
    expect(gap.lostSaves).toBe(1);
  });
});

describe('verifyAcks with autosaves folded into history entries', () => {
  it('accepts versions folded into a later entry, but not a version neither kept nor folded', () => {
    // Entries: 1 (create), 2–5 (autosaves, keeping 5), 6.
    const folded = verifyAcks(
      acks('wf1', [1, 2, 3, 4, 5, 6]),
      new Map([['wf1', stored(6, [1, 5, 6], h, [2, 3, 4])]]),
      200,
    );
    expect(folded).toMatchObject({ folded: 3, lostSaves: 0, pruned: 0, problems: [] });
    expect(isClean(folded)).toBe(true);
    const lost = verifyAcks(
      acks('wf1', [1, 2, 3, 4, 5, 6]),
      new Map([['wf1', stored(6, [1, 5, 6], h, [2, 3])]]),
      200,
    );
    expect(lost.lostSaves).toBe(1);
    expect(lost.problems).toEqual(['wf1: acknowledged version 4 has no revision']);
  });

  it('counts as pruned only what is older than both the window and the oldest entry kept', () => {
    const entries = stored(10, [8, 10], h, [6, 7, 9]);
    const pruned = verifyAcks(acks('wf1', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), new Map([['wf1', entries]]), 2);
    expect(pruned).toMatchObject({ pruned: 5, folded: 3, lostSaves: 0 });
    // A missing version the entries still reach is lost, whatever the window says.
    const gap = verifyAcks(
      acks('wf1', [4, 5, 6, 7, 8, 9, 10]),
      new Map([['wf1', stored(10, [4, 8, 10], h, [6, 7, 9])]]),
      2,
    );
    expect(gap.lostSaves).toBe(1);
  });
});

describe('load documents', () => {
  it('builds valid workflows of 10–200 nodes and edits that always change them', () => {
    const random = createRandom(7);
    for (let i = 0; i < 20; i++) {
      const size = pickNodeCount(random);
      expect(size).toBeGreaterThanOrEqual(MIN_NODES);
      expect(size).toBeLessThanOrEqual(MAX_NODES);
      let doc = buildDocument(random, size);
      expect(doc.nodes).toHaveLength(size);
      expect(doc.edges.length).toBeGreaterThan(0);
      for (let k = 0; k < 30; k++) {
        const next = editDocument(random, doc).doc;
        expect(hashDocument(next)).not.toBe(hashDocument(doc));
        doc = next;
      }
      expect(getDocumentIssues(doc)).toEqual([]);
      expect(doc.nodes.length).toBeGreaterThanOrEqual(MIN_NODES);
    }
  });
});

describe('load options and stats', () => {
  it('reads the command line and refuses what it cannot verify', () => {
    expect(parseArgs(['--seconds', '20', '--owners=5', '--keep'])).toMatchObject({
      seconds: 20,
      owners: 5,
      keep: true,
    });
    expect(() => parseArgs(['--server-url', 'http://127.0.0.1:3000'])).toThrow(/--database-url/);
    expect(() => parseArgs(['--bogus'])).toThrow(/unknown option/);
  });

  it('counts only unexpected statuses as errors, and 409 only on a save', () => {
    expect(isError('save', '409')).toBe(false);
    expect(isError('read', '409')).toBe(true);
    expect(isError('revision', 'folded')).toBe(false);
    expect(isError('revision', '404')).toBe(true);
    expect(isError('create', '201')).toBe(false);
    expect(isError('list', 'timeout')).toBe(true);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 99)).toBe(4);
  });
});
