/**
 * Wallet demo data for `demo` and its downline, from the seeded members: orders (packages and
 * products), PV history, a binary-pairing run over demo's legs, earnings, payouts in every status,
 * transfers and adjustments — all posted through the ledger's posting builders so every figure
 * adds up (binary bonus earnings = the pairing rows' bonus_to_pay, wallet balance = −Σ entries).
 *
 * Deterministic: a seeded PRNG and fixed dates (2025-01 … 2026-10). The data is built in memory in
 * time order (so no payout or wallet purchase ever overdraws) and written with multi-row INSERTs.
 * Only the closest `DOWNLINE_CAP` members of demo's downline take part, whatever the tree's size.
 */
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { settings } from '../db/schema';
import {
  binaryHistory,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  earnings,
  memberKyc,
  orderItems,
  orders,
  payoutRequests,
  pvHistory,
} from '../db/schema-wallet';
import {
  DEFAULT_PAYOUT_SETTINGS,
  DEFAULT_WALLET_SETTINGS,
  LedgerBatch,
  PAYOUT_STATUS,
  adjustmentPosting,
  externalPaymentPosting,
  payoutFee,
  payoutPaidPosting,
  payoutRefundPostings,
  payoutRequestPostings,
  rowsOf,
  systemAccounts,
  transferPosting,
  walletPurchasePosting,
  type BonusType,
  type KycStatus,
  type Posting,
  type SystemAccountIds,
} from '../lib/ledger';
import * as money from '../lib/money';
import type { Units } from '../lib/money';
import { runPairing, type HistoryRow, type Leg } from '../lib/pairing';
import {
  DEFAULT_COMPENSATION_SETTINGS,
  levelCommissions,
  levelRules,
  pairingConfig,
  periodOf,
  ymd,
  type CompensationSettings,
} from '../lib/compensation';
import { compensationRuns } from '../db/schema-compensation';
import type { Plan } from '../../src/schemas/common.schema';
import { Rng } from './prng';
import type { Seeder } from '../seed';

const DAY = 86_400_000;
/** Nothing is dated after this (the data must not lie in the future). */
export const WALLET_END = Date.UTC(2026, 9, 31, 23, 59, 59, 999);
/** Members of demo's downline that take part (closest first). */
export const DOWNLINE_CAP = 2000;

const PRODUCTS = [
  { sku: 'PRD-VITA-30', name: 'Daily Vitamins (30 days)', price: '39.90', bv: '25' },
  { sku: 'PRD-PROT-1KG', name: 'Plant Protein 1 kg', price: '54.00', bv: '35' },
  { sku: 'PRD-TEA-60', name: 'Green Tea Extract (60 caps)', price: '24.50', bv: '15' },
  { sku: 'PRD-OMEGA-90', name: 'Omega-3 Softgels (90)', price: '32.00', bv: '20' },
  { sku: 'PRD-SKIN-SET', name: 'Skin Care Set', price: '89.00', bv: '60' },
  { sku: 'PRD-SHAKE-14', name: 'Meal Shake (14 servings)', price: '45.00', bv: '30' },
] as const;

const PLACES = [
  { city: 'Austin', zone: 'Texas', postcode: '73301', country: 'United States' },
  { city: 'Denver', zone: 'Colorado', postcode: '80202', country: 'United States' },
  { city: 'Madrid', zone: 'Madrid', postcode: '28013', country: 'Spain' },
  { city: 'Guadalajara', zone: 'Jalisco', postcode: '44100', country: 'Mexico' },
  { city: 'Manchester', zone: 'Greater Manchester', postcode: 'M1 1AE', country: 'United Kingdom' },
  { city: 'Pune', zone: 'Maharashtra', postcode: '411001', country: 'India' },
  { city: 'Munich', zone: 'Bavaria', postcode: '80331', country: 'Germany' },
  { city: 'Brisbane', zone: 'Queensland', postcode: '4000', country: 'Australia' },
];
const STREETS = ['Maple Street', 'Oak Avenue', 'Calle Mayor', 'High Street', 'Hauptstraße', 'Station Road', 'Cedar Lane', 'Park Road'];

interface Member {
  id: number;
  username: string;
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  sponsorId: number | null;
  packageId: number | null;
  purchaseAt: number | null;
  createdAt: number;
  rankId: number | null;
  rankAt: number | null;
  /** Which of demo's legs the member sits under (null for demo). */
  leg: Leg | null;
}

interface Pkg {
  id: number;
  name: string;
  sku: string;
  price: Units;
  bv: Units;
  expiryDays: number | null;
  image: string | null;
  directBonus: string;
  sortOrder: number;
}

