/**
 * The node JSON contract (docs/design.md §2): a node's `input_parameters` come from the tool's FULL
 * declaration, in order, with the value chosen by the first rule that applies —
 * edge `""` → tool_args → default (deep-copied) → type zero-value.
 *
 * This is the hot path of building, exporting and rendering workflows, so everything that
 * depends only on the declaration (types, defaults, required flags, output ports, the Ajv
 * validator) is computed once into a "param plan" cached per declaration object.
 * Declarations are treated as immutable once a plan exists for them.
 */
import {
  getObjectProperties,
  getParamType,
  getValueType,
  getZeroValue,
  isJsonObject,
  resolveSchema,
} from '../tools/json-schema';
import { DEFAULT_SYSTEM_PARAMS, type JsonSchema, type ToolDeclaration } from '../tools/types';
// `#value-checks` is lib/workflow/value-checks.ts, except in the browser, where it loads on demand
// with Ajv (lib/workflow/value-checks.browser.ts; package.json `imports`).
import { addValueProblems, isValueChecksLoaded } from '#value-checks';
import { cloneJson, hasMember, setJsonMember } from '../tools/json-value';
import type { InputParameter, NodeIssue, OutputParameter, ParamType } from './types';

// Re-exported: lib/workflow and the planner write untrusted keys through these.
export { cloneJson, setJsonMember };

/** What the builder needs to know about the node's surroundings. */
export interface NodeParameterOptions {
  /** Input names fed by an edge (rule 1). */
  connectedInputs: ReadonlySet<string>;
  /** Platform-injected parameters to skip; DEFAULT_SYSTEM_PARAMS when omitted. */
  systemParams?: readonly string[];
  /**
   * Whether to check the values against the input schema (Ajv); true when omitted. False
   * leaves them unchecked (so does true while the browser has not loaded the schema compiler);
   * a list gives the problems a check of these same values found before (on the server), used
   * as they are (lib/workflow/export.ts, getValueProblems).
   */
  checkValues?: boolean | readonly NodeIssue[];
  /**
   * Problems of the edges into the node that the caller found (an edge the typed-wiring rule
   * refuses: getNodeParameters), listed with the builder's other edge problems.
   */
  edgeProblems?: readonly NodeIssue[];
}

/** The derived parameter view of one node (the export's node fields, docs/design.md §4.3). */
export interface NodeParameters {
  input_parameters: InputParameter[];
  missing_tool_args: string[];
  unknown_args: string[];
  output_parameters: OutputParameter[];
  problems: NodeIssue[];
}

/** One non-system parameter of a declaration, precomputed once. */
export interface ParamPlanEntry {
  name: string;
  type: ParamType;
  required: boolean;
  description: string | undefined;
  hasDefault: boolean;
  defaultValue: unknown;
  /** A default that is an object or array must be copied for every node (rule 3). */
  defaultNeedsCopy: boolean;
}

interface ParamPlan {
  entries: ParamPlanEntry[];
  /** Every property the declaration has, system ones included (for unknown_args). */
  declared: Set<string>;
  system: Set<string>;
  /** The declaration has an input property named "" (left out: a parameter needs a name). */
  unnamedInput: boolean;
}

interface DeclarationEntry {
  plans: Map<string, ParamPlan>;
  outputs: OutputParameter[];
  /** The outputSchema has a property named "" (left out: a port needs a name). */
  unnamedOutput: boolean;
}

const declarationCache = new WeakMap<ToolDeclaration, DeclarationEntry>();
const systemKeys = new WeakMap<readonly string[], string>();
const DEFAULT_KEY = '\u0000default';

function getSystemKey(systemParams: readonly string[]): string {
  if (systemParams === DEFAULT_SYSTEM_PARAMS) return DEFAULT_KEY;
  let key = systemKeys.get(systemParams);
  if (key === undefined) {
    key = systemParams.join('\u0000');
    systemKeys.set(systemParams, key);
  }
  return key;
}

/**
 * The output ports of a declaration, and whether it has an output named "": such a property
 * cannot be a port (the v1 format, like an edge, needs a name), so it is left out and reported.
 */
function computeOutputParameters(decl: ToolDeclaration): { outputs: OutputParameter[]; unnamed: boolean } {
  const schema = decl.outputSchema;
  if (isJsonObject(schema)) {
    const { properties } = getObjectProperties(schema, schema);
    const named = properties.filter((p) => p.name !== '');
    const unnamed = named.length < properties.length;
    if (named.length > 0) {
      return { outputs: named.map((p) => ({ name: p.name, type: getParamType(p.schema, schema) })), unnamed };
    }
    return { outputs: [{ name: 'result', type: 'any' }], unnamed };
  }
  return { outputs: [{ name: 'result', type: 'any' }], unnamed: false };
}

