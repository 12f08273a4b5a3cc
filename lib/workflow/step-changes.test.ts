import { describe, expect, it } from 'vitest';
import { formatShortValue, getStepChanges, getStepTitle } from './step-changes';
import { asEdgeId, asNodeId, type WorkflowDocument, type WorkflowEdge, type WorkflowNode } from './types';

const node = (
  id: string,
  tool: string,
  args: Record<string, unknown> = {},
  label?: string,
): WorkflowNode => ({
  id: asNodeId(id),
  tool,
  position: { x: 0, y: 0 },
  args,
  ...(label ? { label } : {}),
});
const edge = (source: string, target: string, targetInput: string): WorkflowEdge => ({
  id: asEdgeId(`${source}-${target}-${targetInput}`),
  source: asNodeId(source),
  sourceOutput: 'result',
  target: asNodeId(target),
  targetInput,
});
const snapshot = (name: string, title: string, hash = 'h1') => ({
  declaration: { name, title, inputSchema: { type: 'object', properties: {} } },
  hash,
});
const doc = (nodes: WorkflowNode[], edges: WorkflowEdge[] = [], hash = 'h1'): WorkflowDocument =>
  ({
    task: 't',
    nodes,
    edges,
    tools: {
      fetch_page: snapshot('fetch_page', 'Fetch a page · 获取网页', hash),
      summarize: snapshot('summarize', 'Summarize'),
    },
  }) as unknown as WorkflowDocument;

const english = (title: string) => title.split(' · ')[0];

describe('getStepTitle', () => {
  it("is the step's label, else its tool's title as shown, else the tool's name", () => {
    const d = doc([]);
    expect(getStepTitle(d, node('a', 'fetch_page', {}, 'Get the news'))).toBe('Get the news');
    expect(getStepTitle(d, node('a', 'fetch_page'), english)).toBe('Fetch a page');
    expect(getStepTitle(d, node('a', 'unknown_tool'))).toBe('unknown_tool');
  });
});

describe('formatShortValue', () => {
  it('shows JSON, cut with an ellipsis past the bound, and null for a value not set', () => {
    expect(formatShortValue('https://e.org')).toBe('"https://e.org"');
    expect(formatShortValue(3)).toBe('3');
    expect(formatShortValue({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(formatShortValue('x'.repeat(100), 12)).toBe('"xxxxxxxxxx…');
    expect(formatShortValue(undefined)).toBeNull();
  });
});

describe('getStepChanges', () => {
  const older = doc(
    [node('s1', 'fetch_page', { url: 'https://a.org', depth: 1, lang: 'en' }), node('s2', 'summarize')],
    [],
  );

  it('lists changed parameters from the older value to the newer, by step title, in step order', () => {
    const newer = doc(
      [
        node('s1', 'fetch_page', { url: 'https://b.org', depth: 1, retries: 2 }),
        node('s2', 'summarize', {}, 'Short summary'),
        node('s3', 'summarize'),
      ],
      [edge('s1', 's2', 'text')],
    );
    const changes = getStepChanges(older, newer, { toolTitle: english });
    // Ordered entries compared as JSON: the order is part of what the dialog shows.
    expect(JSON.stringify(changes)).toBe(
      JSON.stringify([
        {
          node: 's1',
          title: 'Fetch a page',
          change: 'changed',
          params: [
            { param: 'url', before: '"https://a.org"', after: '"https://b.org"' },
            { param: 'retries', before: null, after: '2' },
            { param: 'lang', before: '"en"', after: null },
          ],
          wiring: [],
          moved: false,
          toolUpdated: false,
        },
        {
          node: 's2',
          title: 'Short summary',
          change: 'changed',
          renamedFrom: 'Summarize',
          params: [],
          wiring: [{ input: 'text', from: 'Fetch a page · result', change: 'wired' }],
          moved: false,
          toolUpdated: false,
        },
        {
          node: 's3',
          title: 'Summarize',
          change: 'added',
          params: [],
          wiring: [],
          moved: false,
          toolUpdated: false,
        },
      ]),
    );
  });

  it('lists removed steps last, unwired inputs, moves and updated declarations', () => {
    const wired = doc(
      [node('s1', 'fetch_page', { url: 'https://a.org' }), node('s2', 'summarize')],
      [edge('s1', 's2', 'text')],
    );
    const moved = { ...node('s2', 'summarize'), position: { x: 40, y: 0 } };
    const newer = doc([moved], [], 'h2');
    const changes = getStepChanges(wired, newer);
    expect(changes.map((c) => [c.node, c.change])).toEqual([
      ['s2', 'changed'],
      ['s1', 'removed'],
    ]);
    expect(changes[0].moved).toBe(true);
    expect(changes[0].wiring).toEqual([
      { input: 'text', from: 'Fetch a page · 获取网页 · result', change: 'unwired' },
    ]);
    expect(changes[1].title).toBe('Fetch a page · 获取网页');

    const refreshed = doc([node('s1', 'fetch_page', { url: 'https://a.org' })], [], 'h2');
    const [updated] = getStepChanges(doc([node('s1', 'fetch_page', { url: 'https://a.org' })]), refreshed);
    expect(updated).toMatchObject({ node: 's1', change: 'changed', toolUpdated: true, params: [] });
  });

  it('leaves out steps that did not change, and finds nothing between equal documents', () => {
    expect(getStepChanges(older, structuredClone(older))).toEqual([]);
    const oneParam = doc([
      node('s1', 'fetch_page', { url: 'https://a.org', depth: 2, lang: 'en' }),
      node('s2', 'summarize'),
    ]);
    expect(getStepChanges(older, oneParam).map((c) => c.node)).toEqual(['s1']);
  });

  it('treats values equal as JSON as unchanged, whatever their key order', () => {
    const a = doc([node('s1', 'fetch_page', { opts: { a: 1, b: 2 } })]);
    const b = doc([node('s1', 'fetch_page', { opts: { b: 2, a: 1 } })]);
    expect(getStepChanges(a, b)).toEqual([]);
  });
});
