'use client';
/**
 * Marks when every node of a bench page has been rendered and measured, for scripts/bench/editor.ts:
 * `window.__benchFirstRender` is `performance.now()` at the first paint after that.
 */
import { useEffect } from 'react';
import { useNodesInitialized } from '@xyflow/react';

declare global {
  interface Window {
    __benchFirstRender?: number;
  }
}

export function BenchProbe() {
  const initialized = useNodesInitialized();
  useEffect(() => {
    if (!initialized || window.__benchFirstRender !== undefined) return;
    requestAnimationFrame(() => {
      window.__benchFirstRender ??= performance.now();
    });
  }, [initialized]);
  return null;
}
