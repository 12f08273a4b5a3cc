/**
 * Random workflows for the export, planner and database targets: a few generated tools, a plan
 * whose steps call them (or tools nobody declared) with random args and `{{step.output}}`
 * references, built with `createDocumentFromPlan`, then moved, labelled and given custom system
 * parameters the way an editor would.
 */
import fc from 'fast-check';
import type { ToolDeclaration } from '../../lib/tools/types';
import { getObjectProperties, isJsonObject } from '../../lib/tools/json-schema';
import { renameNode, moveNodes } from '../../lib/workflow/commands';
import { createDocumentFromPlan } from '../../lib/workflow/plan';
import type { Plan, WorkflowDocument, XY } from '../../lib/workflow/types';
import {
  check,
  fuzzName,
  fuzzText,
  fuzzValue,
  normalizeJson,
  objectFrom,
  show,
  smallJson,
  sometimes,
} from './json';
import { declaration } from './schemas';
import type { FuzzOptions } from './types';

/** Tools with distinct, non-empty names (a v1 export requires both). */
export function toolList(min: number, max: number): fc.Arbitrary<ToolDeclaration[]> {
  return fc
    .uniqueArray(declaration, { minLength: min, maxLength: max, selector: (d) => d.declaration.name })
    .map((list) => list.map((d) => d.declaration).filter((d) => d.name !== ''));
}

/** Parameter names a tool declares (for args that hit declared inputs). */
export function getDeclaredNames(tool: ToolDeclaration): string[] {
  const schema = isJsonObject(tool.inputSchema) ? tool.inputSchema : {};
  return getObjectProperties(schema, schema).properties.map((p) => p.name);
}

/** Output names a tool offers (outputSchema properties, else `result`). */
function getOutputNames(tool: ToolDeclaration | undefined): string[] {
  const schema = tool?.outputSchema;
  const names = isJsonObject(schema) && isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
  return names.length > 0 ? names : ['result'];
}

/** A step id: mostly `step_N`, sometimes hostile (unique and non-empty either way). */
const stepIdStyle = fc.constantFrom<'plain' | 'tricky'>('plain', 'plain', 'plain', 'tricky');

interface StepDraft {
  tool: number;
  unknownTool: string | undefined;
  args: [number, number, unknown][];
}

/** A plan over `tools`: steps with args drawn from declared names, junk names and references. */
export function planFor(tools: ToolDeclaration[], maxSteps = 6): fc.Arbitrary<Plan> {
  const step: fc.Arbitrary<StepDraft> = fc.record({
    tool: fc.nat(),
    unknownTool: sometimes(
      fc.constantFrom('vanished_tool', 'toString', 'constructor', '__proto__', 'a.b'),
      8,
    ),
    // [name pick, reference pick, value]: which name, whether the value is a reference, the value.
    args: fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat(9),
        fc.oneof(
          { weight: 6, arbitrary: smallJson },
          { weight: 1, arbitrary: fuzzValue },
          { weight: 1, arbitrary: fuzzName },
        ),
      ),
      { maxLength: 6 },
    ),
  });
  return fc
    .record({
      task: fuzzText,
      steps: fc.array(step, { maxLength: maxSteps }),
      style: stepIdStyle,
      trickyIds: fc.uniqueArray(fc.oneof(fuzzName, fuzzText), { minLength: maxSteps, maxLength: maxSteps }),
    })
    .map(({ task, steps, style, trickyIds }) => {
      const ids = steps.map((_, i) =>
        style === 'plain' || trickyIds[i] === '' ? `step_${i + 1}` : trickyIds[i],
      );
      // Tricky ids may collide with a plain one: keep them unique.
      const seen = new Set<string>();
      const unique = ids.map((id, i) => {
        const out = seen.has(id) ? `step_${i + 1}_${i}` : id;
        seen.add(out);
        return out;
      });
      const planSteps = steps.map((draft, i) => {
        const tool =
          tools.length > 0 && draft.unknownTool === undefined ? tools[draft.tool % tools.length] : undefined;
        const names = tool ? getDeclaredNames(tool) : [];
        const args: [string, unknown][] = draft.args.map(([pick, refPick, value]) => {
          const name =
            names.length > 0 && pick % 4 !== 0
              ? names[pick % names.length]
              : typeof value === 'string'
                ? value
                : (JSON.stringify(value) ?? 'x');
          if (refPick < 3 && i > 0) {
            const source = pick % i;
            const sourceTool = planSourceTool(tools, steps[source]);
            const outputs = getOutputNames(sourceTool);
            return [name, `{{${unique[source]}.${outputs[refPick % outputs.length]}}}`];
          }
          if (refPick === 3) return [name, `{{step_${pick % 9}.result}}`];
          return [name, value];
        });
        return {
          id: unique[i],
          tool: tool ? tool.name : (draft.unknownTool ?? 'vanished_tool'),
          args: normalizeJson<Record<string, unknown>>(objectFrom(args)),
        };
      });
      return { task, steps: planSteps, edges: [] };
    });
}