interface Rank {
  id: number;
  name: string;
  bonus: Units;
  sortOrder: number;
}

interface OrderDraft {
  id: number;
  member: Member;
  type: 'registration' | 'repurchase' | 'upgrade';
  status: string;
  at: number;
  pkg: Pkg | null;
  items: Array<{ sku: string; name: string; price: Units; bv: Units; quantity: number; expiry: string | null; image: string | null }>;
  total: Units;
  totalBv: Units;
  paymentMethod: string;
  billing: Record<string, string | null>;
  shipping: Record<string, string | null> | null;
  counts: boolean;
}

const ymdOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A time-ordered queue of things that happen; events scheduled while running land in order. */
class Timeline {
  private events: Array<{ at: number; seq: number; run: () => void }> = [];
  private seq = 0;
  private running = false;
  private pos = 0;

  at(at: number, run: () => void) {
    const e = { at, seq: this.seq++, run };
    if (!this.running) {
      this.events.push(e);
      return;
    }
    // Binary insertion after the current position.
    let lo = this.pos + 1;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = this.events[mid];
      if (m.at < e.at || (m.at === e.at && m.seq < e.seq)) lo = mid + 1;
      else hi = mid;
    }
    this.events.splice(lo, 0, e);
  }

  run() {
    this.events.sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.running = true;
    for (this.pos = 0; this.pos < this.events.length; this.pos++) this.events[this.pos].run();
    this.running = false;
  }
}

async function insertChunked<T extends Record<string, unknown>>(db: Db, table: Parameters<Db['insert']>[0], rows: T[], size = 1000) {
  for (let i = 0; i < rows.length; i += size) await db.insert(table).values(rows.slice(i, i + size) as never);
}

async function nextId(db: Db, table: string): Promise<number> {
  const [r] = await rowsOf<{ n: number }>(db, sql.raw(`SELECT (coalesce(max(id), 0) + 1)::int AS n FROM ${table}`));
  return Number(r.n);
}

