/**
 * The bench pages (`/bench/ours`, `/bench/bare`: generated workflows for `npm run bench -- editor`)
 * are test instruments, not product: a server answers them only when started with
 * `TOOLFLOW_BENCH_PAGES=1`, read at request time so the same production build serves both.
 */

/** The environment variable that turns the bench pages on. */
export const BENCH_PAGES_FLAG = 'TOOLFLOW_BENCH_PAGES';

/** Whether this server answers the bench pages: only when the flag is exactly `1`. */
export function areBenchPagesEnabled(
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  return env[BENCH_PAGES_FLAG] === '1';
}
