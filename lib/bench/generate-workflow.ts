/**
 * A generated workflow of any size for the editor benchmark and the bench pages: real tool
 * declarations (the built-in materials toolkit), nodes in columns, and about 1.4 edges per
 * node, each from an output to a type-compatible input of a node in the next column.
 * Deterministic for a given size (seeded), so ours and the bare React Flow page render the
 * same graph.
 */
import { hashDeclaration } from '../tools/canonical-json';
import type { ToolDeclaration } from '../tools/types';
import { BUILTIN_TOOLKITS } from '../toolkits/builtin';
import { createEdgeId, getInputPorts, getOutputPorts } from '../workflow/graph';
import { isTypeCompatible } from '../workflow/typed-wiring';
import { asNodeId, type WorkflowDocument, type WorkflowEdge, type WorkflowNode } from '../workflow/types';
import { getEstimatedNodeHeight, NODE_WIDTH } from '../editor/node-metrics';

const COLUMN_GAP = 120;
const ROW_GAP = 40;

/** Park–Miller: small, seedable, the same in every browser and Node. */
function createRandom(seed: number) {
  let state = seed % 2147483647 || 1;
  return (below: number) => {
    state = (state * 16807) % 2147483647;
    return state % below;
  };
}

/** A workflow with `nodeCount` nodes and about `edgesPerNode × nodeCount` edges. */
export function generateWorkflow(nodeCount: number, edgesPerNode = 1.4): WorkflowDocument {
  const tools: readonly ToolDeclaration[] = BUILTIN_TOOLKITS.find((t) => t.key === 'materials')!.tools;
  // About as many rows as columns, so fitView shows a readable square, not a thin strip.
  const rows = Math.max(4, Math.round(Math.sqrt(nodeCount)));
  const random = createRandom(nodeCount * 7919 + 17);
  const snapshots: WorkflowDocument['tools'] = {};
  for (const t of tools) snapshots[t.name] = { declaration: t, hash: hashDeclaration(t) };

  const nodes: WorkflowNode[] = [];
  const shell: WorkflowDocument = {
    task: `Generated ${nodeCount}-node workflow`,
    nodes,
    edges: [],
    tools: snapshots,
  };
  const heights: number[] = [];
  let x = 0;
  let y = 0;
  for (let i = 0; i < nodeCount; i++) {
    if (i > 0 && i % rows === 0) {
      x += NODE_WIDTH + COLUMN_GAP;
      y = 0;
    }
    const tool = tools[random(tools.length)];
    const node: WorkflowNode = {
      id: asNodeId(`n${i + 1}`),
      tool: tool.name,
      position: { x, y },
      args: {},
      toolHash: snapshots[tool.name].hash,
    };
    nodes.push(node);
    const height = getEstimatedNodeHeight(
      getInputPorts(shell, node).length,
      getOutputPorts(shell, node).length,
      true,
    );
    heights.push(height);
    y += height + ROW_GAP;
  }

  const edges: WorkflowEdge[] = [];
  const wanted = Math.round(nodeCount * edgesPerNode);
  const taken = new Set<string>();
  // Feed nodes of column c ≥ 1 from nodes of column c − 1, round-robin, until enough edges exist.
  for (let pass = 0; pass < 8 && edges.length < wanted; pass++) {
    for (let i = rows; i < nodeCount && edges.length < wanted; i++) {
      const target = nodes[i];
      const column = Math.floor(i / rows);
      const source = nodes[(column - 1) * rows + random(rows)];
      const inputs = getInputPorts(shell, target);
      for (const out of getOutputPorts(shell, source)) {
        const input = inputs.find(
          (p) => !taken.has(`${target.id}.${p.name}`) && isTypeCompatible(out.type, p.type),
        );
        if (!input) continue;
        taken.add(`${target.id}.${input.name}`);
        edges.push({
          id: createEdgeId(source.id, out.name, target.id, input.name),
          source: source.id,
          sourceOutput: out.name,
          target: target.id,
          targetInput: input.name,
        });
        break;
      }
    }
  }
  return { ...shell, edges };
}

/** The node count a bench page was asked for (`?n=`), 500 when absent, at most 5000. */
export function getBenchSize(value: string | string[] | undefined): number {
  const n = Number(Array.isArray(value) ? value[0] : value);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 5000) : 500;
}
