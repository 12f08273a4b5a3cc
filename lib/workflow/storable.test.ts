import { describe, expect, it } from 'vitest';
import { MAX_VALUE_DEPTH } from '../tools/storable';
import { getDocumentStorageIssues } from './storable';
import type { WorkflowDocument } from './types';

/** A value nested exactly `levels` arrays deep. */
function nest(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

const doc = (task: string, value: unknown): WorkflowDocument =>
  ({
    task,
    nodes: [{ id: 'n1', tool: 't', position: { x: 0, y: 0 }, args: { a: value } }],
    edges: [],
    tools: {},
  }) as unknown as WorkflowDocument;

describe('getDocumentStorageIssues', () => {
  it('finds unstorable text anywhere and values nested too deep', () => {
    const issues = getDocumentStorageIssues(doc('nul \u0000 here', nest(MAX_VALUE_DEPTH + 1)));
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['unstorable_text', '/task'],
      ['too_deep', '/nodes/0/args/a' + '/0'.repeat(MAX_VALUE_DEPTH)],
    ]);
  });

  it('leaves the text out when asked (a body checked already), never the nesting of values', () => {
    const issues = getDocumentStorageIssues(doc('nul \u0000 here', nest(MAX_VALUE_DEPTH + 1)), {
      text: false,
    });
    expect(issues.map((i) => i.code)).toEqual(['too_deep']);
    expect(getDocumentStorageIssues(doc('fine', nest(MAX_VALUE_DEPTH)), { text: false })).toEqual([]);
  });
});
