import 'server-only';
/**
 * The folders of this server that a run's answers must not show (lib/run/server-paths.ts): the
 * run owner's sample folders, whose paths are shown relative to them, and the data directory, the
 * app's own directory and the home directory, whose paths are hidden. Each as configured and as
 * the disk resolves it (a folder behind a symbolic link appears both ways in errors: the sample
 * guard reports real paths).
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { createPathRedactor, type PathRedactor } from '../run/server-paths';
import { getDataDir } from './config';
import { getSampleSpace, getSampleSpaceDir } from './sample-spaces';

/** The folder and, when it differs, its real path (a folder that does not exist yet: itself). */
function withRealPath(folder: string): string[] {
  try {
    const real = realpathSync(/*turbopackIgnore: true*/ folder);
    return real === folder ? [folder] : [folder, real];
  } catch {
    return [folder];
  }
}

/**
 * The redactor for what the API answers about `ownerId`'s runs: every run JSON, event line and
 * pre-flight list passes through it.
 */
export function getRunPathRedactor(
  ownerId: string,
  env: Record<string, string | undefined> = process.env,
): PathRedactor {
  const cwd = process.cwd();
  const dataDir = getDataDir({ cwd, env });
  const space = getSampleSpaceDir(dataDir, getSampleSpace(ownerId));
  return createPathRedactor({
    relative: ['files', 'memory'].flatMap((folder) => withRealPath(path.join(space, folder))),
    hidden: [dataDir, cwd, homedir()].flatMap(withRealPath),
  });
}
