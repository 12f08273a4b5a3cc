/**
 * Operations: the changes a call made, as data. A planning run streams them and the editor
 * replays them on the document it had when the run started, as one undoable change; the call
 * road (calls.ts) records them as it applies a call, so replaying them gives the same document.
 * Every operation is applied by the commands.
 */
import { err, joinPointer, ok, type Issue, type Result } from '../../result';
import type { ToolDeclaration } from '../../tools/types';
import { DERIVED_PROBLEM_CODES } from '../node-parameters';
import { findNode, getToolSnapshot, inBatch } from '../graph';
import { getGridPosition } from '../references';
import { asNodeId, type NodeIssue, type WorkflowDocument } from '../types';
import {
  addNode,
  addNodeNotes,
  addUnknownArgs,
  clearParamNotes,
  connect,
  disconnect,
  removeNodes,
  resetArg,
  setArg,
  type Connection,
} from './document';

/** A step a call added: what an `add_step` operation carries and the planner streams. */
export interface AddedStep {
  id: string;
  tool: string;
  /** Declared args only: references became edges, unknown args are listed apart. */
  args: Record<string, unknown>;
  /** Args the call sent that the declaration does not have. */
  unknownArgs: string[];
  /** The argument text as sent, when it was not valid JSON (repaired or not). */
  rawArguments?: string;
  /** The node's notes (what reading the call and wiring its references found), then the
   * problems its parameters had when it was added (derived again on every render). */
  issues: NodeIssue[];
}

/** One change to a workflow, as a planning run records it. */
export type WorkflowOperation =
  | { op: 'add_step'; step: AddedStep }
  | {
      op: 'update_step';
      stepId: string;
      args: Record<string, unknown>;
      unset: string[];
      /** Args the declaration lacks, recorded on the node as unknown. */
      unknownArgs?: string[];
      /** Notes for the node: references that could not be wired. Each replaces the node's
       * older notes about its parameter, as setting an arg (or `unset`) drops them. */
      notes?: NodeIssue[];
    }
  | { op: 'remove_step'; stepId: string }
  | { op: 'connect'; edge: Connection }
  | { op: 'disconnect'; edge: Connection };

/** The notes of a step, without the problems the node-parameter builder derives again. */
export function getStepNotes(issues: readonly NodeIssue[]): NodeIssue[] {
  return issues.filter((i) => !DERIVED_PROBLEM_CODES.has(i.code));
}

/**
 * Apply `ops` in order to `doc` (which is not modified) and return the next document. `tools`
 * resolves the tools of new steps (the document's snapshots are used when a tool is not
 * listed; a tool neither knows becomes an undeclared node that keeps its args). All or
 * nothing: any operation that does not fit gives the issues, each at `/operations/<i>`. One
 * batch (`inBatch`), so replaying n operations is linear.
 */
export function applyOperations(
  doc: WorkflowDocument,
  ops: readonly WorkflowOperation[],
  tools: readonly ToolDeclaration[] = [],
): Result<WorkflowDocument> {
  return inBatch(() => applyEach(doc, ops, tools));
}

function applyEach(
  doc: WorkflowDocument,
  ops: readonly WorkflowOperation[],
  tools: readonly ToolDeclaration[],
): Result<WorkflowDocument> {
  const byName = new Map<string, ToolDeclaration>();
  for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  const issues: Issue[] = [];
  let next = doc;
  ops.forEach((operation, i) => {
    const at = joinPointer('/operations', i);
    const hasNode = (id: string) => findNode(next, id) !== undefined;
    switch (operation.op) {
      case 'add_step': {
        const { step } = operation;
        if (hasNode(step.id)) {
          issues.push({
            path: `${at}/step/id`,
            code: 'duplicate_id',
            message: `The workflow already has a step "${step.id}"; it changed while planning. Plan again.`,
          });
          return;
        }
        const decl = byName.get(step.tool) ?? getToolSnapshot(next, step.tool)?.declaration ?? step.tool;
        next = addNode(next, decl, getGridPosition(next.nodes.length), step.args, asNodeId(step.id), {
          unknownArgs: step.unknownArgs,
          ...(step.rawArguments !== undefined ? { rawArguments: step.rawArguments } : {}),
          notes: getStepNotes(step.issues),
        });
        return;
      }
      case 'update_step': {
        if (!hasNode(operation.stepId)) {
          issues.push({
            path: `${at}/stepId`,
            code: 'unknown_step',
            message: `There is no step "${operation.stepId}" to update; it was removed while planning. Plan again.`,
          });
          return;
        }
        for (const name of Object.keys(operation.args))
          next = setArg(next, operation.stepId, name, operation.args[name]);
        for (const name of operation.unset) next = resetArg(next, operation.stepId, name);
        if (operation.unknownArgs) {
          // Sent again, an unknown arg's older notes (a value cut off) are stale too.
          next = clearParamNotes(next, operation.stepId, operation.unknownArgs);
          next = addUnknownArgs(next, operation.stepId, operation.unknownArgs);
        }
        if (operation.notes) {
          // A note of the update (a reference that could not be wired) takes the place of the
          // older notes about its parameter.
          const about = operation.notes.flatMap((n) => (n.param === undefined ? [] : [n.param]));
          next = addNodeNotes(
            clearParamNotes(next, operation.stepId, about),
            operation.stepId,
            operation.notes,
          );
        }
        return;
      }
      case 'remove_step':
        if (!hasNode(operation.stepId)) {
          issues.push({
            path: `${at}/stepId`,
            code: 'unknown_step',
            message: `There is no step "${operation.stepId}" to remove; it was already removed. Plan again.`,
          });
          return;
        }
        next = removeNodes(next, [operation.stepId]);
        return;
      case 'connect': {
        const result = connect(next, operation.edge);
        if (result.ok) next = result.value;
        else for (const issue of result.error) issues.push({ ...issue, path: `${at}/edge${issue.path}` });
        return;
      }
      case 'disconnect': {
        const { edge } = operation;
        const found = findEdge(next, edge);
        if (!found) {
          issues.push({
            path: `${at}/edge`,
            code: 'unknown_edge',
            message: `There is no edge ${edge.source}.${edge.sourceOutput} → ${edge.target}.${edge.targetInput} to remove; it changed while planning. Plan again.`,
          });
          return;
        }
        next = disconnect(next, found.id);
        return;
      }
    }
  });
  return issues.length > 0 ? err(issues) : ok(next);
}

/** The edge of `doc` between these two ends, if there is one. */
export function findEdge(doc: WorkflowDocument, c: Connection) {
  return doc.edges.find(
    (e) =>
      e.source === c.source &&
      e.sourceOutput === c.sourceOutput &&
      e.target === c.target &&
      e.targetInput === c.targetInput,
  );
}