function getDeclarationEntry(decl: ToolDeclaration): DeclarationEntry {
  let entry = declarationCache.get(decl);
  if (!entry) {
    const { outputs, unnamed } = computeOutputParameters(decl);
    entry = { plans: new Map(), outputs, unnamedOutput: unnamed };
    declarationCache.set(decl, entry);
  }
  return entry;
}

function createParamPlan(decl: ToolDeclaration, systemParams: readonly string[]): ParamPlan {
  const root: JsonSchema = isJsonObject(decl.inputSchema) ? decl.inputSchema : {};
  const { properties, required } = getObjectProperties(root, root);
  const system = new Set(systemParams);
  const declared = new Set<string>();
  const entries: ParamPlanEntry[] = [];
  let unnamedInput = false;
  for (const { name, schema } of properties) {
    // A parameter needs a name (the v1 format refuses ""): leave it out and report it on the
    // node; an arg named "" is then an unknown arg, kept by name.
    if (name === '' && !system.has(name)) {
      unnamedInput = true;
      continue;
    }
    declared.add(name);
    if (system.has(name)) continue;
    // A default or description may sit on the property or on its $ref target.
    const resolved = resolveSchema(schema, root);
    const hasDefault = 'default' in resolved;
    const defaultValue = hasDefault ? resolved.default : undefined;
    entries.push({
      name,
      type: getParamType(schema, root),
      required: required.has(name),
      description: typeof resolved.description === 'string' ? resolved.description : undefined,
      hasDefault,
      defaultValue,
      defaultNeedsCopy: defaultValue !== null && typeof defaultValue === 'object',
    });
  }
  return { entries, declared, system, unnamedInput };
}

/**
 * The compiled per-declaration plan (types, defaults, required flags), cached by the
 * declaration object and the system-parameter list. Exposed for tools that render the same
 * parameter list (the inspector, the prompt catalogue) so they agree with the export.
 */
export function getParamPlan(
  decl: ToolDeclaration,
  systemParams: readonly string[] = DEFAULT_SYSTEM_PARAMS,
): readonly Readonly<ParamPlanEntry>[] {
  return getPlan(decl, systemParams).entries;
}

function getPlan(decl: ToolDeclaration, systemParams: readonly string[]): ParamPlan {
  const entry = getDeclarationEntry(decl);
  const key = getSystemKey(systemParams);
  let plan = entry.plans.get(key);
  if (!plan) {
    plan = createParamPlan(decl, systemParams);
    entry.plans.set(key, plan);
  }
  return plan;
}

/**
 * What an arg a call sends is to a node of `decl`: one of its parameters, a system parameter it
 * declares (kept, never shown: the platform fills it), or unknown (moved aside and reported;
 * a system parameter's name is unknown to a tool that does not declare it, docs/design.md §2.2). The same
 * rule decides `unknown_args` in buildNodeParameters. For an undeclared tool every named arg is
 * kept.
 */
export function getArgKind(
  decl: ToolDeclaration | undefined,
  name: string,
  systemParams: readonly string[] = DEFAULT_SYSTEM_PARAMS,
): 'param' | 'system' | 'unknown' {
  if (!decl) return systemParams.includes(name) ? 'system' : name === '' ? 'unknown' : 'param';
  const plan = getPlan(decl, systemParams);
  if (!plan.declared.has(name)) return 'unknown';
  return plan.system.has(name) ? 'system' : 'param';
}

/** The output ports of a declaration (outputSchema properties, else `result: any`), cached. */
export function getOutputParameters(decl: ToolDeclaration): readonly OutputParameter[] {
  return getDeclarationEntry(decl).outputs;
}

/** The warning for an arg the declaration does not have (it is dropped from the node). */
export function getUnknownArgIssue(name: string, tool: string): NodeIssue {
  return {
    severity: 'warning',
    code: 'unknown_arg',
    message: `Argument "${name}" is not a parameter of tool "${tool}"; it was dropped.`,
    param: name,
  };
}

/** The warning for a property named "" (in the input or output schema), left out of the node. */
function getUnnamedIssue(tool: string, what: 'a parameter' | 'an output'): NodeIssue {
  return {
    severity: 'warning',
    code: 'unnamed_parameter',
    message: `Tool "${tool}" declares ${what} with an empty name; it was left out, as a parameter or port needs a name.`,
  };
}

/**
 * Build a node's parameters from its tool declaration and tool_args by the docs/design.md §2 rules:
 * every non-system property in declaration order; edge → arg (even null) → default (even
 * null, deep-copied) → zero value; `missing_tool_args`, `unknown_args`, a required parameter
 * left zero-filled as an error, and Ajv errors of the effective values mapped to the
 * parameter they concern. An undeclared tool (`decl` undefined) keeps its args as written
 * and is reported as an error.
 */
