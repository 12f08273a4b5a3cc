/**
 * The auto-layout engine (dagre, about 15 KB of gzip) on demand: loaded when a graph is first
 * laid out (the toolbar's Auto-layout, or a plan about to be applied), once per page.
 */
import { onDemand } from '../on-demand';
import type * as AutoLayoutModule from './auto-layout';

export type AutoLayout = typeof AutoLayoutModule;

const autoLayout = onDemand<AutoLayout>(() => import('./auto-layout'));

/** Loads the auto-layout module (once; a failed load is retried on the next call). */
export const loadAutoLayout = autoLayout.load;

/** The auto-layout module if it has finished loading, else undefined. */
export const getLoadedAutoLayout = autoLayout.get;
