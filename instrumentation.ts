/**
 * Runs once when the Next.js server starts (not at build time): starts the job queue and the
 * in-process test-run worker, which first marks runs a previous process left running as
 * interrupted. A database that is not reachable yet only delays this: the first
 * request that needs the queue tries again.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getAppQueue } = await import('./lib/queue/app');
  try {
    await getAppQueue();
  } catch (error) {
    console.error('toolflow: the job queue could not start yet; it will be retried on first use:', error);
  }
}
