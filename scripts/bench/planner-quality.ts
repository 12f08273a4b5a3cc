/**
 * `npm run bench -- planner-quality`: the offline planner on the public planning-quality set
 * (tests/planner-quality/: tasks in English and Chinese over the built-in toolkits and the
 * captured tool lists of real MCP servers). Prints one line per task — ✓ when the graph is as
 * expected, else what is missing or wrong — then the rates: expected nodes (tool choice) found,
 * expected edges found, expected values right, and wrong values (set, but not what the text
 * says: a person trusts a value shown as SET, so it is worse than a missing one).
 */
import { planTask } from '../../tests/planner-quality/run';
import { percent, sumScores, TARGETS, type TaskScore } from '../../tests/planner-quality/score';
import { loadQualitySet } from '../../tests/planner-quality/set';
import type { BenchRow } from './types';

export const title = 'planner-quality';

function formatLine(id: string, lang: string, score: TaskScore, task: string): string {
  const mark = score.problems.length === 0 ? '✓' : score.wrongValues > 0 ? '✗' : '·';
  const figures =
    `nodes ${score.nodes.found}/${score.nodes.expected}` +
    ` edges ${score.edges.found}/${score.edges.expected}` +
    ` values ${score.values.right}/${score.values.expected}` +
    ` wrong ${score.wrongValues}`;
  const text = task.length > 90 ? `${task.slice(0, 89)}…` : task;
  const details = score.problems.map((p) => `\n      ${p}`).join('');
  return `${mark} ${id.padEnd(15)} ${lang} ${figures.padEnd(44)} ${text}${details}`;
}

/**
 * `PLANNER_QUALITY_FILES=fourth-round npm run bench -- planner-quality` scores only the tasks of
 * `tasks/fourth-round.json`, `held-out/fourth-round.json` or `rounds/fourth-round.json`
 * (comma-separated names: one round's own figures). Without it, the whole set in `tasks/`.
 */
function selectTasks(): ReturnType<typeof loadQualitySet> {
  const wanted = (process.env.PLANNER_QUALITY_FILES ?? '')
    .split(',')
    .map((f) => f.trim().replace(/\.json$/, ''))
    .filter((f) => f !== '');
  if (wanted.length === 0) return loadQualitySet();
  const all = [...loadQualitySet(), ...loadQualitySet('held-out'), ...loadQualitySet('rounds')];
  const unknown = wanted.filter((f) => !all.some((t) => t.file.endsWith(`/${f}.json`)));
  if (unknown.length > 0)
    throw new Error(`PLANNER_QUALITY_FILES: no tasks/, held-out/ or rounds/ file ${unknown.join(', ')}.json`);
  return all.filter((t) => wanted.some((f) => t.file.endsWith(`/${f}.json`)));
}

export async function run(): Promise<BenchRow[]> {
  const tasks = selectTasks();
  const scores: TaskScore[] = [];
  const started = performance.now();
  for (const task of tasks) {
    const { score } = await planTask(task);
    scores.push(score);
    process.stdout.write(formatLine(task.id, task.lang, score, task.task) + '\n');
  }
  const ms = (performance.now() - started) / tasks.length;
  const total = sumScores(scores);
  const zh = tasks.filter((t) => t.lang === 'zh').length;
  process.stdout.write(
    `\n${total.tasks} tasks (${total.tasks - zh} English, ${zh} Chinese), ${total.perfect} planned exactly as expected; ` +
      `${total.nodes.extra} extra nodes, ${total.edges.extra} extra edges; ` +
      `${total.unset.kept}/${total.unset.expected} must-not-set parameters left unset\n\n`,
  );
  return [
    {
      figure: 'expected nodes found (tool choice)',
      value: percent(total.nodes.found, total.nodes.expected),
      unit: '%',
      target: TARGETS.nodes,
      note: `${total.nodes.found}/${total.nodes.expected}; ${total.nodes.extra} extra`,
    },
    {
      figure: 'expected edges found',
      value: percent(total.edges.found, total.edges.expected),
      unit: '%',
      target: TARGETS.edges,
      note: `${total.edges.found}/${total.edges.expected}; ${total.edges.extra} extra`,
    },
    {
      figure: 'expected values right',
      value: percent(total.values.right, total.values.expected),
      unit: '%',
      target: TARGETS.values,
      note: `${total.values.right}/${total.values.expected}`,
    },
    {
      figure: 'wrong values (set, not what the text says)',
      value: total.wrongValues,
      unit: 'values',
      target: TARGETS.wrongValues,
      better: 'lower',
      note: `${total.unset.kept}/${total.unset.expected} must-not-set parameters left unset`,
    },
    {
      figure: 'tasks planned exactly as expected',
      value: percent(total.perfect, total.tasks),
      unit: '%',
      note: `${total.perfect}/${total.tasks}`,
    },
    {
      figure: 'planning time per task, mean',
      value: ms,
      unit: 'ms',
      note: 'offline planner through the planning loop, document built',
    },
  ];
}
