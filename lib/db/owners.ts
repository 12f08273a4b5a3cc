import 'server-only';
import type { Db } from './client';

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

/** Creates the owner row on an owner's first write (ids come from the signed cookie). */
export function ensureOwner(db: Db | Tx, ownerId: string) {
  return db.$executeRaw`INSERT INTO "Owner" ("id") VALUES (${ownerId}) ON CONFLICT ("id") DO NOTHING`;
}
