/**
 * The commands: the only code that changes a workflow document. Each takes a document and
 * returns the next one (untouched nodes and edges are shared; a command that changes nothing
 * returns the same document, so the editor can skip an undo step). Refusals are values with a
 * reason. The editor's store, the planner (a run's state is a document changed call by call)
 * and the CLI's `build` (a plan is a list of calls) all go through them; see
 * docs/architecture.md.
 */
export * from './document';
export * from './clipboard';
export * from './calls';
export * from './operations';
export { isTypeCompatible } from '../typed-wiring';
