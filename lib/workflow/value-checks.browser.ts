/**
 * `#value-checks` in the browser (package.json `imports`): value-checks.ts and Ajv load on demand,
 * together, not with the page. Until `loadValueChecks()` has resolved, `isValueChecksLoaded()` is
 * false and the parameter builder leaves values unchecked (params.ts); the editor loads them after
 * its first paint, or with the first change when the server sent the value problems, and then
 * checks every node (lib/editor/store.ts, `enableValueChecks`).
 */
import type * as ValueChecksModule from './value-checks';

type ValueChecks = typeof ValueChecksModule;

let loaded: ValueChecks | undefined;
let loading: Promise<void> | undefined;

export function isValueChecksLoaded(): boolean {
  return loaded !== undefined;
}

/** Loads the value checks and the schema compiler (once; a failed load is retried on the next call). */
export function loadValueChecks(): Promise<void> {
  loading ??= import('./value-checks').then(
    async (module) => {
      await module.loadValueChecks();
      loaded = module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** As value-checks.ts's addValueProblems; throws when called before loadValueChecks resolved. */
export function addValueProblems(...args: Parameters<ValueChecks['addValueProblems']>): void {
  if (!loaded) throw new Error('addValueProblems was called before loadValueChecks() resolved.');
  loaded.addValueProblems(...args);
}
