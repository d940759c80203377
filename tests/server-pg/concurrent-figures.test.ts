// @vitest-environment node
/**
 * Figures two writers change at the same time (PostgreSQL, TEST_DATABASE_URL): an order and a payout request
 * of one member written while another transaction holds that member's figures are both counted — the second
 * writer adds its difference to what the first committed instead of writing a recount taken before it.
 */
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';

let s: TestServer;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('tests/server-pg needs TEST_DATABASE_URL (a PostgreSQL server)');
  s = await startTestServer({ seedMembers: 10 });
}, 120_000);
afterAll(async () => {
  await s?.close();
});

let serial = 0;
const order = (memberId: number, total: string) =>
  sql`INSERT INTO orders (member_id, invoice_no, order_type, status, total, total_bv, payment_method, billing)
      VALUES (${memberId}, ${`RACE-${process.pid}-${++serial}`}, 'upgrade', 'completed', ${total}::numeric, 0, 'card', '{}'::jsonb)`;

const figure = async (memberId: number, column: 'total_investment' | 'total_pending') =>
  (await s.database.rows<{ v: string }>(sql`SELECT coalesce((SELECT ${sql.raw(column)}::text FROM member_figures WHERE member_id = ${memberId}), '0') AS v`))[0].v;

/** Runs `first` in a transaction that stays open until `second` (another transaction) has had time to wait for it. */
async function overlapping(first: ReturnType<typeof sql>, second: ReturnType<typeof sql>) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let written!: () => void;
  const firstWritten = new Promise<void>((r) => (written = r));
  const one = s.database.db.transaction(async (tx) => {
    await tx.execute(first);
    written();
    await held;
  });
  await firstWritten;
  const two = s.database.db.transaction(async (tx) => {
    await tx.execute(second);
  });
  await new Promise((r) => setTimeout(r, 300)); // the second writer's figure update now waits for the first's row
  release();
  await Promise.all([one, two]);
}

test('two orders of one member written at the same time both count in the package investment', async () => {
  const [m] = await s.database.rows<{ id: number }>(sql`SELECT id FROM members WHERE id > 4 ORDER BY id LIMIT 1`);
  const before = Number(await figure(m.id, 'total_investment'));
  await overlapping(order(m.id, '10.00'), order(m.id, '5.00'));
  expect(Number(await figure(m.id, 'total_investment'))).toBe(before + 15);
  const [recount] = await s.database.rows<{ v: string }>(
    sql`SELECT coalesce(sum(total), 0)::text AS v FROM orders WHERE member_id = ${m.id} AND order_type IN ('registration', 'upgrade') AND status <> 'cancelled'`,
  );
  expect(Number(await figure(m.id, 'total_investment'))).toBe(Number(recount.v));
});

test('two payout requests of one member written at the same time both count as pending', async () => {
  const [m] = await s.database.rows<{ id: number }>(sql`SELECT id FROM members WHERE id > 4 ORDER BY id OFFSET 1 LIMIT 1`);
  const before = Number(await figure(m.id, 'total_pending'));
  const request = (amount: string) => sql`INSERT INTO payout_requests (member_id, amount, status) VALUES (${m.id}, ${amount}::numeric, 1)`;
  await overlapping(request('7.00'), request('3.00'));
  expect(Number(await figure(m.id, 'total_pending'))).toBe(before + 10);
});
