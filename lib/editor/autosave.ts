/**
 * Autosave: nothing the user does is lost or silently overwritten.
 *
 * - Edits are saved after they settle (debounced), each PUT naming the version it was based on.
 *   A rename (the store's `setName`) is saved the same way, with the document, so a name and an
 *   edit never race each other for a version.
 * - Each save says why (`reason`): an autosave, which the server folds into the history's
 *   autosave entry of the last few minutes; the result of a planning run (`plan`); or a copy kept
 *   through a conflict (`resolve`). The last two are history entries of their own.
 * - Every unsaved document is also kept in localStorage until the server has it, so a closed
 *   tab, a crash or a database outage loses nothing; the editor restores it on the next load.
 * - 503 or no network: the editor keeps working, says so, and retries with backoff (and at once
 *   when the browser comes back online).
 * - 409: the workflow changed elsewhere (another tab, another device). The editor keeps my copy,
 *   shows both, and the user chooses: merge both (three-way, against the version both started
 *   from), reload theirs, or keep mine (written as a new version on top of theirs — theirs stays
 *   in the history). Never a silent overwrite.
 *
 * The engine is a plain object per editor store (`createAutosaver`), free of React and of the
 * browser (fetch, storage and timers are injected), so it is tested against the real route
 * handlers without one; `useAutosave` (use-autosave.ts) starts it in the editor and
 * `useSaveSession` lets the save UI (components/save) read and drive it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { FetchLike } from '../api/client';
import type { SaveReason } from '../api/types';
import { getRevision, saveWorkflow } from '../api/workflows';
import type { WorkflowDocument } from '../workflow/types';
import type { EditorStore } from './store';
import { parseJson } from '../tools/json-value';
import { getPendingKey, OFFLINE_MESSAGE, writePendingSave, type PendingSave } from './pending-save';

export { getPendingKey } from './pending-save';

export const AUTOSAVE_DELAY_MS = 600;
/** Waits between retries while the server cannot save; the last one repeats. */
export const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000] as const;

/** The server's copy of a workflow, as the API returns it. */
export interface ServerCopy {
  version: number;
  name: string;
  document: WorkflowDocument;
}

/** A save that was refused because the workflow changed elsewhere. */
export interface SaveConflict {
  server: ServerCopy;
  /** The version both copies started from, when it is known (needed to merge). */
  base: ServerCopy | null;
  /**
   * True when that version is no longer in the history (folded into a later autosave entry, or
   * pruned), so the two copies cannot be merged: reload theirs or keep mine.
   */
  baseMissing?: boolean;
}

export interface SaveSessionState {
  conflict: SaveConflict | null;
  /** When the next retry runs (epoch ms) while the server cannot save; null otherwise. */
  retryAt: number | null;
  /** Failed attempts in a row. */
  failures: number;
  /** Set when unsaved changes from an earlier visit were put back into the editor. */
  restoredAt: number | null;
  /** When the server last accepted a save from this editor. */
  lastSavedAt: number | null;
}

export interface SaveSession {
  readonly state: StoreApi<SaveSessionState>;
  /** Saves now if there is anything unsaved (no debounce). */
  saveNow(): Promise<void>;
  /**
   * Conflict: put `merged`, the merge of both copies (mergeConflict in conflict-merge.ts, which
   * the conflict banner computes and shows), in the editor and save it on top of theirs.
   */
  mergeBoth(merged: WorkflowDocument): void;
  /** Conflict: drop my unsaved changes and take the server's copy (undo brings mine back). */
  reload(): void;
  /** Conflict: save my copy as a new version on top of theirs (theirs stays in the history). */
  keepMine(): void;
  /** Puts a copy the server just returned (e.g. after a restore) into the editor as saved. */
  adoptServerCopy(copy: ServerCopy): void;
  dispose(): void;
}

