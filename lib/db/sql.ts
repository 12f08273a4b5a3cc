import 'server-only';
/**
 * Hot queries without Prisma's query pipeline: the same SQL, sent straight to the pool (Postgres)
 * or the instance (PGlite) under the app's Prisma client. Prisma's raw queries pass every
 * parameter and every row through its query compiler (WASM): a 49 KB document as a parameter cost
 * 4.3 ms of Node CPU that way against 0.55 ms straight to `pg`, and `SELECT 1` 0.75 against 0.43
 * (`npm run bench -- save-path`, Postgres; PGlite 6.4 against 2.7). Saves, reads, history, the share link check
 * and health use it; everything else keeps Prisma.
 *
 *   const [row] = await sql(db)<Row>`SELECT … WHERE "id" = ${id}`;
 *
 * Parameters are strings, numbers, booleans, null or Dates (sent as UTC: our timestamps are
 * `timestamp(3)` without time zone, holding UTC, as Prisma writes them). Postgres infers each
 * parameter's type from where it stands; where it cannot (a SELECT list feeding an INSERT), the
 * SQL casts it. Timestamps come back as Dates read as UTC; ask for `json` columns as `::text`.
 * Inside a transaction (a client that is not the app's own), the query goes through Prisma.
 */
import pg, { type QueryConfig } from 'pg';
import { findDatabaseBacking } from './client';

export type SqlValue = string | number | boolean | null | undefined | Date;

/** `timestamp without time zone` (OID 1114), stored as UTC. */
const TIMESTAMP = 1114;
const parseTimestamp = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
/** pg's parsers, but for timestamps. */
const PG_TYPES: QueryConfig['types'] = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP ? parseTimestamp : pg.types.getTypeParser(oid, format)) as never,
};
const PGLITE_PARSERS = { [TIMESTAMP]: parseTimestamp };

interface RawQueryable {
  $queryRawUnsafe<R>(query: string, ...values: unknown[]): Promise<R>;
}

/** A piece of SQL with its own values, to stand inside a `sql` template: made by `fragment`. */
export class SqlFragment {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly SqlArg[],
  ) {}
}

/** What a `sql` or `fragment` template takes: a parameter, or a fragment spliced in as SQL. */
export type SqlArg = SqlValue | SqlFragment;

/** A tagged template for SQL shared by several statements; its values become their parameters. */
export function fragment(strings: TemplateStringsArray, ...values: SqlArg[]): SqlFragment {
  return new SqlFragment(strings, values);
}

/**
 * The query text with `$1…$n` for the template's values (a fragment's values numbered in their
 * place), and the values as the driver takes them.
 */
export function toQuery(
  strings: readonly string[],
  values: readonly SqlArg[],
): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const write = (parts: readonly string[], args: readonly SqlArg[]): string => {
    let text = parts[0];
    for (let i = 1; i < parts.length; i++) {
      const arg = args[i - 1];
      if (arg instanceof SqlFragment) {
        text += write(arg.strings, arg.values);
      } else {
        params.push(arg instanceof Date ? arg.toISOString() : (arg ?? null));
        text += `$${params.length}`;
      }
      text += parts[i];
    }
    return text;
  };
  return { text: write(strings, values), params };
}

/** A tagged template that runs its SQL on `db` (see the module comment). */
export function sql(db: RawQueryable) {
  return async <R>(strings: TemplateStringsArray, ...values: SqlArg[]): Promise<R[]> => {
    const { text, params } = toQuery(strings, values);
    return queryText<R>(db, text, params);
  };
}

/**
 * Runs SQL text with `$1…$n` parameters on `db` the same way, for SQL that comes whole from
 * elsewhere (a library's store); parameters as the driver takes them.
 */
export async function queryText<R>(db: RawQueryable, text: string, params: readonly unknown[]): Promise<R[]> {
  const backing = findDatabaseBacking(db);
  if (backing?.kind === 'postgres') {
    return (await backing.pool.query({ text, values: [...params], types: PG_TYPES })).rows as R[];
  }
  if (backing?.kind === 'pglite') {
    return (await backing.pglite.query<R>(text, [...params], { parsers: PGLITE_PARSERS })).rows;
  }
  return db.$queryRawUnsafe<R[]>(text, ...params);
}
