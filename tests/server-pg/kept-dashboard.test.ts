// @vitest-environment node
/**
 * The dashboard's kept parts (migration 0047) on PostgreSQL (TEST_DATABASE_URL), where reads and changes of one
 * member run at the same time: a read while a change is not committed neither waits for it nor keeps what it
 * read as current, and reads racing committed changes never keep parts from before one: each change, once
 * committed, is what the next read shows.
 */
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { memberDashboardParts } from '../../server/lib/home';

let s: TestServer;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('tests/server-pg needs TEST_DATABASE_URL (a PostgreSQL server)');
  s = await startTestServer({ seedMembers: 10 });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

/** Index of the KYC status among the parts (in the order memberDashboardParts in server/lib/home.ts gives them). */
const KYC = 8;
const setKyc = (memberId: number, status: string) =>
  sql`INSERT INTO member_kyc (member_id, status) VALUES (${memberId}, ${status}) ON CONFLICT (member_id) DO UPDATE SET status = EXCLUDED.status`;

async function member(offset: number): Promise<number> {
  const [m] = await s.database.rows<{ id: number }>(sql`SELECT id FROM members WHERE path <> '' ORDER BY id OFFSET ${offset} LIMIT 1`);
  return Number(m.id);
}

test('a read while a change of the member is not committed answers at once, and what it read is not kept', async () => {
  const id = await member(3);
  const now = new Date();
  await s.database.rows(setKyc(id, 'pending'));
  await memberDashboardParts(s.database.db, id, now);
  expect((await memberDashboardParts(s.database.db, id, now)).kept).toBe(true);

  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let written!: () => void;
  const changed = new Promise<void>((r) => (written = r));
  const change = s.database.db.transaction(async (tx) => {
    await tx.execute(setKyc(id, 'approved'));
    written();
    await held;
  });
  await changed;
  try {
    // Not committed: readers still see the kept parts, which show what is committed.
    const during = await memberDashboardParts(s.database.db, id, now);
    expect(during.kept).toBe(true);
    expect(during.parts[KYC]).toBe('pending');
    // Kept parts that no longer count (the epoch raised by a committed statement) are computed again while the
    // change is open: the read neither waits for it nor sees it, and what it keeps stops counting when the change
    // commits (the change raises the member's answer as it commits).
    await s.database.rows(sql`UPDATE member_kept_epoch SET epoch = epoch + 1`);
    const read = memberDashboardParts(s.database.db, id, now);
    const waited = await Promise.race([read.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), 3_000))]);
    expect(waited).toBe(false);
    const computed = await read;
    expect(computed.kept).toBe(false);
    expect(computed.parts[KYC]).toBe('pending');
  } finally {
    release();
    await change;
  }
  const after = await memberDashboardParts(s.database.db, id, now);
  expect(after.kept).toBe(false);
  expect(after.parts[KYC]).toBe('approved');
  expect((await memberDashboardParts(s.database.db, id, now)).kept).toBe(true);
});

test('reads racing committed changes never keep parts from before the change', async () => {
  const id = await member(4);
  const now = new Date();
  const statuses = ['pending', 'approved', 'rejected', 'not_submitted'];
  let writing = true;
  let stale = 0;
  const readers = Array.from({ length: 4 }, async () => {
    let reads = 0;
    while (writing) {
      await memberDashboardParts(s.database.db, id, now);
      reads++;
    }
    return reads;
  });
  try {
    // Each change, once committed, is what the next read shows, whatever the other readers kept meanwhile.
    for (let i = 0; i < 300; i++) {
      const status = statuses[i % statuses.length];
      await s.database.rows(setKyc(id, status));
      if ((await memberDashboardParts(s.database.db, id, now)).parts[KYC] !== status) stale++;
    }
  } finally {
    writing = false;
  }
  const reads = (await Promise.all(readers)).reduce((a, b) => a + b, 0);
  expect(reads).toBeGreaterThan(100);
  expect(stale).toBe(0);
  expect((await memberDashboardParts(s.database.db, id, now)).kept).toBe(true);
});
