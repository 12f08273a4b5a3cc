/**
 * Lets a plain Node process (the CLI, `npm run bench`) import the `server-only` IO modules
 * (lib/llm, lib/mcp). `server-only` guards bundles against shipping server code to a browser; a CLI *is* a
 * server process, but without the `react-server` condition the package throws on import. This
 * registers a resolve hook that maps it to the package's own empty module. It imports nothing
 * `server-only` itself, so it can run first.
 */
import { createRequire, register } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

let registered = false;

/** Make `import 'server-only'` a no-op in this process (idempotent). */
export function allowServerOnlyImports(): void {
  if (registered) return;
  registered = true;
  const empty = pathToFileURL(
    join(dirname(createRequire(import.meta.url).resolve('server-only')), 'empty.js'),
  ).href;
  const hook = `export async function resolve(specifier, context, next) {
  if (specifier === 'server-only') return { url: ${JSON.stringify(empty)}, shortCircuit: true };
  return next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}
