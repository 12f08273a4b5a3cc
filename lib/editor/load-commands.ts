/**
 * The editing commands (lib/workflow/commands, with the declaration hash they need: ~7 KB of
 * gzip) on demand. The first paint shows a document and edits none of it, so the store loads
 * them when an edit asks (see `withCommands` in store.ts) and the editor asks ahead, on the
 * first pointerdown or keydown, so they have usually arrived before a drag or a key needs them.
 */
import { onDemand } from '../on-demand';
import type * as CommandsModule from '../workflow/commands';

export type EditorCommands = typeof CommandsModule;

const commands = onDemand<EditorCommands>(() => import('../workflow/commands'));

/** Loads the editing commands (once; a failed load is retried on the next call). */
export const loadEditorCommands = commands.load;

/** The editing commands if they have finished loading, else undefined. */
export const getLoadedEditorCommands = commands.get;
