/** The database: embedded PGlite by default (a data folder, or memory), PostgreSQL with DATABASE_URL. */
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Run raw SQL text (migrations). */
  execText(text: string): Promise<void>;
  /** Rows of a query. */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  close(): Promise<void>;
}

export async function openDatabase(opts: { dataDir: string | null; databaseUrl: string | null }): Promise<Database> {
  if (opts.databaseUrl) {
    const pg = await import('pg');
    const pool = new pg.default.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the database ends (a restart, an administrator, a network cut) is reported here and
    // dropped by the pool, which opens a new one when next needed. Without a listener that report would
    // crash the process. While the pool is closing, the connections it is ending are expected to go.
    pool.on('error', (err) => {
      if (!pool.ending) console.error(`database: an idle connection was closed (${err.message}); it will be replaced`);
    });
    // numeric comes back as string (never float); bigint (count) as string too → parse ints where needed.
    return database(drizzlePg(pool, { schema }) as unknown as Db, 'postgres', (text) => pool.query(text), () => pool.end());
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
  await client.waitReady;
  return database(drizzlePglite(client, { schema }) as unknown as Db, 'pglite', (text) => client.exec(text), () => client.close());
}

function database(db: Db, kind: Database['kind'], exec: (text: string) => Promise<unknown>, close: () => Promise<void>): Database {
  return {
    db,
    kind,
    async execText(text) {
      await exec(text);
    },
    async rows(query) {
      return ((await db.execute(query)) as unknown as { rows: never[] }).rows;
    },
    close,
  };
}

export { sql };
