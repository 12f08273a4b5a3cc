/**
 * What the offline planner knows about each tool: the words of its name, description and
 * parameters (for ranking), each parameter's type, enum and words (for filling arguments) and
 * its outputs (for wiring). Built once per planning run.
 */
import { getObjectProperties, isJsonObject, resolveSchema } from '../../tools/json-schema';
import type { ToolDeclaration } from '../../tools/types';
import { getOutputParameters, getParamPlan } from '../../workflow/params';
import type { ParamType } from '../../workflow/types';
import { tokenSet } from './text';

export interface IndexedParam {
  name: string;
  type: ParamType;
  required: boolean;
  enum?: unknown[];
  nameTokens: Set<string>;
  descriptionTokens: Set<string>;
  /** The description as written (Chinese phrases are matched on it directly). */
  description: string;
}

export interface IndexedOutput {
  name: string;
  type: ParamType;
  nameTokens: Set<string>;
}

export interface IndexedTool {
  declaration: ToolDeclaration;
  /** Position in the tool list (ties go to the earlier tool). */
  order: number;
  nameTokens: Set<string>;
  descriptionTokens: Set<string>;
  paramTokens: Set<string>;
  params: IndexedParam[];
  outputs: IndexedOutput[];
}

export interface ToolIndex {
  tools: IndexedTool[];
  byName: Map<string, IndexedTool>;
  /** ln(1 + tools / tools-containing-token): rare words weigh more. */
  idf(token: string): number;
}

/** Index the tools for ranking and argument filling. */
export function createToolIndex(tools: ToolDeclaration[], systemParams?: readonly string[]): ToolIndex {
  const indexed = tools.map((declaration, order) => indexTool(declaration, order, systemParams));
  const documentFrequency = new Map<string, number>();
  for (const tool of indexed) {
    const all = new Set([...tool.nameTokens, ...tool.descriptionTokens, ...tool.paramTokens]);
    for (const token of all) documentFrequency.set(token, (documentFrequency.get(token) ?? 0) + 1);
  }
  const count = Math.max(indexed.length, 1);
  return {
    tools: indexed,
    byName: new Map(indexed.map((t) => [t.declaration.name, t])),
    idf: (token) => Math.log(1 + count / (documentFrequency.get(token) ?? count)),
  };
}

function indexTool(
  declaration: ToolDeclaration,
  order: number,
  systemParams?: readonly string[],
): IndexedTool {
  const root = isJsonObject(declaration.inputSchema) ? declaration.inputSchema : {};
  const schemas = new Map(
    getObjectProperties(root, root).properties.map((p) => [p.name, resolveSchema(p.schema, root)]),
  );
  const params: IndexedParam[] = getParamPlan(declaration, systemParams).map((entry) => {
    const schema = schemas.get(entry.name) ?? {};
    const description = entry.description ?? '';
    return {
      name: entry.name,
      type: entry.type,
      required: entry.required,
      ...(Array.isArray(schema.enum) ? { enum: schema.enum } : {}),
      nameTokens: tokenSet(entry.name),
      descriptionTokens: tokenSet(description),
      description,
    };
  });
  const outputs = getOutputParameters(declaration).map((o) => ({
    name: o.name,
    type: o.type,
    nameTokens: tokenSet(o.name),
  }));
  const paramTokens = new Set<string>();
  for (const p of params) for (const t of [...p.nameTokens, ...p.descriptionTokens]) paramTokens.add(t);
  return {
    declaration,
    order,
    nameTokens: tokenSet(declaration.name),
    descriptionTokens: tokenSet(`${declaration.title ?? ''} ${declaration.description}`),
    paramTokens,
    params,
    outputs,
  };
}

/** How well a clause names a tool: tool-level (name, description) and parameter-level parts. */
export interface ToolScore {
  tool: IndexedTool;
  /** From the tool's name and description: a clause must match here to pick the tool. */
  toolLevel: number;
  /** The part of `toolLevel` that comes from the tool's name. */
  nameLevel: number;
  /** From parameter names and descriptions only. */
  paramLevel: number;
}

/** Score every tool against a clause's tokens, best first (ties: declaration order). */
export function rankTools(index: ToolIndex, clauseTokens: Iterable<string>): ToolScore[] {
  const unique = new Set(clauseTokens);
  const scores = index.tools.map((tool) => {
    let toolLevel = 0;
    let nameLevel = 0;
    let paramLevel = 0;
    for (const token of unique) {
      const weight = index.idf(token);
      if (tool.nameTokens.has(token)) {
        toolLevel += 3 * weight;
        nameLevel += 3 * weight;
      } else if (tool.descriptionTokens.has(token)) toolLevel += 2 * weight;
      if (tool.paramTokens.has(token)) paramLevel += weight;
    }
    return { tool, toolLevel, nameLevel, paramLevel };
  });
  return scores.sort(
    (a, b) =>
      b.toolLevel + 0.25 * b.paramLevel - (a.toolLevel + 0.25 * a.paramLevel) || a.tool.order - b.tool.order,
  );
}
