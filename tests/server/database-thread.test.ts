// @vitest-environment node
/**
 * The embedded database in its own thread (what `npm start` runs): the same drizzle interface answers rows,
 * keeps transactions whole (commit and rollback), reports database errors with their fields, and delivers
 * NOTIFY to listeners.
 */
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { rowsOf } from '../../server/lib/ledger';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dataDir: null, databaseUrl: null, thread: true });
  await migrate(database);
  await database.execText('CREATE TABLE thread_probe (id int PRIMARY KEY, at timestamptz, amount numeric(20,4))');
}, 60_000);
afterAll(async () => {
  await database?.close();
});

test('rows come back with the types the server reads (timestamps and numerics as text, integers as numbers)', async () => {
  await database.rows(sql`INSERT INTO thread_probe VALUES (1, '2026-01-02T03:04:05Z', 12.5)`);
  const [r] = await database.rows<{ id: number; at: string; amount: string }>(sql`SELECT id, at, amount FROM thread_probe WHERE id = 1`);
  expect(r.id).toBe(1);
  expect(new Date(r.at).toISOString()).toBe('2026-01-02T03:04:05.000Z');
  expect(r.amount).toBe('12.5000');
});

test('a transaction commits as a whole, and a failing one leaves nothing behind', async () => {
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`INSERT INTO thread_probe (id) VALUES (2)`);
    await tx.execute(sql`INSERT INTO thread_probe (id) VALUES (3)`);
  });
  await expect(
    database.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO thread_probe (id) VALUES (4)`);
      throw new Error('changed my mind');
    }),
  ).rejects.toThrow('changed my mind');
  const ids = (await database.rows<{ id: number }>(sql`SELECT id FROM thread_probe WHERE id BETWEEN 2 AND 4 ORDER BY id`)).map((r) => r.id);
  expect(ids).toEqual([2, 3]);
});

test('queries outside a transaction wait for it and then see its rows', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const tx = database.db.transaction(async (t) => {
    await t.execute(sql`INSERT INTO thread_probe (id) VALUES (5)`);
    await held;
  });
  await new Promise((r) => setTimeout(r, 50));
  const outside = rowsOf<{ n: number }>(database.db, sql`SELECT count(*)::int AS n FROM thread_probe WHERE id = 5`);
  release();
  await tx;
  expect((await outside)[0].n).toBe(1);
});

test('a database error keeps its code (a duplicate key is 23505)', async () => {
  const err = await database.rows(sql`INSERT INTO thread_probe (id) VALUES (1)`).catch((e: unknown) => e);
  let c: unknown = err;
  const codes: string[] = [];
  for (; c && typeof c === 'object'; c = (c as { cause?: unknown }).cause) codes.push((c as { code?: string }).code ?? '');
  expect(codes).toContain('23505');
});

test('NOTIFY reaches a listener, and stops reaching it once it stops listening', async () => {
  const heard: Array<string | null> = [];
  const stop = await database.listen('thread_probe_channel', (p) => heard.push(p));
  await database.rows(sql`SELECT pg_notify('thread_probe_channel', 'one')`);
  await new Promise((r) => setTimeout(r, 50));
  await stop();
  await database.rows(sql`SELECT pg_notify('thread_probe_channel', 'two')`);
  await new Promise((r) => setTimeout(r, 50));
  expect(heard).toEqual(['one']);
});

test('a read with parameters answers the same rows and types every time it runs (prepared once, then only bound)', async () => {
  await database.rows(sql`INSERT INTO thread_probe VALUES (10, '2026-02-03T04:05:06Z', 7.25), (11, NULL, -1)`);
  for (let i = 0; i < 8; i++) {
    const id = 10 + (i % 2);
    const rows = await database.rows<{ id: number; at: string | null; amount: string }>(sql`SELECT id, at, amount FROM thread_probe WHERE id = ${id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(id);
    expect(rows[0].at === null ? null : new Date(rows[0].at).toISOString()).toBe(id === 10 ? '2026-02-03T04:05:06.000Z' : null);
    expect(rows[0].amount).toBe(id === 10 ? '7.2500' : '-1.0000');
  }
  const [{ n }] = await database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM thread_probe WHERE at < ${new Date('2030-01-01T00:00:00Z')}`);
  expect(n).toBeGreaterThanOrEqual(2);
});

test('a read with parameters outside a transaction waits for it and then sees its rows', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const tx = database.db.transaction(async (t) => {
    await t.execute(sql`INSERT INTO thread_probe (id) VALUES (12)`);
    await held;
  });
  await new Promise((r) => setTimeout(r, 50));
  const outside = database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM thread_probe WHERE id = ${12}`);
  release();
  await tx;
  expect((await outside)[0].n).toBe(1);
});

