/** What a refresh changed in a toolkit: tools added, removed and changed, each change with its diff. */
import { hashDeclaration } from '../tools/canonical-json';
import type { ToolDeclaration } from '../tools/types';
import { getDeclarationDiff, type DeclarationDiff } from './drift';

/** How a refresh changed a toolkit's tools. */
export interface ToolkitChanges {
  added: string[];
  removed: string[];
  changed: { name: string; diff: DeclarationDiff }[];
}

/** Which tools were added, removed or changed between two snapshots, with each change's diff. */
export function getToolkitChanges(
  before: readonly ToolDeclaration[],
  after: readonly ToolDeclaration[],
): ToolkitChanges {
  const old = new Map(before.map((t) => [t.name, t]));
  const now = new Map(after.map((t) => [t.name, t]));
  return {
    added: after.filter((t) => !old.has(t.name)).map((t) => t.name),
    removed: before.filter((t) => !now.has(t.name)).map((t) => t.name),
    changed: after
      .filter((t) => old.has(t.name) && hashDeclaration(old.get(t.name)!) !== hashDeclaration(t))
      .map((t) => ({ name: t.name, diff: getDeclarationDiff(old.get(t.name), t) })),
  };
}
