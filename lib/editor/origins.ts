/**
 * How a parameter's origin (DESIGN §1) is named and explained in the UI, one vocabulary for
 * the canvas and the inspector. `arg` reads "set": a value in tool_args, from the model or the user.
 */
import type { ParamOrigin } from '../workflow/types';

export const ORIGIN_LABELS: Readonly<Record<ParamOrigin, string>> = {
  edge: 'edge',
  arg: 'set',
  default: 'default',
  zero: 'zero',
};

export const ORIGIN_TITLES: Readonly<Record<ParamOrigin, string>> = {
  edge: 'Fed by an edge: exported as "" and filled from the connected output at run time.',
  arg: 'Set in tool_args, by the model or in the inspector.',
  default: 'The default from the tool’s schema.',
  zero: 'Nothing set and no default: a zero-value placeholder is exported. Set a value or connect an edge.',
};

/** The label of a required parameter that is still zero-filled. */
export const MISSING_LABEL = 'missing';
