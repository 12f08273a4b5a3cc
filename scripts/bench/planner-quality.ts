/**
 * `npm run bench -- planner-quality`: the offline planner on the public planning-quality set
 * (tests/planner-quality/: tasks in English and Chinese over the built-in toolkits and the
 * captured tool lists of real MCP servers). Prints one line per task — ✓ when the graph is as
 * expected, else what is missing or wrong — then, for the public set and for each recorded round
 * (`held-out/`, `rounds/`) separately, the rates: expected nodes (tool choice) found,
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

/** One group of tasks scored together: the public set, or one recorded round. */
interface TaskGroup {
  name: string;
  tasks: ReturnType<typeof loadQualitySet>;
}

/**
 * The public set (`tasks/`) and each recorded round (each file of `held-out/` and `rounds/`) as
 * groups of their own: a round's figures are its own, never blended with the public set's.
 * `PLANNER_QUALITY_FILES=round-a npm run bench -- planner-quality` scores only the named files
 * (comma-separated, from `tasks/`, `held-out/` or `rounds/`), each as its own group.
 */
function selectGroups(): TaskGroup[] {
  const wanted = (process.env.PLANNER_QUALITY_FILES ?? '')
    .split(',')
    .map((f) => f.trim().replace(/\.json$/, ''))
    .filter((f) => f !== '');
  const rounds = [...loadQualitySet('held-out'), ...loadQualitySet('rounds')];
  const byFile = (tasks: ReturnType<typeof loadQualitySet>) =>
    [...new Set(tasks.map((t) => t.file))].map((file) => ({
      name: file.replace(/^.*\//, '').replace(/\.json$/, ''),
      tasks: tasks.filter((t) => t.file === file),
    }));
  if (wanted.length === 0) return [{ name: 'public', tasks: loadQualitySet() }, ...byFile(rounds)];
  const all = byFile([...loadQualitySet(), ...rounds]);
  const unknown = wanted.filter((f) => !all.some((g) => g.name === f));
  if (unknown.length > 0)
    throw new Error(`PLANNER_QUALITY_FILES: no tasks/, held-out/ or rounds/ file ${unknown.join(', ')}.json`);
  return all.filter((g) => wanted.includes(g.name));
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const group of selectGroups()) rows.push(...(await runGroup(group)));
  return rows;
}

async function runGroup({ name, tasks }: TaskGroup): Promise<BenchRow[]> {
  const scores: TaskScore[] = [];
  const started = performance.now();
  process.stdout.write(`\n── ${name} ──\n`);
  for (const task of tasks) {
    const { score } = await planTask(task);
    scores.push(score);
    process.stdout.write(formatLine(task.id, task.lang, score, task.task) + '\n');
  }
  const ms = (performance.now() - started) / tasks.length;
  const total = sumScores(scores);
  const zh = tasks.filter((t) => t.lang === 'zh').length;
  process.stdout.write(
    `\n${name}: ${total.tasks} tasks (${total.tasks - zh} English, ${zh} Chinese), ${total.perfect} planned exactly as expected; ` +
      `${total.nodes.extra} extra nodes, ${total.edges.extra} extra edges; ` +
      `${total.unset.kept}/${total.unset.expected} must-not-set parameters left unset\n`,
  );
  return [
    {
      figure: `${name}: expected nodes found (tool choice)`,
      value: percent(total.nodes.found, total.nodes.expected),
      unit: '%',
      target: TARGETS.nodes,
      note: `${total.nodes.found}/${total.nodes.expected}; ${total.nodes.extra} extra`,
    },
    {
      figure: `${name}: expected edges found`,
      value: percent(total.edges.found, total.edges.expected),
      unit: '%',
      target: TARGETS.edges,
      note: `${total.edges.found}/${total.edges.expected}; ${total.edges.extra} extra`,
    },
    {
      figure: `${name}: expected values right`,
      value: percent(total.values.right, total.values.expected),
      unit: '%',
      target: TARGETS.values,
      note: `${total.values.right}/${total.values.expected}`,
    },
    {
      figure: `${name}: wrong values (set, not what the text says)`,
      value: total.wrongValues,
      unit: 'values',
      target: TARGETS.wrongValues,
      better: 'lower',
      note: `${total.unset.kept}/${total.unset.expected} must-not-set parameters left unset`,
    },
    {
      figure: `${name}: tasks planned exactly as expected`,
      value: percent(total.perfect, total.tasks),
      unit: '%',
      note: `${total.perfect}/${total.tasks}`,
    },
    {
      figure: `${name}: planning time per task, mean`,
      value: ms,
      unit: 'ms',
      note: 'offline planner through the planning loop, document built',
    },
  ];
}
