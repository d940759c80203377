// @vitest-environment node
/**
 * Times as answered (server/lib/timestamps.ts): the text a list answers for a timestamptz the database hands
 * over is exactly `toISOString()` of that instant, whatever its fraction of a second (PGlite, and PostgreSQL
 * with TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../server/db/client';
import { createScratchDatabase } from '../support/server';
import { isoTime } from '../../server/lib/timestamps';

let database: Database;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | null = null;

beforeAll(async () => {
  const url = process.env.TEST_DATABASE_URL ?? null;
  scratch = url ? await createScratchDatabase(url) : null;
  database = await openDatabase({ dataDir: null, databaseUrl: scratch?.url ?? null });
});
afterAll(async () => {
  await database.close();
  await scratch?.drop();
});

/** Instants with every length of fraction a timestamptz may print, and the edges of days, months and years. */
const INSTANTS = [
  '2026-10-02T14:00:00Z',
  '2026-10-02T14:00:00.5Z',
  '2026-10-02T14:00:00.05Z',
  '2026-10-02T14:00:00.123Z',
  '2026-10-02T14:00:00.1234Z',
  '2026-10-02T14:00:00.123456Z',
  '2026-10-02T14:00:00.999999Z',
  '2024-02-29T23:59:59.999Z',
  '1999-12-31T23:59:59.000001Z',
  '2000-01-01T00:00:00Z',
  '1900-01-01T00:00:00.001Z',
  '2999-12-31T23:59:59.999Z',
];

describe('times as answered', () => {
  it("PostgreSQL's text of a timestamptz becomes the instant's ISO text (milliseconds cut, never rounded)", async () => {
    for (const instant of INSTANTS) {
      const [row] = await database.rows<{ at: string | Date; ms: string | number }>(
        sql`SELECT ${instant}::timestamptz AS at, floor(extract(epoch FROM ${instant}::timestamptz) * 1000)::text AS ms`,
      );
      expect(isoTime(row.at), `${instant} read as ${String(row.at)}`).toBe(new Date(Number(row.ms)).toISOString());
    }
  });

  it('a session in another time zone, or a Date, answers the same instant', async () => {
    expect(isoTime('2026-10-02 16:00:00.25+02')).toBe('2026-10-02T14:00:00.250Z');
    expect(isoTime('2026-10-02 09:30:00-04:30')).toBe('2026-10-02T14:00:00.000Z');
    expect(isoTime(new Date(Date.UTC(2026, 9, 2, 14, 0, 0, 7)))).toBe('2026-10-02T14:00:00.007Z');
  });

  it('matches toISOString for any millisecond and microsecond of the years it rewrites', () => {
    for (let i = 0; i < 2000; i++) {
      const ms = Date.UTC(1000, 0, 1) + Math.floor(Math.random() * (Date.UTC(9999, 11, 31) - Date.UTC(1000, 0, 1)));
      const base = new Date(ms).toISOString();
      const digits = i % 7;
      const fraction = digits ? `.${(base.slice(20, 23) + String(i % 1000).padStart(3, '0')).slice(0, digits)}` : '';
      const text = `${base.slice(0, 10)} ${base.slice(11, 19)}${fraction}+00`;
      expect(isoTime(text), text).toBe(new Date(text).toISOString());
    }
  });
});
