/**
 * Fuzz targets: workflow export files → `importWorkflow` (docs/design.md §4.4).
 *
 * - `exports`: random workflows exported with `exportWorkflow` are valid, import, and export
 *   again byte for byte; written as version 0 (the prototype's camelCase format) they migrate
 *   and export to the same bytes.
 * - `exports-mutated`: those files (v1 or v0) with keys dropped or renamed, values of the wrong
 *   type, ids and names copied where they do not belong, tools removed. Import never throws;
 *   a refusal lists issues that each have a code, a message and a JSON path that resolves into
 *   the file as given; an accepted file reaches a fixed point: export(import(·)) is stable.
 */
import fc from 'fast-check';
import { exportWorkflow } from '../../lib/workflow/export';
import { importWorkflow, validateExport } from '../../lib/workflow/import';
import { checkIssues } from './declarations';
import { check, isObject, mutateJson, mutation, normalizeJson, show, sometimes, type Json } from './json';
import type { FuzzOptions, FuzzTarget } from './types';
import { avoidKnownBugs, buildWorkflow, workflowDraft, type WorkflowDraft } from './workflows';

const V0_ROOT: Record<string, string> = { nodes: 'steps', system_parameters: 'systemParameters' };
const V0_NODE: Record<string, string> = {
  tool_name: 'toolName',
  tool_source: 'toolSource',
  input_parameters: 'inputParameters',
  missing_tool_args: 'missingToolArgs',
  unknown_args: 'unknownArgs',
  output_parameters: 'outputParameters',
  tool_hash: 'toolHash',
};
const V0_EDGE: Record<string, string> = { source_output: 'sourceOutput', target_input: 'targetInput' };
const V0_TOOL: Record<string, string> = { input_schema: 'inputSchema', output_schema: 'outputSchema' };

function rename(value: Json, names: Record<string, string>, drop: string[] = []): Json {
  if (!isObject(value)) return value;
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(value)) {
    if (drop.includes(key)) continue;
    Object.defineProperty(out, names[key] ?? key, {
      value: (value as { [key: string]: Json })[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** v0 member → the v1 name issue messages use for it. */
const V0_NAMES: Record<string, string> = Object.assign(Object.create(null), { steps: 'nodes' });

/** The same export written as version 0: camelCase keys, `steps`, no `step_index`. */
export function toV0(file: Json): Json {
  if (!isObject(file)) return file;
  const root = rename(file, V0_ROOT) as { [key: string]: Json };
  root.version = 0;
  if (Array.isArray(root.steps)) root.steps = root.steps.map((n) => rename(n, V0_NODE, ['step_index']));
  if (Array.isArray(root.edges)) root.edges = root.edges.map((e) => rename(e, V0_EDGE));
  if (Array.isArray(root.tools)) root.tools = root.tools.map((t) => rename(t, V0_TOOL));
  return root;
}

/** An export file of a generated workflow, as JSON text would carry it. */
export function exportDraft(draft: WorkflowDraft, opts: FuzzOptions): Json {
  const { doc, meta } = buildWorkflow(avoidKnownBugs(draft, opts));
  return normalizeJson(exportWorkflow(doc, meta));
}

/** A valid export imports, and exports again to the same bytes. */
export function checkValidExport(file: Json, original: Json = file, what = 'export'): void {
  const issues = validateExport(file);
  check(issues.length === 0, () => `a fresh ${what} is refused: ${show(issues, 1500)}`);
  const imported = importWorkflow(file);
  check(imported.ok, `a fresh ${what} does not import`);
  const again = JSON.stringify(exportWorkflow(imported.value.document, imported.value.meta));
  const want = JSON.stringify(original);
  check(
    again === want,
    () => `export(import(${what})) differs:\n  was ${show(want, 1500)}\n  now ${show(again, 1500)}`,
  );
}

export const exportsTarget: FuzzTarget = {
  name: 'exports',
  title: 'exported workflows (v1 and v0) → import → export, byte-identical',
  share: 0.1,
  property: (opts) =>
    fc.property(workflowDraft, fc.boolean(), (draft, asV0) => {
      const file = exportDraft(draft, opts);
      if (asV0) checkValidExport(toV0(file), file, 'v0 export');
      else checkValidExport(file);
    }),
};

/** Remove the `index`-th tool snapshot: its nodes must come back as placeholders. */
function dropTool(file: Json, index: number): Json {
  if (!isObject(file) || !Array.isArray(file.tools) || file.tools.length === 0) return file;
  const tools = file.tools.filter((_, i) => i !== index % (file.tools as Json[]).length);
  return { ...(file as { [key: string]: Json }), tools };
}

const mutatedCase = fc.record({
  draft: workflowDraft,
  asV0: fc.boolean(),
  drop: sometimes(fc.nat(), 4),
  mutations: fc.array(mutation, { maxLength: 4 }),
});

export const exportsMutatedTarget: FuzzTarget = {
  name: 'exports-mutated',
  title: 'mutated export files (v1 and v0) → import',
  share: 0.12,
  property: (opts) =>
    fc.property(mutatedCase, ({ draft, asV0, drop, mutations }) => {
      let file = exportDraft(draft, opts);
      if (drop !== undefined) file = dropTool(file, drop);
      if (asV0) file = toV0(file);
      const input = mutateJson(file, mutations);
      const result = importWorkflow(input);
      const issues = validateExport(input);
      check(result.ok === (issues.length === 0), 'importWorkflow and validateExport disagree');
      if (!result.ok) {
        checkIssues(
          input,
          result.error,
          'refused export',
          undefined,
          // A v0 file's `steps` is v1's `nodes`; messages name the v1 field.
          isObject(input) && input.version === 0 ? V0_NAMES : undefined,
        );
        return;
      }
      // Accepted: one more round trip changes nothing.
      const first = normalizeJson<{ [key: string]: Json }>(
        exportWorkflow(result.value.document, result.value.meta),
      );
      check(isObject(input) && input.id === first.id, 'the workflow id changed on import');
      checkValidExport(first, first, 'export of an accepted file');
    }),
};

/** How deeply a JSON value nests (HTTP bodies deeper than 64 levels are refused before import). */
export function getDepth(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((m: number, v) => Math.max(m, getDepth(v)), 0);
  if (isObject(value)) return 1 + Object.values(value).reduce((m: number, v) => Math.max(m, getDepth(v)), 0);
  return 0;
}

/**
 * Export files that import must refuse: generated workflows (v1 or v0), mutated until
 * `validateExport` finds a problem, nested at most `maxDepth` levels.
 */
export function invalidExportFile(maxDepth = 60): fc.Arbitrary<Json> {
  return fc
    .record({
      draft: workflowDraft,
      asV0: fc.boolean(),
      mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
    })
    .map(({ draft, asV0, mutations }) => {
      const file = exportDraft(draft, { includeKnownBugs: false });
      return mutateJson(asV0 ? toV0(file) : file, mutations);
    })
    .filter((file) => getDepth(file) <= maxDepth && validateExport(file).length > 0);
}
