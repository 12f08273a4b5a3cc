/**
 * How a parameter's origin (docs/design.md, node parameters) is named and explained in the UI,
 * one vocabulary for the canvas and the inspector. `arg` reads "set": a value in tool_args, from
 * the model or the user. An optional parameter nobody set (`zero`) reads "unset": its value is
 * the type's zero-value placeholder, which a test-run does not send (lib/run/arguments.ts), so the
 * UI never shows that placeholder as if it were a chosen value.
 */
import type { ParamOrigin } from '../workflow/types';

export const ORIGIN_LABELS: Readonly<Record<ParamOrigin, string>> = {
  edge: 'edge',
  arg: 'set',
  default: 'default',
  zero: 'unset',
};

export const ORIGIN_TITLES: Readonly<Record<ParamOrigin, string>> = {
  edge: 'Fed by an edge: exported as "" and filled from the connected output at run time.',
  arg: 'Set in tool_args, by the model or in the inspector.',
  default: 'The default from the tool’s schema.',
  zero: 'Not set, and no default: a test-run does not send it; the export keeps a zero placeholder.',
};

/** The label of a required parameter that is still zero-filled. */
export const MISSING_LABEL = 'missing';
export const MISSING_TITLE = 'Required, and no value yet: set one or connect an edge.';

/** What an unset optional parameter shows in place of its placeholder value. */
export const UNSET_VALUE_TEXT = 'not sent';
