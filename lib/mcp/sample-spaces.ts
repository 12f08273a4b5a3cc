import 'server-only';
/**
 * Where the runnable samples keep each person's data. A test-run's Memory graph and Files folder
 * belong to a *space*: today the owner the run belongs to (the anonymous owner cookie), later the
 * workspace of an account. `getSampleSpace` is the one place that maps a run's owner to its space;
 * everything else (config.ts, the worker, the toolkit routes) only passes the key along.
 *
 * A space is a folder `<data dir>/samples/<hash of the key>/` with `memory/` and `files/` in it,
 * created by the sample server itself when it first starts there (sample-guard.mjs), and bounded
 * by the caps below. The folder name is a hash, so no key can name a path (`..`, `/`) and keys
 * that differ only in letter case stay apart on a case-insensitive disk.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

/** The space the runnable samples act in for one run (or one toolkit listing). */
export type SampleSpace = string & { readonly __sampleSpace: unique symbol };

/** The person at the terminal: `toolflow run` and `toolflow tools` on the operator's own machine. */
export const LOCAL_SAMPLE_SPACE = 'local' as SampleSpace;

/**
 * The space of a run's (or a request's) owner. When accounts arrive, this is where an owner's
 * account becomes its workspace id; nothing else changes.
 */
export function getSampleSpace(ownerId: string): SampleSpace {
  return `owner:${ownerId}` as SampleSpace;
}

/**
 * What a space may hold. Enough to try every tool of both samples many times over, small enough
 * that a person cannot fill the server's disk through them: the Files folder 10 MB of file content
 * in at most 1,000 files and folders, the Memory graph 1 MB (about 5,000 entities with a few
 * observations each). A write that would pass a cap fails its step with a message saying so.
 */
export const SAMPLE_CAPS = {
  files: { maxBytes: 10_000_000, maxEntries: 1_000 },
  memory: { maxBytes: 1_000_000, maxEntries: 16 },
} as const;

/** The folder of `space` under the data directory (not created here). */
export function getSampleSpaceDir(dataDir: string, space: SampleSpace): string {
  const name = createHash('sha256').update(`toolflow sample space\0${space}`).digest('hex').slice(0, 32);
  return path.join(dataDir, 'samples', name);
}
