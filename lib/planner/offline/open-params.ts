/**
 * What a clause says about the parameters of a tool that a step has not set yet: a value with a
 * place there, a value assigned to one by a copula, and the boolean and enum options it sets. The
 * planner uses these to tell a clause that refines the step before it from one that is a step of
 * its own.
 */
import type { Clause, PlacedLiteral } from './clauses';
import type { IndexedTool, ToolIndex } from './tool-index';
import { getContext, getContextScore, getNamingScore } from './context';
import { findEnumValue, readBoolean } from './options';
import { placeLiteral } from './place';

/** Whether a value has a place among the parameters of `tool` that the step has not set. */
export function fitsOpenParam(
  index: ToolIndex,
  tool: IndexedTool,
  clause: Clause,
  placed: PlacedLiteral,
  already: Record<string, unknown>,
): boolean {
  const context = getContext(index, clause, clause.literals.indexOf(placed));
  return tool.params.some(
    (param) =>
      (param.stringList || !(param.name in already)) &&
      (placeLiteral(index, placed, param, context) !== null ||
        (param.fields ?? []).some(
          (f) => getNamingScore(f, placed, context) > 0 && placeLiteral(index, placed, f, context) !== null,
        )),
  );
}

/** "提交信息为 'fix typo'", "message: 'x'", "the title is 'Q1'": a value introduced by a copula. */
const ASSIGNMENT = /(?:为|是|设为|设置为|改为|[:：=]|\bis|\bbe)\s*$/i;

/**
 * Whether a value is assigned to a parameter of `tool` the step has not set: introduced by a
 * copula (`ASSIGNMENT`), and placed there by the words before it, not by its type alone.
 */
export function isAssignedToParam(
  index: ToolIndex,
  tool: IndexedTool,
  clause: Clause,
  placed: PlacedLiteral,
  already: Record<string, unknown>,
): boolean {
  if (!ASSIGNMENT.test(placed.before)) return false;
  const context = getContext(index, clause, clause.literals.indexOf(placed));
  return tool.params.some(
    (param) =>
      !(param.name in already) &&
      placeLiteral(index, placed, param, context) !== null &&
      getContextScore(param, context) > 0,
  );
}

/** The boolean and enum parameters of `tool` that `clause` sets. */
export function getOptionSettings(tool: IndexedTool, clause: Clause) {
  return tool.params.filter((param) => {
    if (param.type === 'bool') return readBoolean(clause, param) !== undefined;
    if (param.enum) return findEnumValue([clause], param.enum) !== undefined;
    return false;
  });
}
