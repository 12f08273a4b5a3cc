/**
 * Embedded database only: what the link check found, remembered until the database next changes
 * a share or a workflow. PGlite lives inside this one process (nothing else can open its data
 * directory), so this process sees every write, and the database itself says when one happened:
 * statement triggers on "Share" and "Workflow" send a notification that PGlite hands to this
 * process before the writing query's promise settles (installShareChangeWatch). A revocation, an
 * expiry edit, a save (a new version) or a deletion therefore empties the memory before the API
 * that made it answers, and the very next share request asks the database again. Expiry itself is
 * checked against the clock on every use.
 *
 * On Postgres other processes write too and a notification arrives only later, so there the
 * check asks the database on every request (lib/db/shares.ts).
 */

/** The link check's row, as the database gave it. */
export interface LiveShareRow {
  id: string;
  workflowId: string;
  role: string;
  createdAt: Date | string;
  expiresAt: Date | string | null;
  revokedAt: Date | string | null;
  version: number;
}

export interface LiveShareMemo {
  /** The row found for a token hash (null: none), or undefined when not remembered. */
  get(tokenHash: string): LiveShareRow | null | undefined;
  /**
   * Remembers `row` for `tokenHash` unless the database changed since `generation` was read
   * (the row may predate the change).
   */
  set(tokenHash: string, row: LiveShareRow | null, generation: number): void;
  /** Read before asking the database; pass it to set. */
  generation(): number;
  /** The database changed a share or a workflow: forget everything. */
  invalidate(): void;
}

export function createLiveShareMemo(maxEntries = 10_000): LiveShareMemo {
  const rows = new Map<string, LiveShareRow | null>();
  let generation = 0;
  return {
    get: (tokenHash) => rows.get(tokenHash),
    set(tokenHash, row, readAt) {
      if (readAt !== generation) return;
      // Junk tokens are remembered too (as null); a flood of them only ever empties the memory.
      if (rows.size >= maxEntries) rows.clear();
      rows.set(tokenHash, row);
    },
    generation: () => generation,
    invalidate() {
      generation += 1;
      rows.clear();
    },
  };
}

const CHANNEL = 'toolflow_share_changed';

/**
 * The triggers: one notification per statement that writes "Share" (a link made, revoked,
 * deleted) or "Workflow" (a save changes its version, a deletion ends its links), cascades and
 * TRUNCATE included. Kept out of the migrations, which Postgres runs too: there nobody listens,
 * and NOTIFY would serialise the commits of every save.
 */
const WATCH_SQL = `
CREATE OR REPLACE FUNCTION toolflow_share_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANNEL}', '');
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER toolflow_share_changed AFTER INSERT OR UPDATE OR DELETE ON "Share"
  FOR EACH STATEMENT EXECUTE FUNCTION toolflow_share_changed();
CREATE OR REPLACE TRIGGER toolflow_share_truncated AFTER TRUNCATE ON "Share"
  FOR EACH STATEMENT EXECUTE FUNCTION toolflow_share_changed();
CREATE OR REPLACE TRIGGER toolflow_workflow_changed AFTER UPDATE OR DELETE ON "Workflow"
  FOR EACH STATEMENT EXECUTE FUNCTION toolflow_share_changed();
CREATE OR REPLACE TRIGGER toolflow_workflow_truncated AFTER TRUNCATE ON "Workflow"
  FOR EACH STATEMENT EXECUTE FUNCTION toolflow_share_changed();
`;

interface Listenable {
  exec(sql: string): Promise<unknown>;
  listen(channel: string, callback: (payload: string) => void): Promise<unknown>;
}

/**
 * Installs the triggers on an embedded database and empties `memo` on each notification. Returns
 * the memo, or undefined when the watch could not be set up (then nothing is remembered).
 */
export async function installShareChangeWatch(
  pglite: Listenable,
  memo: LiveShareMemo = createLiveShareMemo(),
): Promise<LiveShareMemo | undefined> {
  try {
    await pglite.exec(WATCH_SQL);
    await pglite.listen(CHANNEL, () => memo.invalidate());
    return memo;
  } catch {
    return undefined;
  }
}
