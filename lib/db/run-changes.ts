import 'server-only';
/**
 * Telling the people following a run that it changed, as it happens. Every stored change of a run
 * (lib/db/runs.ts) announces itself after it commits:
 *
 * - in this process, at once, to everyone subscribed to that run (an event stream, a worker
 *   waiting for a cancel);
 * - on Postgres, where the worker may be another process (or another machine), also with
 *   `pg_notify` inside the writing transaction, so it is delivered when the change commits. Each
 *   process keeps one dedicated connection that LISTENs (opened when the first subscriber comes,
 *   closed a little after the last one leaves) and fans each notification out to its own
 *   subscribers. A process ignores its own notifications: it told its subscribers already (two
 *   database clients in one process, as tests make, count as two processes).
 *
 * The embedded database (PGlite) has one process, so there the in-process announcement is all.
 * A notification can be lost (the listening connection drops and is opened again): subscribers
 * are told to look again when it is back, and the event stream still looks now and then on its
 * own (app/api/runs/[runId]/events).
 */
import { randomBytes } from 'node:crypto';
import type { Client as PgClient } from 'pg';
import { findDatabaseBacking, type Db } from './client';

/** What changed: a cancel request (a worker acts on it) or anything else stored about the run. */
export type RunChangeKind = 'cancel' | 'progress';

type Listener = (kind: RunChangeKind) => void;

export const RUN_CHANGE_CHANNEL = 'toolflow_run_changed';
/** How long an unused listening connection stays open (runs followed one after another). */
const IDLE_CLOSE_MS = 5_000;
/** How long after a dropped listening connection it is opened again. */
const RECONNECT_MS = 1_000;

interface Hub {
  /** Tells this client's notifications apart from other processes' (and other clients'). */
  token: string;
  subscribers: Map<string, Set<Listener>>;
  /** The listening connection on Postgres, while someone is subscribed (or shortly after). */
  listener?: { client: Promise<PgClient | null>; closing?: ReturnType<typeof setTimeout> };
}

// On globalThis, like the client's backings: route handlers, the worker and the proxy may each
// hold their own copy of this module in one process.
const hubs: WeakMap<Db, Hub> = ((globalThis as Record<symbol, WeakMap<Db, Hub>>)[
  Symbol.for('toolflow.run-changes')
] ??= new WeakMap());

function getHub(db: Db): Hub {
  let hub = hubs.get(db);
  if (!hub) {
    hub = { token: randomBytes(6).toString('hex'), subscribers: new Map() };
    hubs.set(db, hub);
  }
  return hub;
}

function fanOut(hub: Hub, runId: string, kind: RunChangeKind): void {
  for (const listener of hub.subscribers.get(runId) ?? []) listener(kind);
}

/** Every subscriber looks again (a notification may have been missed). */
function wakeAll(hub: Hub): void {
  for (const runId of hub.subscribers.keys()) fanOut(hub, runId, 'progress');
}

/** `<process token>:<kind>:<run id>`, as getRunChangeNotice sends it. */
function parsePayload(payload: string | undefined) {
  const [token, kind, runId] = (payload ?? '').split(':');
  if (!runId || (kind !== 'cancel' && kind !== 'progress')) return undefined;
  return { token, kind: kind as RunChangeKind, runId };
}

/** Opens the listening connection; null when it cannot (the stream's own look-ups cover). */
function listen(db: Db, hub: Hub, url: string): Promise<PgClient | null> {
  let client: PgClient | undefined;
  const dropped = () => {
    if (hub.listener?.client !== opened) return;
    hub.listener = undefined;
    client?.end().catch(() => {});
    // Still followed: listen again soon, and have everyone look meanwhile.
    wakeAll(hub);
    if (hub.subscribers.size > 0) {
      setTimeout(() => {
        if (hub.subscribers.size > 0 && !hub.listener) startListening(db, hub);
      }, RECONNECT_MS).unref();
    }
  };
  const opened = (async () => {
    const { default: pg } = await import('pg');
    client = new pg.Client({ connectionString: url, application_name: 'toolflow-run-changes' });
    try {
      client.on('error', dropped);
      client.on('end', dropped);
      client.on('notification', (message) => {
        const change = parsePayload(message.payload);
        if (change && change.token !== hub.token) fanOut(hub, change.runId, change.kind);
      });
      await client.connect();
      await client.query(`LISTEN ${RUN_CHANGE_CHANNEL}`);
      // Changes made while the connection opened were not heard: look now.
      wakeAll(hub);
      return client;
    } catch (error) {
      console.error('toolflow: listening for run changes failed:', (error as Error).message);
      client.end().catch(() => {});
      return null;
    }
  })();
  return opened;
}

function startListening(db: Db, hub: Hub): void {
  const backing = findDatabaseBacking(db);
  if (backing?.kind !== 'postgres') return;
  hub.listener = { client: listen(db, hub, backing.url) };
}

/** Closes the listening connection once nobody is subscribed for a while. */
function scheduleClose(hub: Hub): void {
  const listener = hub.listener;
  if (!listener || listener.closing) return;
  listener.closing = setTimeout(() => {
    if (hub.listener !== listener || hub.subscribers.size > 0) return;
    hub.listener = undefined;
    void listener.client.then((client) => client?.end().catch(() => {}));
  }, IDLE_CLOSE_MS);
  listener.closing.unref();
}

/**
 * Calls `listener` each time run `runId` changes, in this process or (on Postgres) any other,
 * until the returned function is called.
 */
export function onRunChange(db: Db, runId: string, listener: Listener): () => void {
  const hub = getHub(db);
  let listeners = hub.subscribers.get(runId);
  if (!listeners) {
    listeners = new Set();
    hub.subscribers.set(runId, listeners);
  }
  listeners.add(listener);
  if (hub.listener?.closing) {
    clearTimeout(hub.listener.closing);
    hub.listener.closing = undefined;
  }
  if (!hub.listener) startListening(db, hub);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && hub.subscribers.get(runId) === listeners) hub.subscribers.delete(runId);
    if (hub.subscribers.size === 0) scheduleClose(hub);
  };
}

/**
 * The statement a write puts in its transaction on Postgres, so other processes hear of the change
 * when it commits; undefined on the embedded database (one process: nobody else to tell).
 */
export function getRunChangeNotice(db: Db, runId: string, kind: RunChangeKind = 'progress') {
  if (findDatabaseBacking(db)?.kind !== 'postgres') return undefined;
  const payload = `${getHub(db).token}:${kind}:${runId}`;
  return db.$executeRaw`SELECT pg_notify(${RUN_CHANGE_CHANNEL}, ${payload})`;
}

/** Tells this process's subscribers that runs changed (after the change committed). */
export function announceRunChange(db: Db, runIds: readonly string[], kind: RunChangeKind = 'progress'): void {
  const hub = hubs.get(db);
  if (!hub) return;
  for (const runId of runIds) fanOut(hub, runId, kind);
}

/** Announces a change already committed, here and (on Postgres) to other processes. */
export async function notifyRunChange(
  db: Db,
  runId: string,
  kind: RunChangeKind = 'progress',
): Promise<void> {
  await getRunChangeNotice(db, runId, kind);
  announceRunChange(db, [runId], kind);
}

/** Closes the listening connection now (tests and shutdown). */
export async function stopRunChanges(db: Db): Promise<void> {
  const hub = hubs.get(db);
  const listener = hub?.listener;
  if (!hub || !listener) return;
  hub.listener = undefined;
  if (listener.closing) clearTimeout(listener.closing);
  const client = await listener.client;
  await client?.end().catch(() => {});
}
