/**
 * The offline planner on the public planning-quality set must meet its targets: ≥ 95 % of
 * expected nodes, edges and values, and not one wrong value. `npm run bench -- planner-quality`
 * prints the same figures task by task.
 */
import { describe, expect, it } from 'vitest';
import { planTask } from './run';
import { percent, sumScores, TARGETS, type TaskScore } from './score';
import { loadQualitySet } from './set';

const tasks = loadQualitySet();

describe('the offline planner on the planning-quality set', () => {
  let scores: TaskScore[] = [];

  it('plans every task', async () => {
    scores = [];
    for (const task of tasks) scores.push((await planTask(task)).score);
    expect(scores).toHaveLength(tasks.length);
  }, 120_000);

  it('finds at least 95 % of the expected nodes, edges and values', () => {
    const total = sumScores(scores);
    expect(percent(total.nodes.found, total.nodes.expected)).toBeGreaterThanOrEqual(TARGETS.nodes);
    expect(percent(total.edges.found, total.edges.expected)).toBeGreaterThanOrEqual(TARGETS.edges);
    expect(percent(total.values.right, total.values.expected)).toBeGreaterThanOrEqual(TARGETS.values);
  });

  it('sets no wrong value, and leaves every must-not-set parameter unset', () => {
    const wrong = scores.flatMap((s) =>
      s.problems.filter((p) => p.startsWith('WRONG')).map((p) => `${s.id}: ${p}`),
    );
    expect(wrong).toEqual([]);
    const total = sumScores(scores);
    expect(total.unset.kept).toBe(total.unset.expected);
  });
});

describe('the offline planner on the held-out round (held-out/)', () => {
  it('sets no wrong value there either, and leaves every must-not-set parameter unset', async () => {
    const scores: TaskScore[] = [];
    for (const task of loadQualitySet('held-out')) scores.push((await planTask(task)).score);
    expect(scores.length).toBeGreaterThanOrEqual(30);
    const wrong = scores.flatMap((s) =>
      s.problems.filter((p) => p.startsWith('WRONG')).map((p) => `${s.id}: ${p}`),
    );
    expect(wrong).toEqual([]);
    const total = sumScores(scores);
    expect(total.unset.kept).toBe(total.unset.expected);
  }, 60_000);
});
