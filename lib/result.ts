/**
 * Expected failures are values, not exceptions (tldraw `control.ts`, valibot `safeParse`).
 * Pure: imported by the core and by IO modules alike.
 */

/** One problem found in some input, located by a JSON path such as `/tools/0/inputSchema`. */
export interface Issue {
  /** JSON Pointer (RFC 6901) into the input that was checked; `""` means the whole input. */
  path: string;
  message: string;
  /** Stable machine-readable code, e.g. `missing_required`, `bad_json`. */
  code?: string;
}

export type Result<T, E = Issue[]> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });

/** For `switch` statements over unions: a compile error when a case is forgotten. */
export function exhaustiveSwitchError(value: never, what = 'value'): never {
  throw new Error(`Unknown ${what}: ${JSON.stringify(value)}`);
}

/** Escape one JSON Pointer segment (RFC 6901). */
export function pointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Decode one JSON Pointer segment (RFC 6901): `a~1b` → `a/b`, `~0` → `~`. */
export function decodePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The decoded segments of a JSON Pointer: `/a~1b/0` → `['a/b', '0']`; none for the root `""`. */
export function decodePointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.split('/').slice(1).map(decodePointerSegment);
}

/** Join JSON Pointer segments: `joinPointer('/a', 'b/c', 0)` → `/a/b~1c/0`. */
export function joinPointer(base: string, ...segments: (string | number)[]): string {
  return base + segments.map((s) => '/' + pointerSegment(s)).join('');
}
