/**
 * The auto-layout engine (dagre, about 15 KB of gzip) on demand: loaded when a graph is first
 * laid out (the toolbar's Auto-layout, or a plan about to be applied), once per page.
 */
import type * as AutoLayoutModule from './auto-layout';

export type AutoLayout = typeof AutoLayoutModule;

let loaded: AutoLayout | undefined;
let loading: Promise<AutoLayout> | undefined;

/** Loads the auto-layout module (once; a failed load is retried on the next call). */
export function loadAutoLayout(): Promise<AutoLayout> {
  loading ??= import('./auto-layout').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The auto-layout module if it has finished loading, else undefined. */
export function getLoadedAutoLayout(): AutoLayout | undefined {
  return loaded;
}
