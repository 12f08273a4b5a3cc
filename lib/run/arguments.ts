/**
 * A node's arguments (README "Test-run semantics: arguments"), from its exported
 * `input_parameters` and the results of the nodes feeding it. `getArguments` is the one place
 * that decides what is sent, both before the run (the pre-flight, when fed values are not known
 * yet) and when the node is called:
 *
 * - system parameters are left out;
 * - an optional parameter whose value is only the type's zero value (origin `zero`) is left out:
 *   nobody chose it (docs/design.md §2.6: a zero value is a guess), and sending `0` or `""` can change what
 *   a tool does; a required one makes the node unable to run;
 * - every other parameter is sent with its value, in declaration order;
 * - an input fed by an edge gets the source's port value: a port of the source tool's
 *   `outputSchema` takes `structuredContent[port]`; the single `result` port takes
 *   `structuredContent` when present, else the text content (text blocks joined by newlines);
 * - an edge the typed-wiring rule refuses (lib/workflow/typed-wiring.ts) makes the node unable
 *   to run; on any other edge the value is passed as that rule's `convertFedValue` says.
 *
 * The arguments are then checked against the tool's input schema (Ajv, in the schema's own
 * dialect) before any call. Pure.
 */
import { decodePointer, err, ok, pointerSegment, type Result } from '../result';
import { isJsonObject } from '../tools/json-schema';
import { hasMember, setJsonMember } from '../tools/json-value';
import { compileSchema, describeAjvError, type ErrorObject } from '../tools/schema-validator';
import { convertFedValue, getTypeClash, getTypeClashRemedy } from '../workflow/typed-wiring';
import type { ExportEdge, ExportNode, ExportTool, InputParameter, WorkflowExportV1 } from '../workflow/types';
import type { RunError, ToolCallResult } from './types';

/** Lookups by name and id over one export, built once per file. */
interface ExportIndex {
  tools: Map<string, ExportTool>;
  nodes: Map<string, ExportNode>;
  /** The edges into each node, by target input. */
  incoming: Map<string, Map<string, ExportEdge>>;
}

const indexes = new WeakMap<WorkflowExportV1, ExportIndex>();

function getExportIndex(file: WorkflowExportV1): ExportIndex {
  let index = indexes.get(file);
  if (!index) {
    // Maps, not records: a tool or node may be named like an Object.prototype member.
    const incoming = new Map<string, Map<string, ExportEdge>>();
    for (const edge of file.edges) {
      const into = incoming.get(edge.target) ?? new Map<string, ExportEdge>();
      into.set(edge.target_input, edge);
      incoming.set(edge.target, into);
    }
    index = {
      tools: new Map(file.tools.map((tool) => [tool.name, tool])),
      nodes: new Map(file.nodes.map((node) => [node.id, node])),
      incoming,
    };
    indexes.set(file, index);
  }
  return index;
}

/** The tool snapshot of an export by name. */
export function getExportTool(file: WorkflowExportV1, name: string): ExportTool | undefined {
  return getExportIndex(file).tools.get(name);
}

/** The edges feeding each input of `node`, by input name. */
export function getIncomingEdges(file: WorkflowExportV1, nodeId: string): ReadonlyMap<string, ExportEdge> {
  return getExportIndex(file).incoming.get(nodeId) ?? new Map();
}

/**
 * The value an output port of a finished node passes along an edge, or why there is none.
 * `tool` is the source node's tool snapshot (undefined for a placeholder).
 */
export function getPortValue(
  result: ToolCallResult,
  port: string,
  tool: ExportTool | undefined,
  sourceId: string,
): Result<unknown, RunError> {
  const structured = result.structuredContent;
  if (tool?.output_schema !== undefined && port !== 'result') {
    if (structured && hasMember(structured, port)) return ok(structured[port]);
    return err({
      code: 'no_value',
      message: `"${sourceId}" returned no structuredContent.${port}, which its output "${port}" reads.`,
    });
  }
  if (tool?.output_schema !== undefined && structured && hasMember(structured, port)) {
    // An output schema that itself declares a property named "result".
    return ok(structured[port]);
  }
  if (structured !== undefined) return ok(structured);
  const texts = result.content.filter((b) => b.type === 'text' && typeof b.text === 'string');
  if (texts.length === 0) {
    return err({
      code: 'no_value',
      message: `"${sourceId}" returned neither structuredContent nor text content, so its "result" has no value to pass on.`,
    });
  }
  return ok(texts.map((b) => b.text as string).join('\n'));
}

const describe = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** Reads the value an edge brings to `param`, or says why it cannot (see `resolveArguments`). */
export type ReadFedValue = (edge: ExportEdge, param: InputParameter) => Result<unknown, RunError>;

/** What `getArguments` found: the arguments, and the inputs left out because edges feed them. */
export interface NodeArguments {
  args: Record<string, unknown>;
  /** Fed inputs whose values are not known yet (no `readFed` was given). */
  pending: Set<string>;
}

/**
 * The arguments `node` is called with, in declaration order, or why it cannot be called (see
 * the rules above). `readFed` reads the value of each fed input; without it (the pre-flight) fed
 * inputs are left out and listed in `pending`.
 */
