/**
 * Scoring a planned workflow against a task of the quality set, the way a person checks it:
 *  - nodes: the expected tools, in order (steps are aligned by the longest common subsequence
 *    of tool names, so one extra or missing step does not shift every later one);
 *  - edges: each expected `{{step_N.output}}` wire between aligned steps;
 *  - values: each value the text gives, exactly (JSON-equal) on the aligned step;
 *  - wrong values: every value set on an aligned step that is not the expected one — a different
 *    value, a value where the task expects an edge, or a value where it expects none (its
 *    `unset` list, and any other parameter the text does not give). A wrong value shows as SET, so the person trusts it: worse than a
 *    missing one, which shows as missing.
 * Extra steps and extra edges are counted too.
 */
import { canonicalJson } from '../../lib/tools/canonical-json';
import { parseReference } from '../../lib/workflow/plan';
import type { WorkflowDocument } from '../../lib/workflow/types';
import type { QualityTask } from './set';

export interface TaskScore {
  id: string;
  nodes: { expected: number; found: number; extra: number };
  edges: { expected: number; found: number; extra: number };
  values: { expected: number; right: number; wrong: number };
  /** Values set where the task expects none (counted in `wrongValues`, not in `values`). */
  unexpected: number;
  /** Parameters of the `unset` lists (on aligned steps) that stayed unset and unwired. */
  unset: { expected: number; kept: number };
  /** Wrong values in all: `values.wrong + unexpected`. */
  wrongValues: number;
  /** What went wrong, one short phrase each (empty when the graph is as expected). */
  problems: string[];
}

interface ActualStep {
  id: string;
  tool: string;
  /** Values set on the node (inputs an edge feeds left out). */
  values: Record<string, unknown>;
}

const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/** Score `doc` (what a planner built for `task.task`) against the task's expected steps. */
export function scoreTask(task: QualityTask, doc: WorkflowDocument): TaskScore {
  const wiredInputs = new Set(doc.edges.map((e) => `${e.target}\u0000${e.targetInput}`));
  const actual: ActualStep[] = doc.nodes.map((node) => ({
    id: node.id,
    tool: node.tool,
    values: Object.fromEntries(
      Object.entries(node.args).filter(([name]) => !wiredInputs.has(`${node.id}\u0000${name}`)),
    ),
  }));
  const expected = task.steps;
  const match = alignSteps(
    expected.map((s) => s.tool),
    actual.map((s) => s.tool),
  );
  const problems: string[] = [];
  const label = (i: number) => `step_${i + 1} ${expected[i].tool}`;

  // Nodes.
  const found = match.filter((m) => m !== -1).length;
  expected.forEach((step, i) => {
    if (match[i] === -1) problems.push(`missing node ${label(i)}`);
  });
  const matchedActual = new Set(match.filter((m) => m !== -1));
  actual.forEach((step, j) => {
    if (!matchedActual.has(j)) problems.push(`extra node ${step.id} ${step.tool}`);
  });

  // Edges.
  const expectedEdges = expected.flatMap((step, i) =>
    Object.entries(step.args).flatMap(([input, value]) => {
      const ref = parseReference(value);
      return ref
        ? [{ source: Number(ref.step.slice('step_'.length)) - 1, output: ref.output, target: i, input }]
        : [];
    }),
  );
  const idOf = (i: number) => (match[i] === -1 ? undefined : actual[match[i]].id);
  const foundEdges = new Set<number>();
  expectedEdges.forEach((edge) => {
    const source = idOf(edge.source);
    const target = idOf(edge.target);
    const hit = doc.edges.findIndex(
      (e) =>
        e.source === source &&
        e.target === target &&
        e.sourceOutput === edge.output &&
        e.targetInput === edge.input,
    );
    if (hit === -1)
      problems.push(
        `missing edge step_${edge.source + 1}.${edge.output} → step_${edge.target + 1}.${edge.input}`,
      );
    else foundEdges.add(hit);
  });
  doc.edges.forEach((e, k) => {
    if (!foundEdges.has(k))
      problems.push(`extra edge ${e.source}.${e.sourceOutput} → ${e.target}.${e.targetInput}`);
  });

  // Values.
  let expectedValues = 0;
  let right = 0;
  let wrong = 0;
  let unexpected = 0;
  let unsetExpected = 0;
  let unsetKept = 0;
  expected.forEach((step, i) => {
    const got = match[i] === -1 ? undefined : actual[match[i]];
    for (const [name, value] of Object.entries(step.args)) {
      if (parseReference(value)) continue;
      expectedValues++;
      if (!got || !Object.hasOwn(got.values, name)) {
        problems.push(`missing value ${label(i)}.${name} = ${JSON.stringify(value)}`);
      } else if (same(got.values[name], value)) {
        right++;
      } else {
        wrong++;
        problems.push(
          `WRONG value ${label(i)}.${name} = ${JSON.stringify(got.values[name])} (expected ${JSON.stringify(value)})`,
        );
      }
    }
    if (!got) return;
    for (const [name, value] of Object.entries(got.values)) {
      const wanted = step.args[name];
      if (Object.hasOwn(step.args, name) && !parseReference(wanted)) continue;
      // A value where the task expects none, or where it expects an edge.
      unexpected++;
      problems.push(
        `WRONG value ${label(i)}.${name} = ${JSON.stringify(value)} (${wanted === undefined ? 'the text gives none' : `expected the edge ${String(wanted)}`})`,
      );
    }
    for (const name of step.unset) {
      unsetExpected++;
      const wired = wiredInputs.has(`${got.id}\u0000${name}`);
      if (!Object.hasOwn(got.values, name) && !wired) unsetKept++;
    }
  });

  return {
    id: task.id,
    nodes: { expected: expected.length, found, extra: actual.length - found },
    edges: {
      expected: expectedEdges.length,
      found: foundEdges.size,
      extra: doc.edges.length - foundEdges.size,
    },
    values: { expected: expectedValues, right, wrong },
    unexpected,
    unset: { expected: unsetExpected, kept: unsetKept },
    wrongValues: wrong + unexpected,
    problems,
  };
}

