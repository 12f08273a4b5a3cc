/**
 * The production scripts as plain JavaScript, part of `npm run build` after `next build`: what
 * `npm start` and `npm run worker` run must start with `node`, not a TypeScript loader
 * (docs/design.md §10.10). Each entry is bundled with the project's own modules (lib/, the
 * generated Prisma client) into dist/<name>.js; packages stay imports, loaded from node_modules
 * at run time as the web server loads them.
 *
 *   node scripts/build-scripts.mjs [--outdir DIR]     (dist/ by default; tests build elsewhere)
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { outdir } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } }).values;
const require = createRequire(import.meta.url);

/** What production runs: `npm start` applies the migrations, `npm run worker` takes test-runs. */
const ENTRIES = { migrate: 'scripts/migrate.ts', worker: 'scripts/worker.ts' };

/**
 * `server-only` throws on import outside Next's server bundles; these scripts are server
 * processes, so it becomes the package's own empty module, inside the bundle (a hook registered
 * at run time would come too late: esbuild hoists the imports of packages to the top).
 */
const serverOnlyIsEmpty = {
  name: 'server-only-is-empty',
  setup(b) {
    const empty = join(dirname(require.resolve('server-only')), 'empty.js');
    b.onResolve({ filter: /^server-only$/ }, () => ({ path: empty }));
  },
};

/**
 * Packages stay imports, loaded from node_modules at run time. Node's ESM loader needs the file
 * extension that a bundler adds itself (`ajv/dist/2019` is `ajv/dist/2019.js` to Node): such an
 * import is written out with it.
 */
const packagesAsNodeResolvesThem = {
  name: 'packages-as-node-resolves-them',
  setup(b) {
    const resolvable = (specifier) => {
      try {
        // Resolved from this file, in the project's own node_modules; Node 20 does not check
        // that the file is there.
        const url = import.meta.resolve(specifier);
        return !url.startsWith('file:') || existsSync(fileURLToPath(url));
      } catch {
        return false;
      }
    };
    b.onResolve({ filter: /^[^./#]/ }, ({ path }) => {
      if (path === 'server-only') return undefined;
      if (path.startsWith('node:') || resolvable(path)) return { path, external: true };
      if (resolvable(`${path}.js`)) return { path: `${path}.js`, external: true };
      throw new Error(`Node cannot import "${path}" from the built scripts.`);
    });
  },
};

await build({
  absWorkingDir: ROOT,
  entryPoints: ENTRIES,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  // The #subpath imports in package.json name TypeScript files: resolve them here, for Node.
  conditions: ['node'],
  plugins: [serverOnlyIsEmpty, packagesAsNodeResolvesThem],
  sourcemap: 'linked',
  logLevel: 'warning',
  banner: { js: '// Built by scripts/build-scripts.mjs from scripts/*.ts: do not edit.' },
});
console.log(
  `scripts: ${Object.keys(ENTRIES)
    .map((name) => `${outdir}/${name}.js`)
    .join(', ')}`,
);
