/** The database: embedded PGlite by default (a data folder, or memory), PostgreSQL with DATABASE_URL. */
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { is, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { PGlite as PGliteClient } from '@electric-sql/pglite';
import { createHash } from 'node:crypto';
import * as schema from './schema';
import { databasePoolSize } from '../config';
import { fasterSqlText } from './sql-text';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Run raw SQL text (migrations). */
  execText(text: string): Promise<void>;
  /** Rows of a query. */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  /**
   * Rows of a read written out in full (`$1`, `$2`… its `params`), each as the array of its columns in the
   * statement's order: for the busiest reads, whose text is built once (no statement built per call) and whose
   * rows are read by position (no object per row). Prepared per connection like every read with parameters.
   */
  arrays<T extends unknown[] = unknown[]>(text: string, params: unknown[]): Promise<T[]>;
  /**
   * Call `heard` on every NOTIFY of `channel` (from any process on this database), and with null when
   * notices may have been missed (the listening connection was lost and is back). Returns the way to stop.
   */
  listen(channel: string, heard: (payload: string | null) => void): Promise<() => Promise<void>>;
  /**
   * Call `wrote` whenever a statement of this process that may have changed rows is done (every statement
   * but a plain read; COMMIT too), before its caller goes on: this process's caches of rows drop what may be
   * stale at once, where a NOTIFY would reach them a moment later. On PostgreSQL; the embedded database
   * delivers its notices before the statement's answer, so it needs none. Returns the way to stop.
   */
  onWrite?(wrote: () => void): () => void;
  close(): Promise<void>;
}

/** Statements that change nothing. */
const READ_ONLY = /^\s*(select|show|explain|values)\b/i;

/** Most reads kept prepared on each connection (their server-side statements and plans live as long as it). */
const PREPARED_READS = 500;
/** Longer statements are not kept (a list of ids written out is not worth a plan of its own). */
const PREPARED_MAX_LENGTH = 8_000;

/**
 * Names under which reads are prepared: the same statement text always gets the same name, so each
 * connection parses and plans a read once and then only binds and runs it (PostgreSQL keeps a generic plan
 * when it is as good as a fresh one). At most PREPARED_READS texts are named; later ones run unnamed.
 */
function preparedNames() {
  const names = new Map<string, string>();
  return (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < PREPARED_READS && text.length <= PREPARED_MAX_LENGTH) {
      name = `r_${createHash('sha1').update(text).digest('base64url')}`;
      names.set(text, name);
    }
    return name;
  };
}

/**
 * A read whose statement text is written once (at start) and run with values bound for each call: no
 * statement is built, rendered or looked up by its text per call. Its values are the query's parameters in
 * order, `sql.placeholder(name)` standing for a value given with each call.
 */
export interface FixedRead {
  name: string;
  text: string;
  /** Per parameter: the placeholder's name, or the constant bound every time. */
  params: Array<{ placeholder: string } | { value: unknown }>;
}

export function fixedRead(query: SQL): FixedRead {
  const rendered = new PgDialect().sqlToQuery(query);
  // A placeholder written several times is one parameter (`$n` each time): bound and read once per call.
  const params: FixedRead['params'] = [];
  const numbers = rendered.params.map((p) => {
    const at = is(p, Placeholder) ? params.findIndex((q) => 'placeholder' in q && q.placeholder === p.name) : -1;
    if (at >= 0) return at + 1;
    params.push(is(p, Placeholder) ? { placeholder: p.name } : { value: p });
    return params.length;
  });
  const text = rendered.sql.replace(/\$(\d+)\b/g, (_, n: string) => `$${numbers[Number(n) - 1]}`);
  return { name: `f_${createHash('sha1').update(text).digest('base64url')}`, text, params };
}

/**
 * Rows of a fixed read as arrays of values (in the order of its columns), for plain reads outside a
 * transaction. On PostgreSQL each connection prepares it once under its fixed name (the pool's connections
 * run reads as `reportWrites` says); PGlite's clients keep the statement by its text.
 */
