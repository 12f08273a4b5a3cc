'use client';
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';

/**
 * A component whose code loads when it first renders, showing `fallback` until then: a dialog, a
 * tab or a step's inspector that the editor's first paint does not show. It is React.lazy in a
 * Suspense boundary, which is also what next/dynamic is on the client, without next/dynamic's
 * loader code (~1 KB gzip) in the editor's first load. The parts made this way are never shown
 * on the server (they open on a click or a selection), so server rendering changes nothing.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
  fallback: ReactNode = null,
): ComponentType<P> {
  const Loaded = lazy(() => load().then((component) => ({ default: component })));
  function LazyComponent(props: P) {
    return (
      <Suspense fallback={fallback}>
        <Loaded {...props} />
      </Suspense>
    );
  }
  return LazyComponent;
}
