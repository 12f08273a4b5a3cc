/**
 * A node's arguments at run time (README "Test-run semantics: arguments"), from its exported
 * `input_parameters` and the results of the nodes feeding it:
 *
 * - system parameters are left out;
 * - an optional parameter whose value is only the type's zero value (origin `zero`) is left out:
 *   nobody chose it (DESIGN §1: a zero value is a guess), and sending `0` or `""` can change what
 *   a tool does; a required one makes the node unable to run;
 * - every other parameter is sent with its value, in declaration order;
 * - an input fed by an edge gets the source's port value: a port of the source tool's
 *   `outputSchema` takes `structuredContent[port]`; the single `result` port takes
 *   `structuredContent` when present, else the text content (text blocks joined by newlines);
 * - that value is converted to the input's parameter type by `convertValue`'s stated rules.
 *
 * The arguments are then checked against the tool's `inputSchema` (Ajv, in the schema's own
 * dialect) before any call. Pure.
 */
import { err, ok, pointerSegment, type Result } from '../result';
import { isJsonObject } from '../tools/json-schema';
import { setJsonMember } from '../tools/json-value';
import { compileSchema, describeAjvError, type ErrorObject } from '../tools/schema-validator';
import type { ParamType } from '../tools/types';
import type { ExportEdge, ExportNode, ExportTool, InputParameter, WorkflowExportV1 } from '../workflow/types';
import type { RunError, ToolCallResult } from './types';
import { hasMember, parseJson } from '../tools/json-value';

/** The tool snapshot of an export by name (own lookup: names may shadow Object.prototype). */
export function getExportTool(file: WorkflowExportV1, name: string): ExportTool | undefined {
  return file.tools.find((tool) => tool.name === name);
}

/** The edges feeding each input of `node`, by input name. */
export function getIncomingEdges(file: WorkflowExportV1, nodeId: string): Map<string, ExportEdge> {
  const map = new Map<string, ExportEdge>();
  for (const edge of file.edges) if (edge.target === nodeId) map.set(edge.target_input, edge);
  return map;
}

/** Whether a parameter is sent: not a system parameter, and not an unchosen optional zero value. */
export function isSentParameter(
  param: InputParameter,
  systemParams: ReadonlySet<string>,
  fed: boolean,
): boolean {
  if (systemParams.has(param.name)) return false;
  if (fed) return true;
  return !(param.origin === 'zero' && !param.required);
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

/**
 * Converts a value passed along an edge to the receiving parameter's type. The rules:
 * - `any`: unchanged;
 * - `str`: a string unchanged; a number or boolean as written (`String`); null, an object or an
 *   array as compact JSON text;
 * - `int`: an integer unchanged; a string holding an integer (`"42"`, spaces allowed) parsed;
 * - `float`: a number unchanged; a string holding a finite number parsed;
 * - `bool`: a boolean unchanged; the strings `"true"` / `"false"` (any case) parsed;
 * - `list`: an array unchanged; a string holding a JSON array parsed;
 * - `dict`: an object unchanged; a string holding a JSON object parsed.
 * Anything else is refused (`cannot_convert`): no value is guessed.
 */
export function convertValue(value: unknown, type: ParamType): Result<unknown, string> {
  const refuse = (why = '') => err(`cannot turn ${describe(value)} into ${type}${why}`);
  switch (type) {
    case 'any':
      return ok(value);
    case 'str':
      if (typeof value === 'string') return ok(value);
      if (typeof value === 'number' || typeof value === 'boolean') return ok(String(value));
      return ok(JSON.stringify(value));
    case 'int': {
      if (typeof value === 'number')
        return Number.isInteger(value) ? ok(value) : refuse(' (not a whole number)');
      if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) {
        const n = Number(value);
        return Number.isSafeInteger(n) ? ok(n) : refuse(' (too large)');
      }
      return refuse();
    }
    case 'float': {
      if (typeof value === 'number') return ok(value);
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
        return ok(Number(value));
      return refuse();
    }
    case 'bool': {
      if (typeof value === 'boolean') return ok(value);
      if (typeof value === 'string' && /^\s*(true|false)\s*$/i.test(value))
        return ok(value.trim().toLowerCase() === 'true');
      return refuse();
    }
    case 'list':
    case 'dict': {
      const fits = (v: unknown) => (type === 'list' ? Array.isArray(v) : isJsonObject(v));
      if (fits(value)) return ok(value);
      if (typeof value === 'string') {
        try {
          const parsed: unknown = parseJson(value);
          if (fits(parsed)) return ok(parsed);
        } catch {
          return refuse(' (the text is not JSON)');
        }
      }
      return refuse();
    }
    default:
      return refuse();
  }
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
  const system = new Set(file.system_parameters);
  const incoming = getIncomingEdges(file, node.id);
  const args: Record<string, unknown> = {};
  for (const param of node.input_parameters) {
    const edge = incoming.get(param.name);
    if (!isSentParameter(param, system, edge !== undefined)) continue;
    if (!edge) {
      if (param.origin === 'zero' && param.required) {
        return err({
          code: 'missing_required',
          message: `Required input "${param.name}" has no value: set it or connect an edge to it.`,
          path: `/${pointerSegment(param.name)}`,
        });
      }
      setJsonMember(args, param.name, param.value);
      continue;
    }
    const sourceResult = results.get(edge.source);
    if (!sourceResult) {
      return err({
        code: 'no_value',
        message: `Input "${param.name}" is fed by "${edge.source}", which has no result.`,
        path: `/${pointerSegment(param.name)}`,
      });
    }
    const sourceNode = file.nodes.find((n) => n.id === edge.source);
    const sourceTool = sourceNode ? getExportTool(file, sourceNode.tool_name) : undefined;
    const value = getPortValue(sourceResult, edge.source_output, sourceTool, edge.source);
    if (!value.ok) return err({ ...value.error, path: `/${pointerSegment(param.name)}` });
    const converted = convertValue(value.value, param.type);
    if (!converted.ok) {
      return err({
        code: 'cannot_convert',
        message: `Input "${param.name}" (${param.type}) is fed by ${edge.source}.${edge.source_output}, but ${converted.error}.`,
        path: `/${pointerSegment(param.name)}`,
      });
    }
    setJsonMember(args, param.name, converted.value);
  }
  return ok(args);
}

/** One Ajv error as a message that names the value at fault. */
function describeArgumentError(error: ErrorObject, args: Record<string, unknown>): string {
  const path =
    error.keyword === 'required'
      ? `${error.instancePath}/${pointerSegment(String(error.params.missingProperty))}`
      : error.instancePath;
  const where = path === '' ? 'the arguments' : `"${path.slice(1)}"`;
  let value: unknown = args;
  for (const raw of error.instancePath.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    value = isJsonObject(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  const shown = error.keyword === 'required' ? '' : ` (value ${describe(value)})`;
  return `${where}${shown} ${describeAjvError(error)}`;
}

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
        : (e.instancePath.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~');
    return !(first !== '' && ignore.has(first));
  });
  if (errors.length === 0) return ok(true);
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return err({
    code: 'invalid_arguments',
    message: `The arguments fail the input schema of "${tool.name}": ${describeArgumentError(first, args)}${more}. The tool was not called.`,
    path:
      first.keyword === 'required'
        ? `/${pointerSegment(String(first.params.missingProperty))}`
        : first.instancePath,
  });
}