export async function fixedRows(db: Db, read: FixedRead, values: Record<string, unknown>): Promise<unknown[][]> {
  return arrayRows(db, read.text, read.params.map((p) => ('placeholder' in p ? values[p.placeholder] : p.value)), read.name);
}

/**
 * Rows of a statement written out in full (`$1`, `$2`… its `params`) as arrays of values, for plain reads outside
 * a transaction. On PostgreSQL each connection prepares it once, under `name` or the name its text gets
 * (`preparedNames`); PGlite's clients keep the statement by its text.
 */
export async function arrayRows(db: Db, text: string, params: unknown[], name?: string): Promise<unknown[][]> {
  const client = (db as unknown as { $client: { query(...args: unknown[]): Promise<{ rows: unknown[] }> } }).$client;
  // A pg pool (PostgreSQL) takes a query config; PGlite's clients take the text, values and options.
  const result = 'totalCount' in client
    ? await client.query(name ? { name, text, values: params, rowMode: 'array' } : { text, values: params, rowMode: 'array' })
    : await client.query(text, params, { rowMode: 'array' });
  return result.rows as unknown[][];
}

/**
 * Every client the pool opens tells `wrote` when a statement that may change rows is done, and runs reads
 * with parameters as prepared statements (`preparedNames`).
 */
function reportWrites(pool: import('pg').Pool, wrote: () => void) {
  const nameOf = preparedNames();
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const q = args[0] as string | { text?: string; name?: string } | undefined;
      const text = typeof q === 'string' ? q : q?.text;
      if (typeof text !== 'string') return query(...args);
      if (READ_ONLY.test(text)) {
        const values = typeof q === 'object' ? (Array.isArray(args[1]) ? args[1] : (q as { values?: unknown }).values) : undefined;
        if (typeof q === 'object' && !q.name && Array.isArray(values) && values.length > 0) {
          const name = nameOf(text);
          if (name) args[0] = { ...q, name };
        }
        return query(...args);
      }
      const cb = args.findIndex((a) => typeof a === 'function');
      if (cb >= 0) {
        const done = args[cb] as (...r: unknown[]) => void;
        args[cb] = (...r: unknown[]) => {
          wrote();
          done(...r);
        };
        return query(...args);
      }
      const result = query(...args) as { then?: unknown; finally?: (f: () => void) => unknown } | undefined;
      if (result && typeof result.then === 'function' && result.finally) return result.finally(wrote);
      wrote();
      return result;
    };
  });
}

/**
 * `poolSize`: the most connections open to PostgreSQL at once (default: DATABASE_POOL_SIZE, see databasePoolSize).
 * `thread`: run the embedded database in a worker thread of its own (the server does; tests keep it on
 * their own thread, where an in-memory database starts faster).
 */
export async function openDatabase(opts: { dataDir: string | null; databaseUrl: string | null; thread?: boolean; poolSize?: number }): Promise<Database> {
  if (opts.databaseUrl) {
    const pg = await import('pg');
    const pool = new pg.default.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? databasePoolSize() });
    // An idle connection the database ends (a restart, an administrator, a network cut) is reported here and
    // dropped by the pool, which opens a new one when next needed. Without a listener that report would
    // crash the process. While the pool is closing, the connections it is ending are expected to go.
    pool.on('error', (err) => {
      if (!pool.ending) console.error(`database: an idle connection was closed (${err.message}); it will be replaced`);
    });
    const writers = new Set<() => void>();
    reportWrites(pool, () => {
      for (const w of writers) w();
    });
    // numeric comes back as string (never float); bigint (count) as string too → parse ints where needed.
    return {
      ...database(
        retryingDeadlocks(drizzlePg(pool, { schema }) as unknown as Db),
        'postgres',
        (text) => pool.query(text),
        (channel, heard) => listenPg(pg.default, opts.databaseUrl!, channel, heard),
        () => pool.end(),
      ),
      onWrite(wrote) {
        writers.add(wrote);
        return () => writers.delete(wrote);
      },
    };
  }
  if (opts.thread) {
    const { openPgliteThread } = await import('./pglite-thread');
    const thread = await openPgliteThread(opts.dataDir);
    return database(
      drizzlePglite(thread.client as unknown as PGliteClient, { schema }) as unknown as Db,
      'pglite',
      (text) => thread.client.exec(text),
      async (channel, heard) => thread.listen(channel, (payload) => heard(payload)),
      () => thread.close(),
    );
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const client = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
  await client.waitReady;
  return database(
    drizzlePglite(client, { schema }) as unknown as Db,
    'pglite',
    (text) => client.exec(text),
    // One process holds an embedded database: its notices reach every listener in it.
    async (channel, heard) => {
      const stop = await client.listen(channel, (payload) => heard(payload));
      return async () => {
        if (!client.closed) await stop();
      };
    },
    () => client.close(),
  );
}

