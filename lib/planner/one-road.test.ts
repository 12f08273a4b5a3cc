/**
 * One road from a tool call to the document (docs/design.md §6.3): the same calls give the same workflow
 * whether a model makes them (the planner, its operations replayed as the editor and the CLI's
 * `plan` replay them) or a plan file lists them (the CLI's `build`). Random call sequences with
 * good and bad references (unknown steps and outputs, later steps, the step itself, an input
 * fed twice), type mismatches, embedded references, unknown and system args, and declarations
 * that drifted since the workflow was built; the exports are compared as serialized JSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolDeclaration } from '../tools/types';
import { exportWorkflow } from '../workflow/export';
import { updateCall } from '../workflow/commands';
import { applyPlan, createDocumentFromPlan } from '../workflow/plan';
import type { Plan, WorkflowDocument } from '../workflow/types';
import { call, createScriptedPort, end } from './__fixtures__/scripted-port';
import { runPlanner } from './loop';
import { applyPlanOperations } from './operations';
import type { PlanEvent, PlannerInput } from './types';

const tool = (
  name: string,
  inputs: Record<string, unknown>,
  outputs?: Record<string, unknown>,
  required: string[] = [],
): ToolDeclaration => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object', properties: inputs, required },
  ...(outputs ? { outputSchema: { type: 'object', properties: outputs } } : {}),
});

const relax = tool(
  'relax',
  {
    structure: { type: 'string' },
    steps: { type: 'integer', default: 100 },
    tolerance: { type: 'number' },
    executor: { type: 'object' },
  },
  { relaxed: { type: 'string' }, energy: { type: 'number' }, count: { type: 'integer' } },
  ['structure'],
);
const analyse = tool(
  'analyse',
  { path: { type: 'string' }, threshold: { type: 'number' }, tags: { type: 'array' }, note: {} },
  { report: { type: 'string' }, score: { type: 'number' } },
  ['path'],
);
const fetchTool = tool('fetch', { url: { type: 'string' }, retries: { type: 'integer' } });
const TOOLS = [relax, analyse, fetchTool];

/** `relax` as it is declared now: `tolerance` and the `count` output are gone, `steps` is a
 * string, and a required input appeared. */
const relaxNow = tool(
  'relax',
  { structure: { type: 'string' }, steps: { type: 'string' }, model: { type: 'string' } },
  { relaxed: { type: 'string' }, energy: { type: 'number' } },
  ['structure', 'model'],
);
const TOOLS_NOW = [relaxNow, analyse, fetchTool];

const NAMES = [
  'structure',
  'steps',
  'tolerance',
  'model',
  'path',
  'threshold',
  'tags',
  'note',
  'url',
  'retries',
  'executor',
  'colour',
  '__proto__',
  'constructor',
  '',
];
const OUTPUTS = ['relaxed', 'energy', 'count', 'report', 'score', 'result', 'nope'];

type ValuePick =
  | { kind: 'plain'; value: unknown }
  | { kind: 'ref'; step: number; output: number }
  | { kind: 'embedded'; step: number; output: number };

interface CallPick {
  tool: number;
  args: [number, ValuePick][];
}

const valuePick: fc.Arbitrary<ValuePick> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.string({ maxLength: 6 }),
        fc.integer(),
        fc.double({ noNaN: true }),
        fc.boolean(),
        fc.constant(null),
      )
      .map((value) => ({ kind: 'plain' as const, value })),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({ step: fc.nat(8), output: fc.nat(OUTPUTS.length - 1) })
      .map((r) => ({ kind: 'ref' as const, ...r })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({ step: fc.nat(8), output: fc.nat(OUTPUTS.length - 1) })
      .map((r) => ({ kind: 'embedded' as const, ...r })),
  },
);

const callPick: fc.Arbitrary<CallPick> = fc.record({
  tool: fc.nat(TOOLS.length - 1),
  args: fc.array(fc.tuple(fc.nat(NAMES.length - 1), valuePick), { maxLength: 5 }),
});

/** A follow-up `update_step` call: args to set (references included) and names to unset. */
interface UpdatePick {
  step: number;
  args: [number, ValuePick][];
  unset: number[];
}

const updatePick: fc.Arbitrary<UpdatePick> = fc.record({
  step: fc.nat(8),
  args: fc.array(fc.tuple(fc.nat(NAMES.length - 1), valuePick), { maxLength: 3 }),
  unset: fc.array(fc.nat(NAMES.length - 1), { maxLength: 2 }),
});

/** What an update sends, as the edit tool's arguments and as the call road's StepUpdate. */
function getUpdate(pick: UpdatePick) {
  return { stepId: `step_${pick.step}`, args: getArgs(pick), unset: pick.unset.map((n) => NAMES[n]) };
}