export function getArguments(
  file: WorkflowExportV1,
  node: ExportNode,
  readFed?: ReadFedValue,
): Result<NodeArguments, RunError> {
  const system = new Set(file.system_parameters);
  const incoming = getIncomingEdges(file, node.id);
  const args: Record<string, unknown> = {};
  const pending = new Set<string>();
  for (const param of node.input_parameters) {
    if (system.has(param.name)) continue;
    const path = `/${pointerSegment(param.name)}`;
    const edge = incoming.get(param.name);
    if (edge) {
      const clash = getEdgeClash(file, edge, param);
      if (clash !== undefined) {
        return err({
          code: 'type_mismatch',
          message: `${clash}, so the edge from "${edge.source}" cannot feed it: ${getTypeClashRemedy(param)}, and save.`,
          path,
        });
      }
      if (!readFed) {
        pending.add(param.name);
        continue;
      }
      const value = readFed(edge, param);
      if (!value.ok) return err({ ...value.error, path });
      setJsonMember(args, param.name, value.value);
      continue;
    }
    if (param.origin === 'zero') {
      if (!param.required) continue;
      return err({
        code: 'missing_required',
        message: `Required input "${param.name}" has no value: set it or connect an edge to it.`,
        path,
      });
    }
    setJsonMember(args, param.name, param.value);
  }
  return ok({ args, pending });
}

/** Why the typed-wiring rule refuses `edge` into `param`, or undefined when it accepts it. */
function getEdgeClash(file: WorkflowExportV1, edge: ExportEdge, param: InputParameter): string | undefined {
  const out = getSourcePort(file, edge);
  return out ? getTypeClash(out, param) : undefined;
}

function getSourcePort(file: WorkflowExportV1, edge: ExportEdge) {
  const source = getExportIndex(file).nodes.get(edge.source);
  return source?.output_parameters.find((o) => o.name === edge.source_output);
}

/** Results of finished nodes by id, for resolving edges. */
export type NodeResults = ReadonlyMap<string, ToolCallResult>;

/**
 * The arguments a node is called with, in declaration order, or why it cannot be called.
 * Every edge source must already have a result in `results`.
 */
export function resolveArguments(
  file: WorkflowExportV1,
  node: ExportNode,
  results: NodeResults,
): Result<Record<string, unknown>, RunError> {
  const resolved = getArguments(file, node, (edge, param) => {
    const sourceResult = results.get(edge.source);
    if (!sourceResult) {
      return err({
        code: 'no_value',
        message: `Input "${param.name}" is fed by "${edge.source}", which has no result.`,
      });
    }
    const sourceNode = getExportIndex(file).nodes.get(edge.source);
    const sourceTool = sourceNode ? getExportTool(file, sourceNode.tool_name) : undefined;
    const value = getPortValue(sourceResult, edge.source_output, sourceTool, edge.source);
    if (!value.ok) return value;
    const converted = convertFedValue(value.value, getSourcePort(file, edge)?.type ?? 'any', param.type);
    if (!converted.ok) {
      return err({
        code: 'cannot_convert',
        message: `Input "${param.name}" (${param.type}) is fed by ${edge.source}.${edge.source_output}, but ${converted.error}.`,
      });
    }
    return converted;
  });
  return resolved.ok ? ok(resolved.value.args) : resolved;
}

/** One Ajv error as a message that names the value at fault. */
function describeArgumentError(error: ErrorObject, args: Record<string, unknown>): string {
  const path =
    error.keyword === 'required'
      ? `${error.instancePath}/${pointerSegment(String(error.params.missingProperty))}`
      : error.instancePath;
  const where = path === '' ? 'the arguments' : `"${path.slice(1)}"`;
  let value: unknown = args;
  for (const key of decodePointer(error.instancePath)) {
    value = isJsonObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  if (error.keyword === 'required') return `${where} is required and has no value`;
  return `${where} (value ${describe(value)}) ${describeAjvError(error)}`;
}

/** The first letter a capital ("the arguments …" begins a sentence). */
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Checks arguments against the tool's input schema. `ignore` names top-level parameters whose
 * values are not known yet (fed by edges, when checking before the run): errors about them and
 * their absence are left out.
 */
export function checkArguments(
  tool: ExportTool,
  args: Record<string, unknown>,
  ignore: ReadonlySet<string> = new Set(),
): Result<true, RunError> {
  const compiled = compileSchema(tool.input_schema);
  if (!compiled.ok) {
    return err({
      code: 'invalid_schema',
      message: `The input schema of "${tool.name}" cannot be used to check the arguments: ${compiled.error}`,
    });
  }
  let valid: boolean;
  try {
    valid = compiled.value(args) as boolean;
  } catch (error) {
    return err({
      code: 'invalid_arguments',
      message: `The arguments could not be checked against the input schema of "${tool.name}": ${(error as Error).message}`,
    });
  }
  if (valid) return ok(true);
  const errors = (compiled.value.errors ?? []).filter((e) => {
    const first =
      e.keyword === 'required' && e.instancePath === ''
        ? String(e.params.missingProperty)
        : (decodePointer(e.instancePath)[0] ?? '');
    return !(first !== '' && ignore.has(first));
  });
  if (errors.length === 0) return ok(true);
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return err({
    code: 'invalid_arguments',
    message: `${capitalize(describeArgumentError(first, args))}${more}.`,
    detail: `The arguments fail the input schema of "${tool.name}".`,
    path:
      first.keyword === 'required'
        ? `/${pointerSegment(String(first.params.missingProperty))}`
        : first.instancePath,
  });
}
