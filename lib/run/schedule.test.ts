import { describe, expect, it } from 'vitest';
import { createSchedulePlan, getSkippedNodes, getStartableNodes, type ScheduleNode } from './schedule';
import type { NodeRunStatus } from './types';

const node = (id: string, stepIndex: number, sources: string[] = [], readOnly = true): ScheduleNode => ({
  id,
  stepIndex,
  sources,
  readOnly,
});
const statuses = (entries: Record<string, NodeRunStatus>) => new Map(Object.entries(entries));

describe('createSchedulePlan', () => {
  it('orders by edges first, then by step index', () => {
    const plan = createSchedulePlan([node('c', 1, ['b']), node('b', 2), node('a', 3)]);
    expect(plan.order).toEqual(['b', 'c', 'a']);
    expect(plan.cyclic).toEqual([]);
  });

  it('leaves nodes on a loop, and those it feeds, out of the order', () => {
    const plan = createSchedulePlan([
      node('a', 1, ['b']),
      node('b', 2, ['a']),
      node('c', 3, ['b']),
      node('d', 4),
    ]);
    expect(plan.order).toEqual(['d']);
    expect(plan.cyclic).toEqual(['a', 'b', 'c']);
  });
});

describe('getStartableNodes', () => {
  it('starts independent read-only branches side by side, at most `concurrency` at once', () => {
    const plan = createSchedulePlan([1, 2, 3, 4, 5, 6].map((i) => node(`n${i}`, i)));
    expect(getStartableNodes(plan, new Map(), 4)).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(getStartableNodes(plan, statuses({ n1: 'running', n2: 'succeeded' }), 4)).toEqual([
      'n3',
      'n4',
      'n5',
    ]);
  });

  it('waits for every node feeding a node to succeed', () => {
    const plan = createSchedulePlan([node('a', 1), node('b', 2), node('c', 3, ['a', 'b'])]);
    expect(getStartableNodes(plan, statuses({ a: 'succeeded', b: 'running' }), 4)).toEqual([]);
    expect(getStartableNodes(plan, statuses({ a: 'succeeded', b: 'succeeded' }), 4)).toEqual(['c']);
  });

  it('keeps a tool that may change something in step order with everything around it', () => {
    const plan = createSchedulePlan([
      node('w1', 1, [], false),
      node('r', 2),
      node('w2', 3, [], false),
      node('r2', 4),
    ]);
    expect(getStartableNodes(plan, new Map(), 4)).toEqual(['w1']);
    expect(getStartableNodes(plan, statuses({ w1: 'succeeded' }), 4)).toEqual(['r']);
    expect(getStartableNodes(plan, statuses({ w1: 'failed', r: 'succeeded' }), 4)).toEqual(['w2']);
    expect(getStartableNodes(plan, statuses({ w1: 'succeeded', r: 'succeeded', w2: 'running' }), 4)).toEqual(
      [],
    );
  });

  it('lets reads after the last write run together once it ended', () => {
    const plan = createSchedulePlan([node('w', 1, [], false), node('r1', 2), node('r2', 3)]);
    expect(getStartableNodes(plan, statuses({ w: 'succeeded' }), 4)).toEqual(['r1', 'r2']);
  });

  it('never deadlocks when an edge runs against step order', () => {
    // step 1 is fed by step 3: the order puts 3 first, so the write at step 1 can still start.
    const plan = createSchedulePlan([node('w', 1, ['r'], false), node('x', 2), node('r', 3)]);
    expect(plan.order).toEqual(['x', 'r', 'w']);
    expect(getStartableNodes(plan, new Map(), 4)).toEqual(['x', 'r']);
    expect(getStartableNodes(plan, statuses({ x: 'succeeded', r: 'succeeded' }), 4)).toEqual(['w']);
  });
});

describe('getSkippedNodes', () => {
  it('skips the dependants of a failed node, transitively, and no independent branch', () => {
    const plan = createSchedulePlan([node('a', 1), node('b', 2, ['a']), node('c', 3, ['b']), node('d', 4)]);
    expect(getSkippedNodes(plan, statuses({ a: 'failed' }))).toEqual([
      { id: 'b', because: 'a' },
      { id: 'c', because: 'b' },
    ]);
  });

  it('skips nothing while the source is still running or succeeded', () => {
    const plan = createSchedulePlan([node('a', 1), node('b', 2, ['a'])]);
    expect(getSkippedNodes(plan, statuses({ a: 'running' }))).toEqual([]);
    expect(getSkippedNodes(plan, statuses({ a: 'succeeded' }))).toEqual([]);
  });
});
