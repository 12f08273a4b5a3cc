/**
 * v1 export (or an older version) → workflow document. Import writes nothing unless the whole
 * file is sound: the version is migrated, the result is validated against
 * `public/schemas/workflow.v1.schema.json`, then referential integrity is checked, and every
 * problem is reported with the JSON path it has in the file as given. The migrations are in
 * export-migrations.ts, the integrity check in import-integrity.ts.
 */
import type { JsonSchema } from '../tools/types';
import { err, joinPointer, ok, type Issue, type Result } from '../result';
import workflowV1Schema from '../../public/schemas/workflow.v1.schema.json';
import { migrateExport } from './export-migrations';
import { DERIVED_PROBLEM_CODES } from './export';
import { checkIntegrity, createToolDeclaration } from './import-integrity';
import { createRecord } from '../tools/json-value';
import { compileSchema, type ErrorObject, type ValidateFunction } from '../tools/schema-validator';
import {
  asEdgeId,
  asNodeId,
  type ToolSnapshot,
  type WorkflowDocument,
  type WorkflowExportV1,
  type WorkflowNode,
} from './types';

export { migrateExport, type Migrated } from './export-migrations';

/** A successfully imported workflow. */
export interface ImportedWorkflow {
  document: WorkflowDocument;
  meta: { id: string; name: string };
}

// ---- schema validation ----

let validateV1: ValidateFunction | undefined;

function getV1Validator(): ValidateFunction {
  if (!validateV1) {
    const compiled = compileSchema(workflowV1Schema as JsonSchema);
    // The schema ships with the code; failing to compile it is a bug, not an input problem.
    if (!compiled.ok) throw new Error(`workflow.v1.schema.json does not compile: ${compiled.error}`);
    validateV1 = compiled.value;
  }
  return validateV1;
}

function getSchemaIssue(error: ErrorObject): Issue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: joinPointer(error.instancePath, String(params.missingProperty)),
        code: 'schema_required',
        message: `Required field "${String(params.missingProperty)}" is missing: add it.`,
      };
    case 'additionalProperties':
      return {
        path: joinPointer(error.instancePath, String(params.additionalProperty)),
        code: 'schema_unknown_field',
        message: `Field "${String(params.additionalProperty)}" is not part of the v1 format: remove it.`,
      };
    case 'enum':
      return {
        path: error.instancePath,
        code: 'schema_enum',
        message: `Must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}.`,
      };
    case 'const':
      return {
        path: error.instancePath,
        code: 'schema_const',
        message: `Must be ${JSON.stringify(params.allowedValue)}.`,
      };
    default: {
      const text = error.message ?? `fails "${error.keyword}"`;
      return {
        path: error.instancePath,
        code: `schema_${error.keyword}`,
        message: `${text[0].toUpperCase()}${text.slice(1)}: fix this value to match the v1 format.`,
      };
    }
  }
}

// ---- building the document ----

function createDocument(file: WorkflowExportV1): WorkflowDocument {
  // Tool and parameter names are user strings: records without a prototype (a tool may be
  // called "__proto__" or "constructor").
  const tools = createRecord<ToolSnapshot>();
  for (const tool of file.tools)
    tools[tool.name] = { declaration: createToolDeclaration(tool), hash: tool.hash };
  const nodes = file.nodes.map((n): WorkflowNode => {
    const known = tools[n.tool_name] !== undefined;
    const args = createRecord<unknown>();
    for (const p of n.input_parameters) if (p.origin === 'arg') args[p.name] = p.value;
    const node: WorkflowNode = {
      id: asNodeId(n.id),
      tool: n.tool_name,
      position: { x: n.position.x, y: n.position.y },
      args,
    };
    if (n.label !== undefined) node.label = n.label;
    if (n.unknown_args.length > 0) node.unknownArgs = [...n.unknown_args];
    if (n.tool_hash !== null) node.toolHash = n.tool_hash;
    // Problems the builder derives come back on their own; the rest (planner notes) are kept.
    const notes = known ? n.problems.filter((p) => !DERIVED_PROBLEM_CODES.has(p.code)) : n.problems;
    if (notes.length > 0) node.notes = notes;
    if (!known) {
      node.placeholderParams = n.input_parameters;
      node.placeholderOutputs = n.output_parameters;
      node.placeholderMissingArgs = n.missing_tool_args;
    }
    return node;
  });
  return {
    task: file.task,
    nodes,
    edges: file.edges.map((e) => ({
      id: asEdgeId(e.id),
      source: asNodeId(e.source),
      sourceOutput: e.source_output,
      target: asNodeId(e.target),
      targetInput: e.target_input,
    })),
    tools,
    systemParams: [...file.system_parameters],
  };
}

function checkExport(json: unknown): Result<WorkflowExportV1> {
  const migrated = migrateExport(json);
  if (!migrated.ok) return migrated;
  const { json: v1, toOriginalPath } = migrated.value;
  const validate = getV1Validator();
  const issues: Issue[] = [];
  if (!validate(v1)) {
    for (const error of validate.errors ?? []) issues.push(getSchemaIssue(error));
  } else {
    checkIntegrity(v1 as WorkflowExportV1, issues);
  }
  if (issues.length > 0) return err(issues.map((issue) => ({ ...issue, path: toOriginalPath(issue.path) })));
  return ok(v1 as WorkflowExportV1);
}

/**
 * Read a workflow export (v1 or older) into a document. Every problem is reported with its JSON
 * path in the file as given; nothing is returned unless the file is valid. A node whose tool is
 * not in `tools` becomes a placeholder that keeps its parameters and edges verbatim, and
 * export → import → export gives the same bytes.
 */
export function importWorkflow(json: unknown): Result<ImportedWorkflow> {
  const checked = checkExport(json);
  if (!checked.ok) return checked;
  const file = checked.value;
  return ok({ document: createDocument(file), meta: { id: file.id, name: file.name } });
}

/** Every problem of a workflow export, with JSON paths; empty when it imports cleanly. */
export function validateExport(json: unknown): Issue[] {
  const checked = checkExport(json);
  return checked.ok ? [] : checked.error;
}