export function buildNodeParameters(
  decl: ToolDeclaration | undefined,
  args: Record<string, unknown>,
  opts: NodeParameterOptions,
): NodeParameters {
  if (!decl) return buildUndeclared(args, opts.connectedInputs, opts.edgeProblems);
  const plan = getPlan(decl, opts.systemParams ?? DEFAULT_SYSTEM_PARAMS);
  const connected = opts.connectedInputs;
  const anyConnected = connected.size > 0;
  const entries = plan.entries;
  const input_parameters: InputParameter[] = new Array(entries.length);
  const missing_tool_args: string[] = [];
  const problems: NodeIssue[] = [];
  // Values Ajv should see: configured ones (arg or default), never edge blanks or zero guesses.
  const effective: Record<string, unknown> = {};
  let hasDefaultValues = false;

  // Unknown args first: import moves them aside, and the order must survive a round trip. A
  // system parameter's name is skipped only when the tool declares it: sent to a tool that
  // does not, it is an unknown arg like any other (docs/design.md §2.2).
  const unknown_args: string[] = [];
  for (const key of Object.keys(args)) {
    if (plan.declared.has(key)) continue;
    unknown_args.push(key);
    problems.push(getUnknownArgIssue(key, decl.name));
  }
  const declEntry = getDeclarationEntry(decl);
  if (plan.unnamedInput) problems.push(getUnnamedIssue(decl.name, 'a parameter'));
  if (declEntry.unnamedOutput) problems.push(getUnnamedIssue(decl.name, 'an output'));

  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const name = entry.name;
    let value: unknown;
    let origin: InputParameter['origin'];
    if (anyConnected && connected.has(name)) {
      value = '';
      origin = 'edge';
    } else if (args[name] !== undefined && hasMember(args, name)) {
      value = args[name];
      origin = 'arg';
      setJsonMember(effective, name, value);
    } else if (entry.hasDefault) {
      value = entry.defaultNeedsCopy ? cloneJson(entry.defaultValue) : entry.defaultValue;
      origin = 'default';
      setJsonMember(effective, name, value);
      hasDefaultValues = true;
    } else {
      value = getZeroValue(entry.type);
      origin = 'zero';
      missing_tool_args.push(name);
      if (entry.required) {
        problems.push({
          severity: 'error',
          code: 'missing_required',
          message: `Required parameter "${name}" has no value: set it or connect an edge to it.`,
          param: name,
        });
      }
    }
    input_parameters[i] = {
      name,
      type: entry.type,
      value,
      origin,
      required: entry.required,
      description: entry.description,
    };
  }

  if (anyConnected) {
    for (const input of connected) {
      if (plan.declared.has(input) && !plan.system.has(input)) continue;
      problems.push({
        severity: 'error',
        code: 'unknown_input',
        message: `An edge feeds "${input}", which is not an input of tool "${decl.name}": remove the edge.`,
        param: input,
      });
    }
  }

  if (opts.edgeProblems) problems.push(...opts.edgeProblems);

  const checkValues = opts.checkValues ?? true;
  if (Array.isArray(checkValues)) {
    problems.push(...checkValues);
  } else if (checkValues && isValueChecksLoaded()) {
    addValueProblems(decl, effective, input_parameters, connected, hasDefaultValues, problems);
  }

  return {
    input_parameters,
    missing_tool_args,
    unknown_args,
    output_parameters: declEntry.outputs.map((o) => ({ name: o.name, type: o.type })),
    problems,
  };
}

function buildUndeclared(
  args: Record<string, unknown>,
  connected: ReadonlySet<string>,
  edgeProblems: readonly NodeIssue[] = [],
): NodeParameters {
  const input_parameters: InputParameter[] = [];
  const problems: NodeIssue[] = [
    {
      severity: 'error',
      code: 'unknown_tool',
      message: 'The tool of this node is not declared: import its declaration or replace the node.',
    },
  ];
  for (const name of Object.keys(args)) {
    if (args[name] === undefined) continue;
    if (name === '') {
      // Not a parameter without a name (the v1 format refuses ""); say so instead of exporting it.
      problems.push({
        severity: 'warning',
        code: 'unnamed_parameter',
        message: 'An argument with an empty name was left out: a parameter needs a name.',
      });
      continue;
    }
    const fed = connected.has(name);
    input_parameters.push({
      name,
      type: getValueType(args[name]),
      value: fed ? '' : args[name],
      origin: fed ? 'edge' : 'arg',
      required: false,
      description: undefined,
    });
  }
  for (const name of connected) {
    if (name === '' || hasMember(args, name)) continue;
    input_parameters.push({
      name,
      type: 'any',
      value: '',
      origin: 'edge',
      required: false,
      description: undefined,
    });
  }
  problems.push(...edgeProblems);
  return {
    input_parameters,
    missing_tool_args: [],
    unknown_args: [],
    output_parameters: [{ name: 'result', type: 'any' }],
    problems,
  };
}
