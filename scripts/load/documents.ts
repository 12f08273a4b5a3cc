/**
 * Workflow documents of realistic size for the load test, made the way the editor makes them:
 * nodes added with `addNode` from the built-in toolkits' declarations, wired with `connect`
 * (type-checked, acyclic), args set with `setArg`; and the edits an autosave would send (a drag,
 * an arg typed in, a node added or removed, a node renamed).
 */
import { BUILTIN_TOOLKITS, type BuiltinToolkit } from '../../lib/toolkits/builtin';
import { DEFAULT_SYSTEM_PARAMS, type ToolDeclaration } from '../../lib/tools/types';
import { addNode, connect, moveNodes, removeNodes, renameNode, setArg } from '../../lib/workflow/commands';
import { getInputPorts, getOutputPorts } from '../../lib/workflow/graph';
import { getParamPlan } from '../../lib/workflow/params';
import { getGridPosition } from '../../lib/workflow/references';
import { asNodeId, type ParamType, type WorkflowDocument } from '../../lib/workflow/types';
import type { Random } from './random';

export const MIN_NODES = 10;
export const MAX_NODES = 200;

// Keyed by every built-in toolkit, so adding one without tasks fails to type-check.
const TASKS: Record<BuiltinToolkit['key'], string[]> = {
  materials: [
    'Relax the Cu bulk structure with the DPA model, then compute its phonon band structure',
    '构建 NaCl 晶体结构，优化晶胞后计算弹性常数',
    'Run NVT molecular dynamics on the relaxed Si supercell at 300 K and 600 K',
  ],
  spreadsheet: [
    'Read the Q3 sales workbook, total each region and chart the totals',
    'Create a workbook of experiment results with a formatted summary sheet',
  ],
  git: [
    'Show the status of the repository, stage the changed files and commit them',
    'Create a release branch, diff it against main and log the last 20 commits',
  ],
  memory: ['Remember the people and projects from the meeting notes and link each person to their project'],
  files: ['List the files in the data folder, read the report and write a short summary next to it'],
};

/** A node count between MIN_NODES and MAX_NODES, skewed towards small graphs (log-uniform). */
export function pickNodeCount(random: Random): number {
  const log = Math.log(MIN_NODES) + random.next() * (Math.log(MAX_NODES) - Math.log(MIN_NODES));
  return Math.min(MAX_NODES, Math.max(MIN_NODES, Math.round(Math.exp(log))));
}

function schemaOf(decl: ToolDeclaration, name: string): Record<string, unknown> {
  const props = (decl.inputSchema as { properties?: Record<string, unknown> }).properties;
  const schema = props?.[name];
  return schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : {};
}

/** A plausible value a person or model would type for a parameter of this type. */
export function sampleValue(
  random: Random,
  decl: ToolDeclaration,
  name: string,
  type: ParamType,
  n: number,
): unknown {
  const schema = schemaOf(decl, name);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return random.pick(schema.enum);
  switch (type) {
    case 'str':
      return random.pick([
        `/data/run_${n}/${name}.cif`,
        `results/${name}_${n}.xlsx`,
        `Sheet${1 + random.int(4)}`,
        `${name} for step ${n}`,
        `https://files.example.org/${n}/${name}`,
      ]);
    case 'int':
      return random.between(1, 500);
    case 'float':
      return Math.round(random.next() * 10_000) / 100;
    case 'bool':
      return random.chance(0.5);
    case 'list':
      return [random.between(1, 4), random.between(1, 4), random.between(1, 4)];
    case 'dict':
      return { note: `${name} ${n}`, retries: random.int(3) };
    default:
      return `${name}-${n}`;
  }
}

function sampleArgs(random: Random, decl: ToolDeclaration, n: number): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const entry of getParamPlan(decl, DEFAULT_SYSTEM_PARAMS)) {
    // Required inputs are usually filled; optional ones left to their defaults most of the time.
    if (random.chance(entry.required ? 0.8 : 0.25))
      args[entry.name] = sampleValue(random, decl, entry.name, entry.type, n);
  }
  return args;
}

/** Wires one output of a recent node into a free, type-compatible input of `targetId`. */
function wireFromRecent(random: Random, doc: WorkflowDocument, targetId: string): WorkflowDocument {
  const targetIndex = doc.nodes.findIndex((n) => n.id === targetId);
  if (targetIndex <= 0) return doc;
  const target = doc.nodes[targetIndex];
  for (let attempt = 0; attempt < 3; attempt++) {
    const source = doc.nodes[targetIndex - 1 - random.int(Math.min(targetIndex, 8))];
    const outputs = getOutputPorts(doc, source);
    const inputs = getInputPorts(doc, target);
    if (outputs.length === 0 || inputs.length === 0) continue;
    const out = random.pick(outputs);
    const start = random.int(inputs.length);
    for (let k = 0; k < inputs.length; k++) {
      const input = inputs[(start + k) % inputs.length];
      const wired = connect(doc, {
        source: source.id,
        sourceOutput: out.name,
        target: target.id,
        targetInput: input.name,
      });
      if (wired.ok) return wired.value;
    }
  }
  return doc;
}

