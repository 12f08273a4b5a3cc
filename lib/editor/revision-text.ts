/**
 * What a history entry says it is, in the History dialog's words: "Planned from: <task>",
 * "Created", "Autosaved", "Plan applied", "Restored from version 3", "Imported", … with its name
 * when someone named it and its new workflow name when it was renamed.
 */

/** The fields of a listed history entry these words are made from. */
export interface RevisionEntry {
  version: number;
  firstVersion: number;
  name: string;
  label: string | null;
  reason: string;
  task: string | null;
}

const REASONS: Record<string, string> = {
  save: 'Autosaved',
  plan: 'Plan applied',
  resolve: 'Kept through a conflict',
  import: 'Imported',
  fork: 'Forked from a shared link',
  duplicate: 'Duplicated from another workflow',
};

/** Why the entry exists, as a short phrase. */
export function describeReason(entry: Pick<RevisionEntry, 'reason' | 'task'>): string {
  if (entry.reason === 'create') return entry.task?.trim() ? `Planned from: ${entry.task.trim()}` : 'Created';
  const restored = /^restore:(\d+)$/.exec(entry.reason);
  if (restored) return `Restored from version ${restored[1]}`;
  return REASONS[entry.reason] ?? entry.reason;
}

/** "version 7", or "versions 3–7" for an entry autosaves were folded into. */
export function describeVersions(entry: Pick<RevisionEntry, 'version' | 'firstVersion'>): string {
  return entry.firstVersion < entry.version
    ? `versions ${entry.firstVersion}–${entry.version}`
    : `version ${entry.version}`;
}

/**
 * The parts of an entry's headline, in order: its given name (`Named “…”`), why it exists, and
 * `Renamed “…”` when the workflow's name differs from the entry before it (`older`, the next one
 * down the list; none for the oldest listed).
 */
export function describeRevision(entry: RevisionEntry, older?: Pick<RevisionEntry, 'name'>): string[] {
  const parts: string[] = [];
  if (entry.label) parts.push(`Named “${entry.label}”`);
  parts.push(describeReason(entry));
  if (older && older.name !== entry.name) parts.push(`Renamed “${entry.name}”`);
  return parts;
}
