// @vitest-environment node
/**
 * The genealogy and the downline report a member opens on, kept (migration 0048), on PostgreSQL (TEST_DATABASE_URL)
 * with reads and purchases below the member at the same time: each purchase's volume, once committed, is what the
 * member's next genealogy or report shows at the buyer's row, whatever the other readers kept meanwhile; and a change
 * of a member further down than the genealogy reaches leaves the member's kept genealogy counting. Two writers
 * whose own rows differ but whose changes touch the same kept answers, in opposite orders, both go through at once.
 */
import { eq, sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { companyPlan, downlineReport, ownGenealogyTree, type PlanInfo } from '../../server/lib/genealogy';
import { addVolume } from '../../server/lib/packages';
import { SettingsService } from '../../server/lib/settings';
import { members } from '../../server/db/schema';

let s: TestServer;
let settings: SettingsService;
let plan: PlanInfo;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) throw new Error('tests/server-pg needs TEST_DATABASE_URL (a PostgreSQL server)');
  s = await startTestServer({ seedMembers: 80 });
  settings = new SettingsService(s.database.db, () => false);
  plan = await companyPlan(settings);
}, 120_000);
afterAll(async () => {
  await s?.close();
});

interface Node {
  id: number;
  pv: string;
  children: Node[];
}

async function genealogyOf(id: number) {
  const [caller] = await s.database.db.select().from(members).where(eq(members.id, id));
  const tree = await ownGenealogyTree(s.database, settings, caller, plan, true);
  return { kept: tree.kept, root: JSON.parse(tree.genealogyJson) as Node };
}

function find(node: Node, id: number): Node | undefined {
  if (node.id === id) return node;
  for (const c of node.children) {
    const f = find(c, id);
    if (f) return f;
  }
  return undefined;
}

/** A member of the binary tree and one `levels` below it. */
async function pairAt(levels: number): Promise<{ top: number; below: number }> {
  const [row] = await s.database.rows<{ top: number; below: number }>(
    sql`SELECT a.id AS top, b.id AS below FROM members a JOIN members b ON b.path LIKE a.path || '%' AND b.depth = a.depth + ${levels}
        WHERE a.path <> '' ORDER BY a.depth, a.id, b.id LIMIT 1`,
  );
  return { top: Number(row.top), below: Number(row.below) };
}

const buy = (buyer: number) => s.database.db.transaction((tx) => addVolume(tx, buyer, 10_000n, new Date(), 'repurchase', null));
const pvOf = async (id: number) => (await s.database.rows<{ pv: string }>(sql`SELECT pv::text AS pv FROM members WHERE id = ${id}`))[0].pv;

/**
 * Four readers reading all along while `buyer` buys 200 times; after each purchase commits, `shownPv` (a read as the
 * page reads it) must show the buyer's volume as committed. Answers the readers' reads and the stale reads.
 */
async function raceReadsAgainstPurchases(buyer: number, shownPv: () => Promise<string | undefined>): Promise<{ reads: number; stale: number }> {
  let writing = true;
  let stale = 0;
  const readers = Array.from({ length: 4 }, async () => {
    let reads = 0;
    while (writing) {
      await shownPv();
      reads++;
    }
    return reads;
  });
  try {
    for (let i = 0; i < 200; i++) {
      await buy(buyer);
      const shown = await shownPv();
      if (shown === undefined || Number(shown) !== Number(await pvOf(buyer))) stale++;
    }
  } finally {
    writing = false;
  }
  return { reads: (await Promise.all(readers)).reduce((a, b) => a + b, 0), stale };
}

test('reads racing purchases three levels below never keep a genealogy from before a purchase', async () => {
  const { top, below } = await pairAt(3);
  const { reads, stale } = await raceReadsAgainstPurchases(below, async () => find((await genealogyOf(top)).root, below)?.pv);
  expect(reads).toBeGreaterThan(100);
  expect(stale).toBe(0);
  expect((await genealogyOf(top)).kept).toBe(true);
});

test('a change of a member deeper than the genealogy reaches leaves it kept, one within it does not', async () => {
  const { top, below: deep } = await pairAt(5);
  const { below: near } = await pairAt(4);
  const rename = (id: number, name: string) => s.database.rows(sql`UPDATE members SET first_name = ${name} WHERE id = ${id}`);
  await genealogyOf(top);
  expect((await genealogyOf(top)).kept).toBe(true);
  await rename(deep, 'Deeper');
  expect((await genealogyOf(top)).kept).toBe(true);
  await rename(near, 'Nearer');
  const after = await genealogyOf(top);
  expect(after.kept).toBe(false);
  expect((find(after.root, near) as Node & { first_name: string }).first_name).toBe('Nearer');
});

test('reads racing purchases by the newest member below never keep a report page from before a purchase', async () => {
  const { top } = await pairAt(1);
  const [caller] = await s.database.db.select().from(members).where(eq(members.id, top));
  const opening = { category: 'placement' as const, page: 1, sort: 'desc' as const };
  const page = async () => {
    const r = await downlineReport(s.database, caller, opening);
    return { kept: r.kept, rows: JSON.parse(r.rowsJson) as Array<{ id: number; pv: string }> };
  };
  const buyer = (await page()).rows[0].id;
  const { reads, stale } = await raceReadsAgainstPurchases(buyer, async () => (await page()).rows.find((r) => r.id === buyer)?.pv);
  expect(reads).toBeGreaterThan(100);
  expect(stale).toBe(0);
  expect((await page()).kept).toBe(true);
});

test('two writers touching the same kept answers in opposite orders both go through, neither aborted', async () => {
  const [a, b] = (await s.database.rows<{ id: number }>(sql`SELECT id FROM members WHERE path <> '' ORDER BY id OFFSET 10 LIMIT 2`)).map((r) => Number(r.id));
  // KYC of one member, then a special-member mark of the other: different tables' rows, the same two members' home
  // answers. Raised where they happen, each writer would hold one answer and wait for the other's.
  const kyc = `INSERT INTO member_kyc (member_id, status) VALUES ($1, 'pending') ON CONFLICT (member_id) DO UPDATE SET status = EXCLUDED.status`;
  const special = `INSERT INTO special_members (member_id) VALUES ($1) ON CONFLICT DO NOTHING`;
  // Connections of their own, outside the server's pool (whose transactions run again when aborted).
  const pg = (await import('pg')).default;
  const clients = [new pg.Client({ connectionString: s.config.databaseUrl! }), new pg.Client({ connectionString: s.config.databaseUrl! })];
  await Promise.all(clients.map((c) => c.connect()));
  const run = (c: InstanceType<typeof pg.Client>, text: string, id: number) => c.query(text, [id]);
  try {
    await Promise.all(clients.map((c) => c.query('BEGIN')));
    await run(clients[0], kyc, a);
    await run(clients[1], kyc, b);
    const second = [run(clients[0], special, b), run(clients[1], special, a)];
    const outcomes = await Promise.allSettled([...second, ...clients.map((c) => c.query('COMMIT'))]);
    expect(outcomes.map((o) => (o.status === 'rejected' ? String((o.reason as Error).message) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  const rows = await s.database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM special_members WHERE member_id IN (${a}, ${b})`);
  expect(rows[0].n).toBe(2);
});
