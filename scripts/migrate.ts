/**
 * `npm run db:migrate` (also run by `dev` and `start`): applies prisma/migrations/ to the
 * configured database — PGlite in .data/ by default, DATABASE_URL when set.
 *
 * `--production` (what `npm start` passes) first checks the configuration production needs and
 * refuses to go on, saying how to fix it, so the server never starts without TOOLFLOW_SECRET
 * or with a TOOLFLOW_PUBLIC_URL that is not an address; with or without it, a partial single sign-on
 * configuration (TOOLFLOW_OIDC_*, lib/http/oidc-config.ts) is refused the same way.
 */
import { applyMigrations } from '../lib/db/migrate';
import { createPgliteRunner, createPgRunner, getDatabaseTarget, openPglite } from '../lib/db/sql-runner';
import { getOidcConfigProblem } from '../lib/http/oidc-config';
import { getRenderedPagesOrigin } from '../lib/http/rendered-pages';
import { getSecretConfigProblem } from '../lib/http/secret-config';

{
  // Half a single sign-on configuration is refused in development too: it is never what was meant.
  const problem = process.argv.includes('--production')
    ? (getSecretConfigProblem(process.env, { production: true }) ??
      getRenderedPagesOrigin(process.env).problem ??
      getOidcConfigProblem(process.env))
    : getOidcConfigProblem(process.env);
  if (problem) {
    console.error(`Toolflow will not start: ${problem}`);
    process.exit(1);
  }
}

const target = getDatabaseTarget();
const started = performance.now();
const where = target.kind === 'postgres' ? target.url.replace(/\/\/[^@]*@/, '//***@') : target.dataDir;
let runner;
try {
  runner =
    target.kind === 'postgres'
      ? await createPgRunner(target.url)
      : createPgliteRunner(await openPglite(target.dataDir));
} catch (error) {
  console.error(`Could not open the database (${target.kind}, ${where}): ${(error as Error).message}`);
  process.exit(1);
}
try {
  const applied = await applyMigrations(runner);
  const what = applied.length ? `applied ${applied.join(', ')}` : 'up to date';
  console.log(
    `database (${target.kind}, ${where}): ${what} in ${Math.round(performance.now() - started)} ms`,
  );
} catch (error) {
  console.error(`Could not migrate the database: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await runner.close();
}
