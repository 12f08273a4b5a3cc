/**
 * `#value-checks` in the browser (package.json `imports`): value-checks.ts and Ajv load on demand,
 * together, not with the page. Until `loadValueChecks()` has resolved, `isValueChecksLoaded()` is
 * false and the parameter builder leaves values unchecked (params.ts); the editor loads them after
 * its first paint, or with the first change when the server sent the value problems, and then
 * checks every node (lib/editor/store.ts, `enableValueChecks`).
 */
import { onDemand } from '../on-demand';
import type * as ValueChecksModule from './value-checks';

type ValueChecks = typeof ValueChecksModule;

const valueChecks = onDemand<ValueChecks>(async () => {
  const checks = await import('./value-checks');
  await checks.loadValueChecks();
  return checks;
});

export function isValueChecksLoaded(): boolean {
  return valueChecks.get() !== undefined;
}

/** Loads the value checks and the schema compiler (once; a failed load is retried on the next call). */
export async function loadValueChecks(): Promise<void> {
  await valueChecks.load();
}

/** As value-checks.ts's addValueProblems; throws when called before loadValueChecks resolved. */
export function addValueProblems(...args: Parameters<ValueChecks['addValueProblems']>): void {
  const loaded = valueChecks.get();
  if (!loaded) throw new Error('addValueProblems was called before loadValueChecks() resolved.');
  loaded.addValueProblems(...args);
}
