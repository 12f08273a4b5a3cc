/**
 * `npm run db:migrate` (also run by `dev` and `start`): applies prisma/migrations/ to the
 * configured database — PGlite in .data/ by default, DATABASE_URL when set.
 */
import { applyMigrations } from '../lib/db/migrate';
import { createPgliteRunner, createPgRunner, getDatabaseTarget, openPglite } from '../lib/db/sql-runner';

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