/** The tools a workflow draws from: one built-in toolkit, sometimes two. */
function pickTools(random: Random): { key: BuiltinToolkit['key']; tools: readonly ToolDeclaration[] } {
  const first = random.pick(BUILTIN_TOOLKITS);
  if (!random.chance(0.2)) return { key: first.key, tools: first.tools };
  const second = random.pick(BUILTIN_TOOLKITS);
  return { key: first.key, tools: second === first ? first.tools : [...first.tools, ...second.tools] };
}

/** A workflow of `nodeCount` nodes built with the editor's commands from the built-in toolkits. */
export function buildDocument(random: Random, nodeCount: number): WorkflowDocument {
  const { key, tools } = pickTools(random);
  let doc: WorkflowDocument = { task: random.pick(TASKS[key]), nodes: [], edges: [], tools: {} };
  for (let i = 0; i < nodeCount; i++) {
    const decl = random.pick(tools);
    const id = asNodeId(`step_${i + 1}`);
    doc = addNode(doc, decl, getGridPosition(i, 6), sampleArgs(random, decl, i + 1), id);
    // About 1.2 edges per node, as planned workflows have.
    if (i > 0 && random.chance(0.85)) doc = wireFromRecent(random, doc, id);
    if (i > 1 && random.chance(0.35)) doc = wireFromRecent(random, doc, id);
  }
  return doc;
}

export type EditKind = 'move' | 'arg' | 'add' | 'remove' | 'rename';

const EDIT_WEIGHTS: Record<EditKind, number> = { move: 50, arg: 30, add: 8, remove: 6, rename: 6 };

/** One editor change to `doc`, as an autosave would send it; never returns `doc` unchanged. */
export function editDocument(
  random: Random,
  doc: WorkflowDocument,
): { doc: WorkflowDocument; kind: EditKind } {
  let kind = random.weighted(EDIT_WEIGHTS);
  if (kind === 'add' && doc.nodes.length >= MAX_NODES) kind = 'remove';
  if (kind === 'remove' && doc.nodes.length <= MIN_NODES) kind = 'move';
  if (doc.nodes.length === 0) kind = 'add';
  let next = doc;
  if (kind === 'arg') {
    const node = random.pick(doc.nodes);
    const decl = doc.tools[node.tool]?.declaration;
    const entries = decl ? getParamPlan(decl, doc.systemParams ?? DEFAULT_SYSTEM_PARAMS) : [];
    if (decl && entries.length > 0) {
      const entry = random.pick(entries);
      next = setArg(
        doc,
        node.id,
        entry.name,
        sampleValue(random, decl, entry.name, entry.type, random.int(1000)),
      );
    }
  } else if (kind === 'add') {
    const used = Object.values(doc.tools).map((t) => t.declaration);
    const decl = random.pick(used.length > 0 ? used : BUILTIN_TOOLKITS[0].tools);
    let n = doc.nodes.length + 1;
    const ids = new Set<string>(doc.nodes.map((node) => node.id));
    while (ids.has(`step_${n}`)) n++;
    const id = asNodeId(`step_${n}`);
    next = wireFromRecent(
      random,
      addNode(doc, decl, getGridPosition(n - 1, 6), sampleArgs(random, decl, n), id),
      id,
    );
  } else if (kind === 'remove') {
    next = removeNodes(doc, [random.pick(doc.nodes).id]);
  } else if (kind === 'rename') {
    const node = random.pick(doc.nodes);
    next = renameNode(doc, node.id, `${node.tool.replace(/_/g, ' ')} #${random.int(10_000)}`);
  }
  // A drag of one to three nodes (also the fallback when the chosen edit changed nothing).
  for (let tries = 0; next === doc && tries < 10; tries++) {
    kind = 'move';
    const positions = new Map<string, { x: number; y: number }>();
    for (let k = random.between(1, 3); k > 0; k--) {
      const node = random.pick(doc.nodes);
      positions.set(node.id, {
        x: node.position.x + random.between(-60, 60),
        y: node.position.y + random.between(-40, 40),
      });
    }
    next = moveNodes(doc, positions);
  }
  return { doc: next, kind };
}
