/** An in-memory CLI for the command tests: files by path, and what the command printed. */
import type { CliIo } from '../io';

export function createMemoryIo(files: Record<string, string>) {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    readFile: async (path) => {
      // An own lookup: a test may name a file "constructor".
      if (!Object.hasOwn(files, path)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return files[path];
    },
  };
  return { io, out };
}