export interface AutosaverDeps {
  /** How requests are sent; the browser's fetch when omitted. */
  fetch?: FetchLike;
  /** localStorage, or null where there is none. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  now: () => number;
}

/**
 * The last copy of each editor's workflow known to be on the server. Kept beside the store, not
 * in the session, so a session re-created for the same store (React runs effects twice in
 * development) still knows what is unsaved.
 */
const savedCopies = new WeakMap<EditorStore, ServerCopy>();

/** What the parts of one autosave engine share. */
interface AutosaveContext {
  readonly editor: EditorStore;
  readonly deps: AutosaverDeps;
  readonly state: StoreApi<SaveSessionState>;
  readonly id: string;
  /** The last copy known to be on the server: what the next save is based on. */
  base: ServerCopy;
  /** Why the next save is made: reset to an autosave once a save with another reason succeeds. */
  reason: SaveReason;
  disposed: boolean;
}

/** The engine's timer and the one save in flight. */
interface SaveLoop {
  /** Saves after `ms`, replacing a save already scheduled. */
  schedule(ms: number): void;
  /** Drops a scheduled save. */
  cancel(): void;
  /** Saves now, after the save in flight if there is one. */
  save(): Promise<void>;
}

const setBase = (ctx: AutosaveContext, copy: ServerCopy) => {
  ctx.base = copy;
  savedCopies.set(ctx.editor, copy);
};

const hasUnsaved = ({ editor, base }: AutosaveContext) => {
  const s = editor.getState();
  return s.doc !== base.document || s.meta.name !== base.name;
};

const setEditorMeta = (ctx: AutosaveContext, meta: { version?: number; name?: string }) =>
  ctx.editor.setState((s) => ({ meta: { ...s.meta, ...meta } }));

/** Keeps the unsaved document (and name) in localStorage until the server has it. */
function writePending(ctx: AutosaveContext) {
  if (!ctx.deps.storage || !hasUnsaved(ctx)) return;
  // Storage full or disabled: the save state already says the change is not on the server.
  const { doc, meta } = ctx.editor.getState();
  writePendingSave(ctx.deps.storage, ctx.id, {
    v: 1,
    baseVersion: ctx.base.version,
    savedAt: ctx.deps.now(),
    doc,
    ...(meta.name !== ctx.base.name ? { name: meta.name } : {}),
  });
}

function clearPending(ctx: AutosaveContext) {
  try {
    ctx.deps.storage?.removeItem(getPendingKey(ctx.id));
  } catch {
    // nothing to do: an unreadable storage has nothing to clear
  }
}

/**
 * Creates the autosave engine for one editor store; it starts listening at once. `opened` is the
 * copy the editor opened, for an engine started after the first edits (the editor loads it with
 * the first change): those edits are then kept and saved at once. Default: the store's state now.
 */
export function createAutosaver(editor: EditorStore, deps: AutosaverDeps, opened?: ServerCopy): SaveSession {
  const state = createStore<SaveSessionState>()(() => ({
    conflict: null,
    retryAt: null,
    failures: 0,
    restoredAt: null,
    lastSavedAt: null,
  }));
  const ctx: AutosaveContext = {
    editor,
    deps,
    state,
    id: editor.getState().meta.id,
    base: savedCopies.get(editor) ??
      opened ?? {
        version: editor.getState().meta.version,
        name: editor.getState().meta.name,
        document: editor.getState().doc,
      },
    reason: 'save',
    disposed: false,
  };
  setBase(ctx, ctx.base);
  const loop = createSaveLoop(ctx);

  const unsubscribe = editor.subscribe((s, prev) => {
    // Streamed planning states are not work to keep: the finished AI change is saved once.
    if (s.meta.readOnly || s.aiEditing) return;
    const changed = s.doc !== prev.doc || s.meta.name !== prev.meta.name;
    const aiFinished = prev.aiEditing && !s.aiEditing;
    if ((!changed && !aiFinished) || !hasUnsaved(ctx)) return;
    // The planning run's result is an entry of its own in the history.
    if (aiFinished && s.doc !== ctx.base.document) ctx.reason = 'plan';
    if (changed) writePending(ctx);
    const session = state.getState();
    // The store marks every edit 'dirty'; while a conflict or an outage lasts, keep saying so.
    if (session.conflict) {
      if (s.saveState !== 'conflict') editor.getState().setSaveState('conflict', prev.saveError);
      return;
    }
    if (session.retryAt !== null) {
      // Backing off: an edit does not hammer the server sooner; the scheduled retry saves it.
      if (s.saveState !== 'offline') editor.getState().setSaveState('offline', prev.saveError);
      return;
    }
    loop.schedule(AUTOSAVE_DELAY_MS);
  });

  const resolveWith = (server: ServerCopy, doc: WorkflowDocument | null) =>
    resolveCopy(ctx, loop, server, doc);
  const session: SaveSession = {
    state,
    saveNow: () => {
      loop.cancel();
      state.setState({ retryAt: null });
      return loop.save();
    },
    mergeBoth: (merged) => {
      const conflict = state.getState().conflict;
      if (!conflict) return;
      ctx.reason = 'resolve';
      resolveWith(conflict.server, merged);
    },
    reload: () => {
      const conflict = state.getState().conflict;
      if (conflict) resolveWith(conflict.server, null);
    },
    keepMine: () => {
      const conflict = state.getState().conflict;
      if (!conflict) return;
      ctx.reason = 'resolve';
      resolveWith(conflict.server, editor.getState().doc);
    },
    adoptServerCopy: (copy) => resolveWith(copy, null),
    dispose: () => {
      ctx.disposed = true;
      unsubscribe();
      loop.cancel();
    },
  };

  if (!restorePending(ctx, loop)) {
    // Started after the first edits: keep them and save them, as the subscription above would have.
    const s = editor.getState();
    if (!s.meta.readOnly && !s.aiEditing && hasUnsaved(ctx)) {
      writePending(ctx);
      loop.schedule(AUTOSAVE_DELAY_MS);
    }
  }
  return session;
}

/** Saving: debounced and retried with backoff; each PUT names the version it was based on. */
function createSaveLoop(ctx: AutosaveContext): SaveLoop {
  const { editor, deps, state, id } = ctx;
  let timer: unknown = null;
  let inFlight: Promise<void> | null = null;

  const schedule = (ms: number) => {
    if (timer !== null) deps.clearTimeout(timer);
    timer = deps.setTimeout(() => {
      timer = null;
      void save();
    }, ms);
  };

  const fail = (saveState: 'offline' | 'error', message: string, retry: boolean) => {
    writePending(ctx);
    editor.getState().setSaveState(saveState, message);
    const failures = state.getState().failures + 1;
    if (!retry) return state.setState({ failures, retryAt: null });
    const wait = RETRY_DELAYS_MS[Math.min(failures - 1, RETRY_DELAYS_MS.length - 1)];
    state.setState({ failures, retryAt: deps.now() + wait });
    schedule(wait);
  };

  const attempt = async () => {
    const s = editor.getState();
    if (ctx.disposed || s.meta.readOnly || s.aiEditing || state.getState().conflict || !hasUnsaved(ctx))
      return;
    const doc = s.doc;
    const name = s.meta.name;
    const basedOn = ctx.base;
    const why = ctx.reason;
    s.setSaveState('saving');
    const saved = await saveWorkflow(
      id,
      {
        version: basedOn.version,
        document: doc,
        ...(name !== basedOn.name ? { name } : {}),
        ...(why !== 'save' ? { reason: why } : {}),
      },
      { fetch: deps.fetch },
    );
    if (ctx.disposed) return;
    if (saved.ok) {
      const { version, name: savedName } = saved.value.workflow;
      setBase(ctx, { version, name: savedName, document: doc });
      if (ctx.reason === why) ctx.reason = 'save';
      // The server's spelling of the name (trimmed), unless it was renamed again meanwhile.
      setEditorMeta(ctx, editor.getState().meta.name === name ? { version, name: savedName } : { version });
      state.setState({ failures: 0, retryAt: null, lastSavedAt: deps.now() });
      if (hasUnsaved(ctx)) {
        // Edited while the save was in flight: keep that safe too, and save it next.
        writePending(ctx);
        editor.getState().setSaveState('dirty');
        schedule(AUTOSAVE_DELAY_MS);
      } else {
        clearPending(ctx);
        editor.getState().setSaveState('saved');
      }
      return;
    }
    const { status, code, message, body } = saved.error;
    if (code === 'network') {
      return fail('offline', OFFLINE_MESSAGE, true);
    }
    const current = status === 409 ? getServerCopy(body?.current) : null;
    if (current) {
      writePending(ctx);
      state.setState({ conflict: { server: current, base: basedOn }, retryAt: null, failures: 0 });
      editor.getState().setSaveState('conflict', message);
      return;
    }
    if (status === 429 || status >= 500)
      return fail('offline', `${message} Your changes are kept in this browser; retrying.`, true);
    // 400/403/404/413: retrying cannot help. Keep the copy locally and say what happened.
    fail('error', `${message} Your changes are kept in this browser.`, false);
  };

  const save = (): Promise<void> => {
    if (inFlight) return inFlight.then(() => (hasUnsaved(ctx) ? save() : undefined));
    inFlight = attempt().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  return {
    schedule,
    cancel: () => {
      if (timer !== null) deps.clearTimeout(timer);
      timer = null;
    },
    save,
  };
}

/**
 * Makes `server` the saved state, with `doc` (default: the server's, name included) in the
 * editor. A name I changed and did not save yet is kept with my document; else theirs is taken.
 */
function resolveCopy(ctx: AutosaveContext, loop: SaveLoop, server: ServerCopy, doc: WorkflowDocument | null) {
  const { editor, state } = ctx;
  const renamedHere = editor.getState().meta.name !== ctx.base.name;
  setBase(ctx, server);
  setEditorMeta(
    ctx,
    doc !== null && renamedHere
      ? { version: server.version }
      : { version: server.version, name: server.name },
  );
  state.setState({ conflict: null, retryAt: null, failures: 0 });
  if (doc === null) {
    editor.getState().setDoc(server.document);
    // setDoc copies nothing: the editor now holds the server's own object, so nothing is unsaved.
    setBase(ctx, { ...server, document: editor.getState().doc });
    clearPending(ctx);
    editor.getState().setSaveState('saved');
    return;
  }
  if (doc !== editor.getState().doc) editor.getState().setDoc(doc);
  if (hasUnsaved(ctx)) {
    writePending(ctx);
    editor.getState().setSaveState('dirty');
    void loop.save();
  } else {
    clearPending(ctx);
    editor.getState().setSaveState('saved');
  }
}

/** Puts back unsaved changes a previous visit left in localStorage; true when there were some. */
function restorePending(ctx: AutosaveContext, loop: SaveLoop): boolean {
  const { editor, deps, state, id, base } = ctx;
  if (editor.getState().meta.readOnly || !deps.storage) return false;
  let pending: PendingSave | null = null;
  try {
    const raw = deps.storage.getItem(getPendingKey(id));
    pending = raw ? (parseJson(raw) as PendingSave) : null;
  } catch {
    pending = null;
  }
  if (!pending || pending.v !== 1 || !pending.doc || !Array.isArray(pending.doc.nodes)) {
    clearPending(ctx);
    return false;
  }
  const name = typeof pending.name === 'string' && pending.name.trim() ? pending.name : base.name;
  if (JSON.stringify(pending.doc) === JSON.stringify(base.document) && name === base.name) {
    clearPending(ctx);
    return false;
  }
  const server = base;
  state.setState({ restoredAt: deps.now() });
  if (name !== editor.getState().meta.name)
    setEditorMeta(ctx, { version: editor.getState().meta.version, name });
  if (pending.baseVersion === server.version) {
    // A session re-created for the same store may find its own copy already in the editor.
    if (JSON.stringify(pending.doc) === JSON.stringify(editor.getState().doc))
      loop.schedule(AUTOSAVE_DELAY_MS);
    else editor.getState().setDoc(pending.doc);
    return true;
  }
  // The server moved on since these changes were made: a conflict, merged against the
  // version they were based on once it has been fetched from the history.
  state.setState({ conflict: { server, base: null } });
  editor.getState().setDoc(pending.doc);
  editor
    .getState()
    .setSaveState(
      'conflict',
      `Unsaved changes from an earlier visit were based on version ${pending.baseVersion}; the server has version ${server.version}.`,
    );
  void getRevision(id, pending.baseVersion, { fetch: deps.fetch }).then((found) => {
    const conflict = state.getState().conflict;
    if (!conflict || conflict.server !== server) return;
    if (found.ok) state.setState({ conflict: { server, base: found.value.revision } });
    // Folded into a later autosave entry, or pruned: there is nothing to merge against.
    else if (found.error.status === 404)
      state.setState({ conflict: { server, base: null, baseMissing: true } });
  });
  return true;
}

/** The server's copy in a 409 body, when it has the fields a copy needs. */
function getServerCopy(value: unknown): ServerCopy | null {
  if (typeof value !== 'object' || value === null) return null;
  const { version, name, document } = value as Partial<ServerCopy>;
  if (typeof version !== 'number' || typeof name !== 'string' || typeof document !== 'object' || !document)
    return null;
  return { version, name, document };
}