/** PostgreSQL's codes for a transaction it aborted so that another could go on: a deadlock, a serialization failure. */
const ABORTED_FOR_ANOTHER = new Set(['40P01', '40001']);

export function abortedForAnother(e: unknown): boolean {
  for (let c: unknown = e; c && typeof c === 'object'; c = (c as { cause?: unknown }).cause) {
    if (ABORTED_FOR_ANOTHER.has((c as { code?: string }).code ?? '')) return true;
  }
  return false;
}

/**
 * Transactions PostgreSQL aborts because two of them waited on each other's rows (writers of the same
 * members' figures in different orders) run again, up to three times after a short random pause: the
 * aborted one changed nothing, and the other has gone on. A transaction's work is its database work (mail
 * and notices are written to the outbox in it), so running it again is safe. The embedded database runs one
 * transaction at a time and never aborts one so.
 */
function retryingDeadlocks(db: Db): Db {
  const run = db.transaction.bind(db) as Db['transaction'];
  db.transaction = (async (work: Parameters<Db['transaction']>[0], config?: Parameters<Db['transaction']>[1]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run(work, config);
      } catch (e) {
        if (attempt >= 4 || !abortedForAnother(e)) throw e;
        await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
      }
    }
  }) as Db['transaction'];
  return db;
}

/** A connection of its own that LISTENs, opened again (a second later) whenever it is lost. */
async function listenPg(pg: typeof import('pg').default, url: string, channel: string, heard: (payload: string | null) => void) {
  let stopped = false;
  let client: import('pg').Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const open = async (again: boolean) => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => n.channel === channel && heard(n.payload ?? ''));
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${JSON.stringify(channel)}`);
      if (stopped) return void c.end().catch(() => {});
      client = c;
      if (again) heard(null);
    } catch {
      lost(c);
    }
  };
  const lost = (c: import('pg').Client) => {
    if (stopped || retry || (client && client !== c)) return;
    client = null;
    c.end().catch(() => {});
    retry = setTimeout(() => {
      retry = null;
      void open(true);
    }, 1000);
    retry.unref();
  };
  await open(false);
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

function database(
  db: Db,
  kind: Database['kind'],
  exec: (text: string) => Promise<unknown>,
  listen: Database['listen'],
  close: () => Promise<void>,
): Database {
  // Statements written out in one pass (server/db/sql-text.ts); outside production also by drizzle, and compared.
  fasterSqlText((db as unknown as { dialect: PgDialect }).dialect, process.env.NODE_ENV !== 'production');
  return {
    db,
    kind,
    listen,
    async execText(text) {
      await exec(text);
    },
    async rows(query) {
      return ((await db.execute(query)) as unknown as { rows: never[] }).rows;
    },
    arrays: ((text: string, params: unknown[]) => arrayRows(db, text, params)) as Database['arrays'],
    close,
  };
}

export { sql };