test('a failing read with parameters keeps its code, and the reads after it answer', async () => {
  const err = await database.rows(sql`SELECT id FROM thread_probe WHERE id = ${'not a number'}::int`).catch((e: unknown) => e);
  let c: unknown = err;
  const codes: string[] = [];
  for (; c && typeof c === 'object'; c = (c as { cause?: unknown }).cause) codes.push((c as { code?: string }).code ?? '');
  expect(codes).toContain('22P02');
  const [{ id }] = await database.rows<{ id: number }>(sql`SELECT id FROM thread_probe WHERE id = ${10}`);
  expect(id).toBe(10);
});

test('NOTIFY sent by a read with parameters reaches a listener', async () => {
  const heard: Array<string | null> = [];
  const stop = await database.listen('thread_probe_params', (p) => heard.push(p));
  await database.rows(sql`SELECT pg_notify(${'thread_probe_params'}, ${'three'})`);
  await new Promise((r) => setTimeout(r, 50));
  await stop();
  expect(heard).toEqual(['three']);
});

test("every type, both row shapes and the caller's parsers: the thread answers exactly what PGlite's own query answers", async () => {
  const { PGlite, types } = await import('@electric-sql/pglite');
  const { openPgliteThread } = await import('../../server/db/pglite-thread');
  const direct = new PGlite();
  const thread = await openPgliteThread(null);
  try {
    const setup = `
      CREATE TYPE probe_mood AS ENUM ('calm', 'busy');
      CREATE TABLE probe_types (id serial PRIMARY KEY, mood probe_mood, moods probe_mood[], tags text[], doc jsonb, raw json, bin bytea,
        big bigint, small smallint, ratio float8, amount numeric(20,4), amounts numeric[], ok boolean, day date, at timestamp,
        at_tz timestamptz, ats timestamptz[], span interval, uid uuid, note text);
      INSERT INTO probe_types (mood, moods, tags, doc, raw, bin, big, small, ratio, amount, amounts, ok, day, at, at_tz, ats, span, uid, note) VALUES
        ('calm', '{calm,busy}', '{a,"b c",NULL,"d\\"e"}', '{"a": [1, 2.5, "x"], "b": null, "ü": "ñ"}', '{"k": 12345678901234567890}',
         '\\x00ff10', 9007199254740993, -3, 0.1, '123.4500', '{1.5,NULL,-2}', true, '2026-01-31', '2026-01-02 03:04:05.678',
         '2026-01-02 03:04:05+02', '{"2026-01-02 03:04:05+00",NULL}', '1 day 02:03:04', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
         E'\\uFEFFbom first, then emoji 😀 and ñ'),
        (NULL, '{}', NULL, 'null', NULL, NULL, 42, NULL, 'NaN', NULL, NULL, false, NULL, NULL, NULL, NULL, NULL, NULL, '');
    `;
    await direct.exec(setup);
    await thread.client.exec(setup);
    // What drizzle passes: dates, timestamps and intervals (and their arrays) as the database's text.
    const drizzle = { parsers: Object.fromEntries([types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((t) => [t, (v: string) => v])) };
    const cases: Array<[string, unknown[]]> = [
      ['SELECT * FROM probe_types ORDER BY id', []],
      ['SELECT * FROM probe_types WHERE id = $1', [1]],
      ['SELECT id, note AS "__proto__", id AS dup, note AS dup FROM probe_types ORDER BY id', []],
      ['SELECT count(*) AS n, sum(big) AS s, array_agg(id ORDER BY id) AS ids FROM probe_types WHERE at_tz < $1 OR at_tz IS NULL', [new Date('2030-01-01T00:00:00Z')]],
      ['SELECT jsonb_build_object($1::text, $2::int, $3::text, $4::jsonb) AS j', ['k', 7, 'nested', { a: [1, 'two'] }]],
      ['SELECT * FROM probe_types WHERE false', []],
      ['SELECT $1::bytea AS b, $2::text[] AS t, $3::boolean AS flag', [new Uint8Array([1, 2, 255]), ['x', 'y,z'], 'yes']],
      ["UPDATE probe_types SET note = note || '!' WHERE id > $1", [0]],
      ['INSERT INTO probe_types (note) VALUES ($1), ($2) RETURNING id, note', ['one', 'two']],
      ['DELETE FROM probe_types WHERE note IN ($1, $2)', ['one', 'two']],
      ['VALUES (1, $1::text), (2, NULL)', ['v']],
    ];
    for (const [text, params] of cases) {
      for (const options of [{}, { rowMode: 'array' as const }, drizzle, { ...drizzle, rowMode: 'array' as const }]) {
        const expected = await direct.query(text, params, options);
        const got = await thread.client.query(text, params, options);
        expect({ text, rows: got.rows, fields: got.fields, affectedRows: got.affectedRows }).toEqual({
          text,
          rows: expected.rows,
          fields: expected.fields,
          affectedRows: expected.affectedRows,
        });
        if (text.startsWith('SELECT id, note AS "__proto__"') && !('rowMode' in options)) {
          expect(Object.getPrototypeOf(got.rows[0])).toBe(Object.prototype);
          expect(Object.keys(got.rows[0] as object)).toEqual(Object.keys(expected.rows[0] as object));
        }
      }
    }
  } finally {
    await thread.close();
    await direct.close();
  }
}, 60_000);