/** The args a call sends; step numbers are 1-based ids `step_<n>` (0 and later ones included). */
function getArgs(pick: { args: [number, ValuePick][] }): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, value] of pick.args) {
    const ref = value.kind === 'plain' ? undefined : `{{step_${value.step}.${OUTPUTS[value.output]}}}`;
    Object.defineProperty(args, NAMES[name], {
      value: value.kind === 'plain' ? value.value : value.kind === 'ref' ? ref : `in ${ref} here`,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return args;
}

/** Calls as a plan file lists them, with the ids the planner will give them. */
function toPlan(task: string, picks: CallPick[], tools: ToolDeclaration[], first: number): Plan {
  return {
    task,
    steps: picks.map((pick, i) => ({
      id: `step_${first + i}`,
      tool: tools[pick.tool].name,
      args: getArgs(pick),
    })),
  };
}

/** The same calls made by a model in one turn; the run's operations replayed on `base`. */
async function planWithModel(
  base: WorkflowDocument,
  picks: CallPick[],
  tools: ToolDeclaration[],
  followUp: boolean,
  updates: UpdatePick[] = [],
): Promise<WorkflowDocument> {
  const port = createScriptedPort([
    picks
      .map((pick, i) => call(tools[pick.tool].name, getArgs(pick), `c${i}`))
      .concat(
        updates.map((pick, i) => {
          const { stepId, args, unset } = getUpdate(pick);
          return call('update_step', { step_id: stepId, args, unset }, `u${i}`);
        }),
      )
      .concat(end()),
  ]);
  const input: PlannerInput = { task: base.task, tools, ...(followUp ? { document: base } : {}) };
  let done: Extract<PlanEvent, { type: 'done' }> | undefined;
  for await (const event of runPlanner(input, port)) if (event.type === 'done') done = event;
  if (!done) throw new Error('no done event');
  const applied = applyPlanOperations(base, done.operations, tools);
  if (!applied.ok) throw new Error(`the run's operations do not apply: ${JSON.stringify(applied.error)}`);
  return applied.value;
}

const serialize = (doc: WorkflowDocument) => JSON.stringify(exportWorkflow(doc, { id: 'wf', name: 'n' }));

describe('one road from a call to the document', () => {
  it('builds the same workflow from the same calls through the planner and the CLI', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(callPick, { maxLength: 8 }), async (picks) => {
        const plan = toPlan('t', picks, TOOLS, 1);
        const built = createDocumentFromPlan(plan, TOOLS);
        expect(built.ok).toBe(true);
        if (!built.ok) return;
        const empty: WorkflowDocument = { task: 't', nodes: [], edges: [], tools: {} };
        const planned = await planWithModel(empty, picks, TOOLS, false);
        expect(serialize(planned)).toBe(serialize(built.value));
        expect(JSON.stringify(planned)).toBe(JSON.stringify(built.value));
      }),
      { numRuns: 150 },
    );
  });

  it('agrees on a follow-up whose tool declaration drifted since the workflow was built', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(callPick, { minLength: 1, maxLength: 4 }),
        fc.array(callPick, { maxLength: 5 }),
        async (before, after) => {
          const first = createDocumentFromPlan(toPlan('t', before, TOOLS, 1), TOOLS);
          if (!first.ok) throw new Error(JSON.stringify(first.error));
          const plan = toPlan('t', after, TOOLS_NOW, before.length + 1);
          const built = applyPlan(first.value, plan, TOOLS_NOW);
          expect(built.ok).toBe(true);
          if (!built.ok) return;
          const planned = await planWithModel(first.value, after, TOOLS_NOW, true);
          expect(JSON.stringify(planned)).toBe(JSON.stringify(built.value));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('agrees on follow-up updates, and no note outlives the value it was about', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(callPick, { minLength: 1, maxLength: 5 }),
        fc.array(updatePick, { minLength: 1, maxLength: 4 }),
        async (picks, updates) => {
          const built = createDocumentFromPlan(toPlan('t', picks, TOOLS, 1), TOOLS);
          if (!built.ok) throw new Error(JSON.stringify(built.error));
          let doc = built.value;
          for (const pick of updates) {
            const update = getUpdate(pick);
            const result = updateCall(doc, update);
            if (!result) continue;
            doc = result.doc;
            // Every note about a name the update gave a value (set, unset, wired, sent as an
            // unknown arg, or a reference that could not be wired) is one this update made.
            const touched = new Set([...Object.keys(update.args), ...update.unset]);
            const node = doc.nodes.find((n) => n.id === update.stepId)!;
            const stale = (node.notes ?? []).filter(
              (n) => n.param !== undefined && touched.has(n.param) && !result.issues.includes(n),
            );
            expect(stale).toEqual([]);
          }
          const empty: WorkflowDocument = { task: 't', nodes: [], edges: [], tools: {} };
          const planned = await planWithModel(empty, picks, TOOLS, false, updates);
          expect(JSON.stringify(planned)).toBe(JSON.stringify(doc));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('meets each kind of bad reference in the examples it draws', () => {
    // The property above is only as good as its inputs: check that they reach every refusal.
    const plan: Plan = {
      steps: [
        { id: 'step_1', tool: 'relax', args: { structure: 's', tolerance: '{{step_9.relaxed}}' } },
        { id: 'step_2', tool: 'analyse', args: { path: '{{step_1.nope}}', threshold: '{{step_1.relaxed}}' } },
        { id: 'step_3', tool: 'analyse', args: { path: '{{step_3.report}}', tags: '{{step_4.score}}' } },
        { id: 'step_4', tool: 'analyse', args: { path: '{{step_1.relaxed}}', note: '{{step_1.energy}}' } },
      ],
    };
    const built = createDocumentFromPlan(plan, TOOLS);
    if (!built.ok) throw new Error(JSON.stringify(built.error));
    const notes = built.value.nodes.flatMap((n) => (n.notes ?? []).map((i) => [n.id, i.param, i.message]));
    expect(notes).toEqual([
      ['step_1', 'tolerance', expect.stringContaining('There is no node "step_9"')],
      ['step_2', 'path', expect.stringContaining('has no output "nope"')],
      ['step_2', 'threshold', expect.stringContaining('is str but input "threshold" takes float')],
      ['step_3', 'path', expect.stringContaining('cannot feed its own input')],
      ['step_3', 'tags', expect.stringContaining('There is no node "step_4"')],
    ]);
    expect(built.value.edges.map((e) => e.id)).toEqual([
      'step_1.relaxed->step_4.path',
      'step_1.energy->step_4.note',
    ]);
  });
});
