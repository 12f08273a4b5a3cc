// Prisma CLI configuration: the JS engine with a driver adapter, so `prisma generate` and
// `prisma migrate diff` run on WASM with no downloaded binary (docs/design.md §10.2). The app applies
// migrations itself (lib/db/migrate.ts), on PGlite or a real server.
import path from 'node:path';
import fs from 'node:fs';
import { defineConfig } from 'prisma/config';

process.env.CHECKPOINT_DISABLE ??= '1';

let adapterPromise: Promise<unknown> | undefined;

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  // One adapter per process: the CLI may ask twice (docs/design.md §10.2).
  async adapter() {
    adapterPromise ??= (async () => {
      const url = process.env.DATABASE_URL;
      if (url && /^postgres(ql)?:\/\//.test(url)) {
        const { PrismaPg } = await import('@prisma/adapter-pg');
        return new PrismaPg({ connectionString: url });
      }
      const { PGlite } = await import('@electric-sql/pglite');
      const { PrismaPGlite } = await import('pglite-prisma-adapter');
      const dir = path.resolve(process.env.TOOLFLOW_DATA_DIR ?? '.data', 'pglite-cli');
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      const db = new PGlite(dir, { postgresqlconf: ['log_startup_progress_interval = 0'] } as never);
      return new PrismaPGlite(db);
    })();
    return adapterPromise as never;
  },
});
