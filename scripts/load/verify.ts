/**
 * After the run: every save the server acknowledged must be in the database. Checked against
 * Postgres directly (not through the app), from the hashes of the documents that were sent.
 */
import { createHash } from 'node:crypto';

/** A write the server acknowledged (201 on create, 200 on save) and what it was sent. */
export interface Ack {
  workflowId: string;
  version: number;
  /** sha256 (hex) of `JSON.stringify(document)` as sent. */
  hash: string;
}

/** What the database holds for one workflow. */
export interface StoredWorkflow {
  version: number;
  hash: string;
  /** History entries by the version each keeps: their document hashes. */
  revisions: Map<number, string>;
  /**
   * Versions folded into a later autosave entry (from an entry's `firstVersion` up to the version
   * before the one it keeps): saved and acknowledged, but no longer in the history, by design.
   */
  folded: Set<number>;
}

export interface VerifyResult {
  workflows: number;
  acknowledged: number;
  /** Acknowledged saves whose version and document are not where they must be. */
  lostSaves: number;
  /** Versions acknowledged to two writers (a lost update). */
  duplicateAcks: number;
  /** Acknowledged versions older than the retention window, legitimately pruned. */
  pruned: number;
  /** Acknowledged versions folded into a later autosave entry, legitimately not kept apart. */
  folded: number;
  /** Versions stored that no request was told about (a write after its request failed). */
  unacknowledged: number;
  problems: string[];
}

/** The document hash the load test records for a save and looks for in the database. */
export function hashDocument(document: unknown): string {
  return hashDocumentText(JSON.stringify(document));
}

/** The same hash of a document already serialised with JSON.stringify. */
export function hashDocumentText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Compares the acknowledged saves with the stored rows. `retention` is how many unlabelled
 * history entries the server keeps (older ones are pruned by design, so they may be missing);
 * an entry stands for one version or more, so at least the last `retention` versions are kept,
 * each as an entry or folded into one.
 */
export function verifyAcks(
  acks: readonly Ack[],
  stored: ReadonlyMap<string, StoredWorkflow>,
  retention: number,
): VerifyResult {
  const result: VerifyResult = {
    workflows: 0,
    acknowledged: acks.length,
    lostSaves: 0,
    duplicateAcks: 0,
    pruned: 0,
    folded: 0,
    unacknowledged: 0,
    problems: [],
  };
  const problem = (text: string) => {
    if (result.problems.length < 50) result.problems.push(text);
  };
  const byWorkflow = new Map<string, Map<number, string>>();
  for (const ack of acks) {
    let versions = byWorkflow.get(ack.workflowId);
    if (!versions) byWorkflow.set(ack.workflowId, (versions = new Map()));
    if (versions.has(ack.version)) {
      result.duplicateAcks += 1;
      problem(`${ack.workflowId}: version ${ack.version} was acknowledged twice (lost update)`);
      continue;
    }
    versions.set(ack.version, ack.hash);
  }
  result.workflows = byWorkflow.size;
  for (const [id, versions] of byWorkflow) {
    const row = stored.get(id);
    if (!row) {
      result.lostSaves += versions.size;
      problem(`${id}: not in the database (${versions.size} acknowledged versions)`);
      continue;
    }
    const highest = Math.max(...versions.keys());
    if (row.version < highest) {
      problem(`${id}: stored version ${row.version} is below the highest acknowledged (${highest})`);
    } else if (row.version === highest && row.hash !== versions.get(highest)) {
      result.lostSaves += 1;
      problem(`${id}: stored document is not the one acknowledged with version ${highest}`);
    } else if (row.version > highest) {
      problem(`${id}: stored version ${row.version} is above the highest acknowledged (${highest})`);
    }
    const oldestKept = row.version - retention + 1;
    const oldestEntry = Math.min(...row.revisions.keys(), ...row.folded);
    for (const [version, hash] of versions) {
      const revision = row.revisions.get(version);
      if (revision === undefined) {
        if (row.folded.has(version)) {
          result.folded += 1;
        } else if (version < oldestKept && version < oldestEntry) {
          result.pruned += 1;
        } else {
          result.lostSaves += 1;
          problem(`${id}: acknowledged version ${version} has no revision`);
        }
      } else if (revision !== hash) {
        result.lostSaves += 1;
        problem(`${id}: revision ${version} holds another document than the one acknowledged`);
      }
    }
    for (let version = Math.max(1, oldestKept); version <= row.version; version++) {
      if (!versions.has(version) && row.revisions.has(version)) {
        result.unacknowledged += 1;
        problem(`${id}: version ${version} is stored but was never acknowledged`);
      }
    }
    for (let version = Math.max(1, oldestKept); version <= row.version; version++) {
      if (!row.revisions.has(version) && !row.folded.has(version) && !versions.has(version)) {
        problem(`${id}: version ${version} is missing from the revisions (a gap)`);
      }
    }
  }
  return result;
}

/** True when nothing the server acknowledged is missing, duplicated or unexplained. */
export function isClean(result: VerifyResult): boolean {
  return (
    result.lostSaves === 0 &&
    result.duplicateAcks === 0 &&
    result.unacknowledged === 0 &&
    result.problems.length === 0
  );
}