function planSourceTool(tools: ToolDeclaration[], draft: StepDraft): ToolDeclaration | undefined {
  return tools.length > 0 && draft.unknownTool === undefined ? tools[draft.tool % tools.length] : undefined;
}

/** A generated workflow: its tools, the document and export metadata. */
export interface GeneratedWorkflow {
  tools: ToolDeclaration[];
  doc: WorkflowDocument;
  meta: { id: string; name: string };
}

const position: fc.Arbitrary<XY> = fc.record({
  x: fc.oneof(fc.integer({ min: -5000, max: 5000 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
  y: fc.oneof(fc.integer({ min: -5000, max: 5000 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
});

/** What a workflow is built from (building happens in the property, where a refusal is a failure). */
export interface WorkflowDraft {
  tools: ToolDeclaration[];
  plan: Plan;
  systemParams: string[] | undefined;
  positions: XY[];
  labels: (string | undefined)[];
  meta: { id: string; name: string };
}

/** A random plan over random tools, plus the edits an editor would make afterwards. */
export const workflowDraft: fc.Arbitrary<WorkflowDraft> = toolList(1, 4).chain((tools) =>
  fc.record({
    tools: fc.constant(tools),
    plan: planFor(tools),
    systemParams: sometimes(fc.uniqueArray(fuzzName, { maxLength: 3 }), 3),
    positions: fc.array(position, { minLength: 6, maxLength: 6 }),
    labels: fc.array(fc.option(fuzzText, { nil: undefined }), { minLength: 6, maxLength: 6 }),
    meta: fc.record({
      id: fc.oneof(fc.constant('wf_1'), fc.string({ minLength: 1, maxLength: 20 })),
      name: fuzzText,
    }),
  }),
);

/**
 * The draft without the inputs of reported, unfixed bugs (see known-bugs.ts). None of them is
 * in a draft at the moment; the hook stays for the next one.
 */
export function avoidKnownBugs(draft: WorkflowDraft, _opts: FuzzOptions): WorkflowDraft {
  return draft;
}

/**
 * Build the workflow: `createDocumentFromPlan` (which must accept a plan with unique step ids and
 * no explicit edges), then move and label nodes with the editor's commands.
 */
export function buildWorkflow(draft: WorkflowDraft): GeneratedWorkflow {
  const { tools, plan, systemParams, positions, labels, meta } = draft;
  const built = createDocumentFromPlan(plan, tools, systemParams ? { systemParams } : {});
  check(
    built.ok,
    () => `a plan with unique step ids and no explicit edges was refused: ${show(!built.ok && built.error)}`,
  );
  let doc = built.value;
  doc = moveNodes(doc, new Map(doc.nodes.map((n, i) => [n.id as string, normalizeJson<XY>(positions[i])])));
  doc.nodes.forEach((n, i) => {
    if (labels[i] !== undefined) doc = renameNode(doc, n.id, labels[i]!);
  });
  return { tools, doc, meta };
}
