/** A fresh Postgres database for a bench, or null when no server answers (TOOLFLOW_TEST_PG_URL). */
import { randomBytes } from 'node:crypto';
import { createPgRunner } from '../../lib/db/sql-runner';

const PG_ADMIN_URL = process.env.TOOLFLOW_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function openBenchDatabase(
  name: string,
): Promise<{ url: string; drop(): Promise<void> } | null> {
  let admin;
  try {
    admin = await createPgRunner(PG_ADMIN_URL);
  } catch {
    return null;
  }
  const database = `toolflow_bench_${name}_${randomBytes(4).toString('hex')}`;
  await admin.exec(`CREATE DATABASE "${database}"`);
  await admin.close();
  return {
    url: PG_ADMIN_URL.replace(/\/[^/?]*(\?.*)?$/, `/${database}$1`),
    async drop() {
      const a = await createPgRunner(PG_ADMIN_URL);
      await a.exec(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await a.close();
    },
  };
}