/**
 * For each expected step, the index of the actual step it matches (-1: none): the longest common
 * subsequence of the two tool-name lists, earliest matches first.
 */
export function alignSteps(expected: readonly string[], actual: readonly string[]): number[] {
  const n = expected.length;
  const m = actual.length;
  // lcs[i][j]: LCS length of expected[i..] and actual[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = expected[i] === actual[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const match = new Array<number>(n).fill(-1);
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (expected[i] === actual[j]) {
      match[i++] = j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) i++;
    else j++;
  }
  return match;
}

/** The figures over many tasks (the bench prints them; the unit test asserts the targets). */
export interface SetScore {
  tasks: number;
  perfect: number;
  nodes: { expected: number; found: number; extra: number };
  edges: { expected: number; found: number; extra: number };
  values: { expected: number; right: number };
  wrongValues: number;
  unset: { expected: number; kept: number };
}

export function sumScores(scores: readonly TaskScore[]): SetScore {
  const total: SetScore = {
    tasks: scores.length,
    perfect: 0,
    nodes: { expected: 0, found: 0, extra: 0 },
    edges: { expected: 0, found: 0, extra: 0 },
    values: { expected: 0, right: 0 },
    wrongValues: 0,
    unset: { expected: 0, kept: 0 },
  };
  for (const s of scores) {
    if (s.problems.length === 0) total.perfect++;
    total.nodes.expected += s.nodes.expected;
    total.nodes.found += s.nodes.found;
    total.nodes.extra += s.nodes.extra;
    total.edges.expected += s.edges.expected;
    total.edges.found += s.edges.found;
    total.edges.extra += s.edges.extra;
    total.values.expected += s.values.expected;
    total.values.right += s.values.right;
    total.wrongValues += s.wrongValues;
    total.unset.expected += s.unset.expected;
    total.unset.kept += s.unset.kept;
  }
  return total;
}

/** A share as a percentage (100 when there is nothing to find). */
export function percent(part: number, whole: number): number {
  return whole === 0 ? 100 : (100 * part) / whole;
}

/** The targets of the public set: ≥ 95 % of nodes, edges and values, and no wrong value. */
export const TARGETS = { nodes: 95, edges: 95, values: 95, wrongValues: 0 } as const;
