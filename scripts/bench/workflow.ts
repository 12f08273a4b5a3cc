/**
 * Workflow core throughput on a 10,000-node plan over real-world schemas: the node parameter
 * builder (target > 200,000 nodes/s), plan → document, export, import, and the builder against a
 * plain reference implementation of the same rules.
 */
import { DEFAULT_SYSTEM_PARAMS } from '../../lib/tools/types';
import { exportWorkflow } from '../../lib/workflow/export';
import { getConnectedInputs } from '../../lib/workflow/graph';
import { importWorkflow } from '../../lib/workflow/import';
import { buildNodeParameters } from '../../lib/workflow/params';
import { createDocumentFromPlan } from '../../lib/workflow/plan';
import type { Plan, WorkflowDocument } from '../../lib/workflow/types';
import { benchTools } from './_declarations';
import { buildReferenceParameters } from './_reference';
import { measureMedianMs, type BenchRow } from './types';

export const title = 'workflow';

const NODES = 10_000;

/** The output a step wires onward, per tool (outputSchema's first property, else `result`). */
const OUTPUT: Record<string, string> = {
  optimize_structure: 'result',
  run_md_simulation: 'final_structure',
  search_files: 'result',
  submit_job: 'job_id',
  fetch: 'result',
  create_entities: 'result',
};

/** Deterministic realistic args: some given, some left to defaults, some wired, a few unknown. */
function getArgs(tool: string, i: number, previous: string | undefined): Record<string, unknown> {
  const ref = previous && i % 4 === 0 ? `{{${previous}}}` : undefined;
  switch (tool) {
    case 'optimize_structure':
      return {
        input_structure: ref ?? `https://example.org/structures/${i}.cif`,
        model_path: 'https://example.org/models/dpa-2.4-7M.pt',
        relax_cell: i % 2 === 0,
      };
    case 'run_md_simulation':
      return {
        structure: ref ?? `s3://bucket/${i}.xyz`,
        ensemble: 'NPT',
        temperature: 300 + (i % 50),
        thermostat: { kind: 'langevin' },
        ...(i % 5 === 1 ? { walltime: '2h' } : {}),
      };
    case 'search_files':
      return { path: ref ?? '/data/runs', pattern: `*-${i % 7}.cif` };
    case 'submit_job':
      return {
        name: `job-${i}`,
        command: ['python', 'run.py', `--index=${i}`],
        queue: i % 50 === 3 ? 'urgent' : 'short',
        env: { OMP_NUM_THREADS: '4' },
        ...(ref ? { tags: ref } : {}),
      };
    case 'fetch':
      return { url: ref ?? `https://example.org/page/${i}`, raw: i % 3 === 0 };
    default:
      return {
        entities: [{ name: `e${i}`, entityType: 'structure', observations: ['relaxed'] }],
        metadata: { run: i },
      };
  }
}

/** A 10,000-step plan cycling through the bench tools, each fourth step wired to the one before. */
export function createBenchPlan(nodes = NODES): Plan {
  const steps: Plan['steps'] = [];
  for (let i = 1; i <= nodes; i++) {
    const tool = benchTools[i % benchTools.length].name;
    const prevTool = benchTools[(i - 1) % benchTools.length].name;
    steps.push({
      id: `step_${i}`,
      tool,
      args: getArgs(tool, i, i > 1 ? `step_${i - 1}.${OUTPUT[prevTool]}` : undefined),
    });
  }
  return { task: 'bench: relax, simulate, search, submit, fetch and remember, ten thousand times', steps };
}

function getBuildDocument(plan: Plan): WorkflowDocument {
  const built = createDocumentFromPlan(plan, benchTools);
  if (!built.ok) throw new Error(`bench plan does not build: ${JSON.stringify(built.error.slice(0, 3))}`);
  return built.value;
}

export async function run(): Promise<BenchRow[]> {
  const plan = createBenchPlan();
  const doc = getBuildDocument(plan);
  const connected = getConnectedInputs(doc.edges);
  const empty: ReadonlySet<string> = new Set();
  const inputs = doc.nodes.map((n) => ({
    decl: doc.tools[n.tool].declaration,
    args: n.args,
    connected: connected.get(n.id) ?? empty,
  }));

  // The comparison means nothing unless both compute the same thing: check every node first.
  for (const { decl, args, connected: c } of inputs) {
    const real = buildNodeParameters(decl, args, { connectedInputs: c });
    const ref = buildReferenceParameters(decl, args, c, DEFAULT_SYSTEM_PARAMS);
    const comparable = {
      input_parameters: real.input_parameters.map(({ name, type, value, origin, required }) => ({
        name,
        type,
        value,
        origin,
        required,
      })),
      missing_tool_args: real.missing_tool_args,
      unknown_args: real.unknown_args,
    };
    // As JSON, in order: the builder's values are records without a prototype (cloneJson), the
    // reference's are object literals, and isDeepStrictEqual compares prototypes too.
    if (JSON.stringify(comparable) !== JSON.stringify(ref))
      throw new Error(`reference and builder disagree on a ${decl.name} node`);
  }

  let sink = 0;
  const builderMs = measureMedianMs(() => {
    for (const { decl, args, connected: c } of inputs)
      sink += buildNodeParameters(decl, args, { connectedInputs: c }).input_parameters.length;
  }, 21);
  const referenceMs = measureMedianMs(() => {
    for (const { decl, args, connected: c } of inputs)
      sink += buildReferenceParameters(decl, args, c, DEFAULT_SYSTEM_PARAMS).input_parameters.length;
  }, 7);
  const planMs = measureMedianMs(() => void getBuildDocument(plan), 7, 1);
  const meta = { id: 'wf_bench', name: 'bench' };
  const exportMs = measureMedianMs(() => void exportWorkflow(doc, meta), 7, 1);
  const text = JSON.stringify(exportWorkflow(doc, meta));
  const importMs = measureMedianMs(
    () => {
      const imported = importWorkflow(JSON.parse(text));
      if (!imported.ok) throw new Error('bench export does not import');
    },
    5,
    1,
  );
  if (sink === 0) throw new Error('nothing was built');

  const perSecond = (ms: number) => (NODES / ms) * 1000;
  const builder = perSecond(builderMs);
  const reference = perSecond(referenceMs);
  const problems = exportWorkflow(doc, meta).nodes.reduce((n, node) => n + node.problems.length, 0);
  return [
    {
      figure: 'buildNodeParameters',
      value: builder,
      unit: 'nodes/s',
      target: 200_000,
      note: `${NODES} nodes, 6 tools, ${doc.edges.length} edges, Ajv checks included (median of 21)`,
    },
    {
      figure: 'reference (node rules, plain TS, no Ajv)',
      value: reference,
      unit: 'nodes/s',
      note: 'same output, checked node by node',
    },
    { figure: 'builder ÷ reference', value: builder / reference, unit: '×' },
    {
      figure: 'createDocumentFromPlan',
      value: perSecond(planMs),
      unit: 'nodes/s',
      note: 'references → edges, unknown args, snapshots + hashes',
    },
    {
      figure: 'exportWorkflow',
      value: perSecond(exportMs),
      unit: 'nodes/s',
      note: `${problems} node problems reported`,
    },
    {
      figure: 'importWorkflow (JSON.parse + schema + integrity)',
      value: perSecond(importMs),
      unit: 'nodes/s',
      note: `${(text.length / 1e6).toFixed(1)} MB export`,
    },
  ];
}
