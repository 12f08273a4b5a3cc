'use client';
/**
 * The editor's side of autosave (the engine is autosave.ts): `useAutosave` starts the engine for
 * an editor store with the browser's fetch, localStorage and timers, and saves at once when the
 * browser comes back online; `useSaveSession` gives the save UI the running session.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { createAutosaver, type AutosaverDeps, type SaveSession } from './autosave';
import type { EditorStore } from './store';

const sessions = new WeakMap<EditorStore, SaveSession>();

function getBrowserDeps(): AutosaverDeps {
  let storage: Storage | null = null;
  try {
    storage = window.localStorage;
  } catch {
    storage = null; // disabled by the browser's privacy settings
  }
  return {
    storage,
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
    clearTimeout: (handle) => window.clearTimeout(handle as number),
    now: () => Date.now(),
  };
}

/** Starts autosave for the editor's store (once per store) and retries when the browser is back online. */
export function useAutosave(store: EditorStore) {
  useEffect(() => {
    const session = createAutosaver(store, getBrowserDeps());
    sessions.set(store, session);
    notify();
    const onOnline = () => void session.saveNow();
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('online', onOnline);
      session.dispose();
      if (sessions.get(store) === session) sessions.delete(store);
      notify();
    };
  }, [store]);
}

// Lets components that render before the effect above ran pick the session up afterwards.
const listeners = new Set<() => void>();
let generation = 0;
function notify() {
  generation += 1;
  for (const l of listeners) l();
}
const subscribeSessions = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The autosave session of an editor store, once `useAutosave` started it (null before). */
export function useSaveSession(store: EditorStore): SaveSession | null {
  useSyncExternalStore(
    subscribeSessions,
    () => generation,
    () => 0,
  );
  return sessions.get(store) ?? null;
}