async function syncSequence(db: Db, table: string) {
  await db.execute(sql.raw(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), greatest((SELECT max(id) FROM ${table}), 1))`));
}

/** Seed the wallet data in its own transaction (an already seeded database is left alone). */
export async function seedWallet(database: Database, config: Config): Promise<void> {
  await database.db.transaction(async (tx) => seedWalletInto(tx as unknown as Db, config, new Rng(0x77a11e7)));
}

/** The same, as a step of the main seed (inside its transaction). */
export const walletSeeder: Seeder = (ctx) => seedWalletInto(ctx.db, ctx.config, ctx.rng('wallet'));

export async function seedWalletInto(db: Db, _config: Config, rng: Rng): Promise<void> {
  void _config;
  const [done] = await rowsOf(db, sql`SELECT 1 FROM orders LIMIT 1`);
  if (done) return;
  const [demoRow] = await rowsOf<Record<string, unknown>>(
    db,
    sql`SELECT id, username, first_name, last_name, email, mobile_code, mobile, sponsor_id, package_id, package_purchase_date, created_at,
               rank_id, rank_achieved_at, path, depth
        FROM members WHERE lower(username) = 'demo'`,
  );
  if (!demoRow) return;

  const ws = DEFAULT_WALLET_SETTINGS;
  const [planRow] = await rowsOf<{ plan: Plan | null }>(db, sql`SELECT value->>'compensation_plan' AS plan FROM settings WHERE key = 'modules'`);
  const plan: Plan = planRow?.plan ?? 'binary';
  const [compRow] = await rowsOf<{ value: Partial<CompensationSettings> }>(db, sql`SELECT value FROM settings WHERE key = 'compensation'`);
  const rules = levelRules(plan, { ...DEFAULT_COMPENSATION_SETTINGS, ...(compRow?.value ?? {}) }, null);
  const ps = DEFAULT_PAYOUT_SETTINGS;
  await db.insert(settings).values([
    { key: 'wallet', value: ws },
    { key: 'payout', value: ps },
  ]).onConflictDoNothing();

  const toMember = (r: Record<string, unknown>, leg: Leg | null): Member => ({
    id: Number(r.id),
    username: String(r.username),
    firstName: String(r.first_name),
    lastName: (r.last_name as string | null) ?? null,
    email: (r.email as string | null) ?? null,
    phone: r.mobile ? `${r.mobile_code ?? ''} ${r.mobile}`.trim() : null,
    sponsorId: r.sponsor_id === null ? null : Number(r.sponsor_id),
    packageId: r.package_id === null ? null : Number(r.package_id),
    purchaseAt: r.package_purchase_date ? new Date(r.package_purchase_date as string).getTime() : null,
    createdAt: new Date(r.created_at as string).getTime(),
    rankId: r.rank_id === null ? null : Number(r.rank_id),
    rankAt: r.rank_achieved_at ? new Date(r.rank_achieved_at as string).getTime() : null,
    leg,
  });
  const demo = toMember(demoRow, null);
  const demoPath = String(demoRow.path);
  const demoDepth = Number(demoRow.depth);

  // Closest members first; 2^11 members per leg fill DOWNLINE_CAP, so deeper levels are not read.
  const downRows = await rowsOf<Record<string, unknown>>(
    db,
    sql`SELECT id, username, first_name, last_name, email, mobile_code, mobile, sponsor_id, package_id, package_purchase_date, created_at,
               rank_id, rank_achieved_at, path, parent_id, position
        FROM members
        WHERE path LIKE ${demoPath.replace(/[\\%_]/g, '\\$&') + '%'} AND id <> ${demo.id} AND depth <= ${demoDepth + 12}
        ORDER BY depth, id LIMIT ${DOWNLINE_CAP}`,
  );
  const childLeg = new Map<number, Leg>();
  for (const r of downRows) if (Number(r.parent_id) === demo.id) childLeg.set(Number(r.id), r.position === 'R' ? 'R' : 'L');
  const down: Member[] = [];
  for (const r of downRows) {
    const top = Number(String(r.path).slice(demoPath.length).split('.')[0]);
    const leg = childLeg.get(top);
    if (leg) down.push(toMember(r, leg));
  }
  down.sort((a, b) => a.id - b.id);
  const everyone = [demo, ...down];
  const byId = new Map(everyone.map((m) => [m.id, m]));

  const packages = new Map(
    (
      await rowsOf<{ id: number; name: string; sku: string; price: string; bv: string; expiry_days: number | null; image: string | null; direct_bonus: string; sort_order: number }>(
        db,
        sql`SELECT id, name, sku, price::text AS price, bv::text AS bv, expiry_days, image, direct_bonus::text AS direct_bonus, sort_order FROM packages`,
      )
    ).map((p) => [
      Number(p.id),
      {
        id: Number(p.id),
        name: p.name,
        sku: p.sku,
        price: money.parse(p.price),
        bv: money.parse(p.bv),
        expiryDays: p.expiry_days === null ? null : Number(p.expiry_days),
        image: p.image,
        directBonus: p.direct_bonus,
        sortOrder: Number(p.sort_order),
      } satisfies Pkg,
    ]),
  );
  const pkgList = [...packages.values()].sort((a, b) => a.sortOrder - b.sortOrder);
  const ranks = (
    await rowsOf<{ id: number; name: string; bonus: string; sort_order: number }>(db, sql`SELECT id, name, bonus::text AS bonus, sort_order FROM ranks
          WHERE plan IS NULL OR plan = (SELECT value->>'compensation_plan' FROM settings WHERE key = 'modules')`)
  )
    .map((r) => ({ id: Number(r.id), name: r.name, bonus: money.parse(r.bonus), sortOrder: Number(r.sort_order) }) satisfies Rank)
    .sort((a, b) => a.sortOrder - b.sortOrder);
  const rankById = new Map(ranks.map((r) => [r.id, r]));

  // --- Accounts ------------------------------------------------------------------------------
  const acc: SystemAccountIds = await systemAccounts(db);
  const walletIds = new Map<number, number>();
  for (let i = 0; i < everyone.length; i += 1000) {
    const chunk = everyone.slice(i, i + 1000);
    const rows = await db
      .insert(ledgerAccounts)
      .values(chunk.map((m) => ({ kind: 'member_wallet', memberId: m.id, normalSide: 'C', name: `Wallet of ${m.username}` })))
      .onConflictDoNothing()
      .returning({ id: ledgerAccounts.id, memberId: ledgerAccounts.memberId });
    for (const r of rows) walletIds.set(Number(r.memberId), Number(r.id));
  }
  for (const r of await rowsOf<{ id: number; member_id: number }>(db, sql`SELECT id, member_id FROM ledger_accounts WHERE member_id IS NOT NULL`)) {
    if (byId.has(Number(r.member_id))) walletIds.set(Number(r.member_id), Number(r.id));
  }
  const walletOf = (memberId: number) => walletIds.get(memberId)!;

  // --- Orders --------------------------------------------------------------------------------
  let orderId = 0; // provisional, renumbered by date below
  const drafts: OrderDraft[] = [];
  const address = (m: Member) => {
    const place = PLACES[m.id % PLACES.length];
    return {
      first_name: m.firstName,
      last_name: m.lastName,
      company: null,
      address_1: `${10 + (m.id % 890)} ${STREETS[m.id % STREETS.length]}`,
      address_2: m.id % 5 === 0 ? `Apt ${1 + (m.id % 40)}` : null,
      city: place.city,
      postcode: place.postcode,
      country_name: place.country,
      zone_name: place.zone,
      phone: m.phone,
      email: m.email,
    };
  };
  const payMethod = () => rng.weighted([
    ['card', 0.7],
    ['bank_transfer', 0.3],
  ] as const);
  const packageOrder = (m: Member, pkg: Pkg, at: number, type: 'registration' | 'upgrade', from: Pkg | null) => {
    const price = from ? pkg.price - from.price : pkg.price;
    const bv = from ? pkg.bv - from.bv : pkg.bv;
    const billing = address(m);
    drafts.push({
      id: orderId++,
      member: m,
      type,
      status: 'completed',
      at,
      pkg,
      items: [
        {
          sku: pkg.sku,
          name: from ? `${pkg.name} (upgrade from ${from.name})` : pkg.name,
          price,
          bv,
          quantity: 1,
          expiry: pkg.expiryDays ? ymdOf(at + pkg.expiryDays * DAY) : null,
          image: pkg.image,
        },
      ],
      total: price,
      totalBv: bv,
      paymentMethod: payMethod(),
      billing,
      shipping: type === 'registration' ? billing : null,
      counts: true,
    });
  };
  const productOrder = (m: Member, at: number) => {
    const lines = rng.int(1, 3);
    const items: OrderDraft['items'] = [];
    const used = new Set<string>();
    for (let k = 0; k < lines; k++) {
      const p = rng.pick(PRODUCTS);
      if (used.has(p.sku)) continue;
      used.add(p.sku);
      items.push({ sku: p.sku, name: p.name, price: money.parse(p.price), bv: money.parse(p.bv), quantity: rng.int(1, 3), expiry: null, image: null });
    }
    const total = money.sum(items.map((i) => money.times(i.price, i.quantity)));
    const totalBv = money.sum(items.map((i) => money.times(i.bv, i.quantity)));
    const recent = at > WALLET_END - 14 * DAY;
    const status = recent ? rng.pick(['processing', 'shipped'] as const) : rng.chance(0.04) ? 'cancelled' : 'completed';
    const billing = address(m);
    drafts.push({
      id: orderId++,
      member: m,
      type: 'repurchase',
      status,
      at,
      pkg: null,
      items,
      total,
      totalBv,
      paymentMethod: payMethod(),
      billing,
      shipping: billing,
      counts: status !== 'cancelled',
    });
  };

  for (const m of everyone) {
    if (m.createdAt > WALLET_END) continue;
    const pkg = m.packageId === null ? null : packages.get(m.packageId) ?? null;
    const joinedAt = Math.max(m.purchaseAt ?? m.createdAt, m.createdAt) + 3_600_000;
    if (pkg && joinedAt <= WALLET_END) {
      const lower = m === demo ? pkgList.filter((p) => p.sortOrder < pkg.sortOrder).pop() : undefined;
      if (lower) {
        // demo joined with the package below its current one and upgraded two months later.
        packageOrder(m, lower, joinedAt, 'registration', null);
        if (joinedAt + 60 * DAY <= WALLET_END) packageOrder(m, pkg, joinedAt + 60 * DAY, 'upgrade', lower);
      } else packageOrder(m, pkg, joinedAt, 'registration', null);
    }
    // Product repurchases: demo every five to seven weeks, the others now and then.
    const first = m.createdAt + 15 * DAY;
    if (m === demo) {
      for (let t = first + 20 * DAY; t <= WALLET_END; t += rng.int(35, 49) * DAY) productOrder(m, t + rng.int(9, 19) * 3_600_000);
    } else {
      const n = rng.weighted([
        [0, 0.3],
        [1, 0.35],
        [2, 0.2],
        [3, 0.15],
      ] as const);
      for (let k = 0; k < n && first < WALLET_END; k++) productOrder(m, first + Math.floor(rng.next() * (WALLET_END - first)));
    }
  }
  // Order numbers follow the order dates, as they would in a live shop.
  drafts.sort((a, b) => a.at - b.at || a.id - b.id);
  const firstOrderId = await nextId(db, 'orders');
  drafts.forEach((o, i) => (o.id = firstOrderId + i));

  // --- PV history and binary volume ----------------------------------------------------------
  type PvRow = typeof pvHistory.$inferInsert;
  const pvRows: PvRow[] = [];
  const pvTotals = new Map<number, { pv: Units; tv: Units }>();
  const addPv = (memberId: number, o: OrderDraft, pv: Units, tv: Units) => {
    const t = pvTotals.get(memberId) ?? { pv: 0n, tv: 0n };
    t.pv += pv;
    t.tv += tv;
    pvTotals.set(memberId, t);
    pvRows.push({
      memberId,
      type: o.type,
      pv: money.format(pv),
      tv: money.format(tv),
      totalPv: money.format(t.pv),
      totalTv: money.format(t.tv),
      fromMemberId: o.member.id,
      orderId: o.id,
      createdAt: new Date(o.at + 60_000),
    });
  };
  const volume: Array<{ leg: Leg; pv: Units; at: Date; meta: OrderDraft }> = [];
  for (const o of drafts) {
    if (!o.counts || o.totalBv <= 0n) continue;
    addPv(o.member.id, o, o.totalBv, o.totalBv);
    if (o.member !== demo) {
      addPv(demo.id, o, 0n, o.totalBv);
      if (plan === 'binary') volume.push({ leg: o.member.leg!, pv: o.totalBv, at: new Date(o.at + 60_000), meta: o });
    }
  }
  const b = ws.binary;
  const pairing = runPairing(volume, pairingConfig(b), new Date(WALLET_END));

  // --- The wallet timeline -------------------------------------------------------------------
  const batch = new LedgerBatch(await nextId(db, 'ledger_transactions'), await nextId(db, 'earnings'));
  const isWallet = new Set(walletIds.values());
  const balance = new Map<number, Units>(); // wallet account → balance (credit-normal: −Σ lines)
  const postTracked = (p: Posting) => {
    const id = batch.add(p);
    for (const l of p.lines) if (isWallet.has(l.account)) balance.set(l.account, (balance.get(l.account) ?? 0n) - l.amount);
    return id;
  };
  const earn = (memberId: number, bonusType: BonusType, gross: Units, at: number, extra: { level?: number; fromMemberId?: number; rankId?: number } = {}) => {
    if (gross <= 0n) return null;
    const wallet = walletOf(memberId);
    const { earningId, net } = batch.addEarning({ memberId, bonusType, gross, createdAt: new Date(at), ...extra }, wallet, acc, ws);
    balance.set(wallet, (balance.get(wallet) ?? 0n) + net);
    return earningId;
  };
  const balanceOf = (memberId: number) => balance.get(walletOf(memberId)) ?? 0n;
  const tl = new Timeline();

  // Orders: paid outside the wallet, except demo's product orders when its wallet can pay them.
  for (const o of drafts) {
    if (!o.counts) continue;
    tl.at(o.at, () => {
      if (o.member === demo && o.type === 'repurchase' && balanceOf(demo.id) >= o.total + money.parse('50') && rng.chance(0.6)) {
        o.paymentMethod = 'e_wallet';
        postTracked(walletPurchasePosting({ id: o.id, memberId: demo.id, total: o.total, createdAt: new Date(o.at) }, walletOf(demo.id), acc));
      } else if (o.total > 0n) {
        postTracked(externalPaymentPosting({ id: o.id, memberId: o.member.id, total: o.total, createdAt: new Date(o.at) }, acc));
      }
    });
  }

  // Referral (direct) bonus to the sponsor of every registration, from the package's direct-bonus rate.
  for (const o of drafts) {
    if (!o.counts || o.type !== 'registration' || !o.pkg) continue;
    const sponsor = o.member.sponsorId;
    if (sponsor === null || !byId.has(sponsor)) continue;
    const rate = Number(o.pkg.directBonus) > 0 ? o.pkg.directBonus : ws.referral_percent;
    tl.at(o.at + 120_000, () => earn(sponsor, 'referral_bonus', money.percentOf(o.total, rate, 2), o.at + 120_000, { level: 1, fromMemberId: o.member.id }));
  }

  // Level commission to demo on product and upgrade orders of its sponsor downline (levels 1…n).
  const sponsorLevel = (m: Member): number | null => {
    let level = 1;
    for (let s = m.sponsorId; s !== null && level <= ws.level_percents.length; level++) {
      if (s === demo.id) return level;
      const up = byId.get(s);
      if (!up) return null;
      s = up.sponsorId;
    }
    return null;
  };
  for (const o of drafts) {
    if (plan !== 'binary' || !o.counts || o.type === 'registration' || o.member === demo) continue;
    const level = sponsorLevel(o.member);
    if (level === null) continue;
    const at = o.at + 180_000;
    tl.at(at, () => earn(demo.id, 'level_commission', money.percentOf(o.total, ws.level_percents[level - 1], 2), at, { level, fromMemberId: o.member.id }));
  }

  // Matrix and unilevel: the weekly run's level commissions (compensation.ts, as the operator's run pays
  // them) to demo on every purchase's volume of its placement (matrix) or sponsor (unilevel) downline,
  // for each week that ended by WALLET_END; later volume waits for the next run.
  const paidWeeks = new Map<string, { count: number; total: Units }>();
  const paidWeek = (start: Date, gross: Units) => {
    const w = paidWeeks.get(ymd(start)) ?? { count: 0, total: 0n };
    paidWeeks.set(ymd(start), { count: w.count + 1, total: w.total + gross });
  };
  const lastClosed = periodOf(new Date(WALLET_END + 1 - 7 * DAY));
  if (plan !== 'binary') {
    const parentOf = new Map<number, number | null>(downRows.map((r) => [Number(r.id), r.parent_id === null ? null : Number(r.parent_id)]));
    const uplineOf = (memberId: number) => {
      const chain: { id: number; earns: boolean }[] = [];
      for (let m = memberId; chain.length < rules.levelPercents.length; ) {
        const up = plan === 'matrix' ? parentOf.get(m) : byId.get(m)?.sponsorId;
        if (up === undefined || up === null) return [];
        chain.push({ id: up, earns: up === demo.id });
        if (up === demo.id) return chain;
        m = up;
      }
      return [];
    };
    const sales = drafts
      .filter((o) => o.counts && o.totalBv > 0n && o.member !== demo && o.at + 60_000 < lastClosed.end.getTime())
      .map((o) => ({ memberId: o.member.id, pv: o.totalBv, at: new Date(o.at + 60_000) }));
    for (const c of levelCommissions(sales, uplineOf, rules.levelPercents)) {
      const week = periodOf(c.at);
      const at = week.end.getTime() - 1;
      paidWeek(week.start, c.gross);
      tl.at(at, () => earn(c.memberId, 'level_commission', c.gross, at, { level: c.level, fromMemberId: c.fromMemberId }));
    }
  }

  // Binary bonus: one earning per pairing run that paid something.
  const earningOfPairing = new Map<HistoryRow<OrderDraft>, number>();
  for (const row of pairing.rows) {
    if (row.type !== 'pairing' || row.bonusToPay <= 0n) continue;
    const at = row.at.getTime();
    paidWeek(row.periodStart, row.bonusToPay);
    tl.at(at, () => {
      const id = earn(demo.id, 'binary_bonus', row.bonusToPay, at);
      if (id !== null) earningOfPairing.set(row, id);
    });
  }

  // Rank bonuses: demo climbed rank by rank; the others earned their current rank's bonus once.
  for (const m of everyone) {
    if (m.rankId === null || !rankById.has(m.rankId)) continue;
    const top = rankById.get(m.rankId)!;
    const reached = Math.min(m.rankAt ?? m.createdAt + 90 * DAY, WALLET_END);
    const climb = m === demo ? ranks.filter((r) => r.sortOrder <= top.sortOrder) : [top];
    climb.forEach((r, i) => {
      const at = m === demo ? m.createdAt + Math.round(((i + 1) / climb.length) * (reached - m.createdAt)) : reached;
      tl.at(at, () => earn(m.id, 'rank_bonus', r.bonus, at, { rankId: r.id }));
    });
  }

  // Payout requests: demo monthly; some downline members once or twice.
  let payoutId = await nextId(db, 'payout_requests');
  type PayoutInsert = typeof payoutRequests.$inferInsert;
  const payouts: PayoutInsert[] = [];
  const minimum = money.parse(ps.minimum);
  const maximum = money.parse(ps.maximum);
  const requestPayout = (m: Member, at: number, share: number, fate: 'paid' | 'rejected' | 'approved' | 'pending') => {
    const bal = balanceOf(m.id);
    let amount = (bal * BigInt(Math.round(share * 100))) / 100n;
    amount = (amount / money.fromInt(10)) * money.fromInt(10);
    if (amount > maximum) amount = maximum;
    if (amount < minimum) return;
    const fee = payoutFee(amount, ps);
    if (amount + fee > bal) return;
    const id = payoutId++;
    const wallet = walletOf(m.id);
    for (const p of payoutRequestPostings({ id, memberId: m.id, amount, fee, createdAt: new Date(at) }, wallet, acc)) postTracked(p);
    const row: PayoutInsert = {
      id,
      memberId: m.id,
      amount: money.format(amount),
      fee: money.format(fee),
      status: PAYOUT_STATUS[fate],
      idempotencyKey: null,
      balanceAfter: money.format(balanceOf(m.id)),
      createdAt: new Date(at),
      updatedAt: new Date(at),
    };
    payouts.push(row);
    if (fate === 'paid') {
      const paidAt = at + rng.int(2, 6) * DAY;
      row.paidAt = new Date(paidAt);
      row.updatedAt = new Date(paidAt);
      tl.at(paidAt, () => postTracked(payoutPaidPosting({ id, memberId: m.id, amount }, new Date(paidAt), acc)));
    } else if (fate === 'rejected') {
      const at2 = at + 2 * DAY;
      row.updatedAt = new Date(at2);
      row.note = 'Bank details did not match the account holder';
      tl.at(at2, () => {
        for (const p of payoutRefundPostings({ id, memberId: m.id, amount, fee }, new Date(at2), wallet, acc)) postTracked(p);
      });
    } else if (fate === 'approved') row.updatedAt = new Date(at + DAY);
  };
  for (let t = Date.UTC(2025, 2, 5, 10); t <= WALLET_END; t = Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth() + 1, 5, 10)) {
    const at = t;
    const month = new Date(t).getUTCMonth();
    const fate = at >= Date.UTC(2026, 9, 1) ? 'approved' : month % 6 === 4 ? 'rejected' : 'paid';
    tl.at(at, () => requestPayout(demo, at, 0.4 + rng.next() * 0.3, fate));
  }
  down.forEach((m, i) => {
    if (i % 7 === 0) tl.at(Date.UTC(2026, 5, 15, 9) + i * 60_000, () => requestPayout(m, Date.UTC(2026, 5, 15, 9) + i * 60_000, 0.6, 'paid'));
    if (i % 5 === 0) tl.at(Date.UTC(2026, 9, 20, 9) + i * 60_000, () => requestPayout(m, Date.UTC(2026, 9, 20, 9) + i * 60_000, 0.5, 'pending'));
  });

  // Transfers and company adjustments on demo's wallet.
  const partners = down.slice(0, 6);
  const transfer = (from: Member, to: Member, amount: string, at: number) =>
    tl.at(at, () => {
      const a = money.parse(amount);
      if (balanceOf(from.id) >= a) postTracked(transferPosting({ fromMemberId: from.id, toMemberId: to.id, amount: a, createdAt: new Date(at) }, walletOf(from.id), walletOf(to.id)));
    });
  if (partners.length) {
    transfer(demo, partners[0], '25.00', Date.UTC(2025, 8, 12, 15));
    transfer(demo, partners[partners.length - 1], '40.00', Date.UTC(2026, 1, 3, 11));
    transfer(demo, partners[Math.min(1, partners.length - 1)], '15.50', Date.UTC(2026, 6, 21, 17));
    tl.at(Date.UTC(2026, 3, 10, 12), () => {
      const richest = [...partners].sort((a, c) => money.cmp(balanceOf(c.id), balanceOf(a.id)) || a.id - c.id)[0];
      const a = money.parse('20.00');
      if (balanceOf(richest.id) >= a) {
        postTracked(transferPosting({ fromMemberId: richest.id, toMemberId: demo.id, amount: a, createdAt: new Date(Date.UTC(2026, 3, 10, 12)) }, walletOf(richest.id), walletOf(demo.id)));
      }
    });
  }
  const adjust = (amount: string, memo: string, at: number) =>
    tl.at(at, () => {
      const a = money.parse(amount);
      if (a < 0n && balanceOf(demo.id) < -a) return;
      postTracked(adjustmentPosting({ memberId: demo.id, amount: a, memo, createdAt: new Date(at) }, walletOf(demo.id), acc));
    });
  adjust('15.00', 'Spring challenge reward', Date.UTC(2025, 4, 20, 9));
  adjust('-5.00', 'Correction of a duplicated bonus', Date.UTC(2025, 6, 2, 9));
  adjust('30.00', 'Leadership event travel support', Date.UTC(2026, 3, 28, 9));

  tl.run();
  for (const [account, bal] of balance) if (bal < 0n) throw new Error(`seeded wallet ${account} went below zero`);

  // --- Write ---------------------------------------------------------------------------------
  await insertChunked(
    db,
    orders,
    drafts.map((o) => ({
      id: o.id,
      memberId: o.member.id,
      invoiceNo: `INV-${new Date(o.at).getUTCFullYear()}-${String(o.id).padStart(6, '0')}`,
      orderType: o.type,
      status: o.status,
      packageId: o.pkg?.id ?? null,
      packageName: o.pkg?.name ?? null,
      total: money.format(o.total),
      totalBv: money.format(o.totalBv),
      paymentMethod: o.paymentMethod,
      billing: o.billing,
      shipping: o.shipping,
      createdAt: new Date(o.at),
    })),
  );
  await insertChunked(
    db,
    orderItems,
    drafts.flatMap((o) =>
      o.items.map((i) => ({
        orderId: o.id,
        sku: i.sku,
        name: i.name,
        price: money.format(i.price),
        bv: money.format(i.bv),
        quantity: i.quantity,
        expiry: i.expiry,
        image: i.image,
      })),
    ),
  );
  await insertChunked(db, payoutRequests, payouts);
  await insertChunked(db, ledgerTransactions, batch.transactions);
  await insertChunked(db, ledgerEntries, batch.entries);
  await insertChunked(db, earnings, batch.earnings);
  await insertChunked(db, pvHistory, pvRows.sort((a, c) => (a.createdAt as Date).getTime() - (c.createdAt as Date).getTime()));
  await insertChunked(
    db,
    binaryHistory,
    pairing.rows.map((r) => ({
      memberId: demo.id,
      type: r.type,
      leg: r.leg,
      pvAdded: money.format(r.pvAdded),
      pvDeductedLeft: money.format(r.pvDeductedLeft),
      pvDeductedRight: money.format(r.pvDeductedRight),
      totalLeft: money.format(r.totalLeft),
      totalRight: money.format(r.totalRight),
      carryLeft: money.format(r.carryLeft),
      carryRight: money.format(r.carryRight),
      bonusGenerated: money.format(r.bonusGenerated),
      bonusToPay: money.format(r.bonusToPay),
      cappingLimit: r.cappingLimit === null ? null : money.format(r.cappingLimit),
      periodStart: ymdOf(r.periodStart.getTime()),
      fromMemberId: r.meta?.member.id ?? null,
      orderId: r.meta?.id ?? null,
      earningId: earningOfPairing.get(r) ?? null,
      createdAt: r.at,
    })),
  );

  // The weekly runs these earnings stand for, so the operator's next run pays only what came after them.
  const firstVolume = pvRows.reduce((m, r) => Math.min(m, (r.createdAt as Date).getTime()), Infinity);
  if (Number.isFinite(firstVolume)) {
    const runs: Array<typeof compensationRuns.$inferInsert> = [];
    for (let w = periodOf(new Date(firstVolume)).start.getTime(); w <= lastClosed.start.getTime(); w += 7 * DAY) {
      const paidW = paidWeeks.get(ymd(new Date(w))) ?? { count: 0, total: 0n };
      runs.push({ plan, periodStart: ymd(new Date(w)), paidUntil: new Date(w + 7 * DAY), earningsCount: paidW.count, totalPaid: money.format(paidW.total), createdAt: new Date(w + 7 * DAY) });
    }
    await insertChunked(db, compensationRuns, runs);
  }

  // Identity verification as payouts see it: demo and everyone with a payout verified.
  const withPayout = new Set(payouts.map((p) => p.memberId));
  const kyc = (m: Member): KycStatus =>
    m === demo || withPayout.has(m.id)
      ? 'approved'
      : rng.weighted<KycStatus>([
          ['approved', 0.55],
          ['pending', 0.2],
          ['not_submitted', 0.2],
          ['rejected', 0.05],
        ]);
  await insertChunked(db, memberKyc, everyone.map((m) => ({ memberId: m.id, status: kyc(m), updatedAt: new Date(Math.min(m.createdAt + 7 * DAY, WALLET_END)) })));

  for (const t of ['orders', 'order_items', 'payout_requests', 'ledger_transactions', 'ledger_entries', 'earnings', 'pv_history', 'binary_history']) {
    await syncSequence(db, t);
  }

  // demo's volume columns are the figures of its history.
  const dv = pvTotals.get(demo.id) ?? { pv: 0n, tv: 0n };
  const s = pairing.state;
  await db.execute(
    sql`UPDATE members SET pv = ${money.format(dv.pv)}::numeric, tv = ${money.format(dv.tv)}::numeric,
          total_left = ${money.format(s.totalLeft)}::numeric, total_right = ${money.format(s.totalRight)}::numeric,
          carry_left = ${money.format(s.carryLeft)}::numeric, carry_right = ${money.format(s.carryRight)}::numeric
        WHERE id = ${demo.id}`,
  );
}
