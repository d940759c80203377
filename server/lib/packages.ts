/**
 * Package purchases (spec §2 /member/packages/payment, §3 Package data): a member buys a first package,
 * upgrades to a higher one (paying the price and PV difference) or renews an expired one. A purchase is
 * created pending; its payment — by e-wallet here, by card or over the counter elsewhere — calls
 * `PURPOSES.package.fulfil` once, in the payment's transaction, which:
 *
 * - records the order (it appears in /member/orders) and gives the member the package, its expiry and
 *   purchase date;
 * - adds the purchase's PV to the member (pv_history) and the same volume to every upline member's team
 *   volume and to the binary leg it arrived on (binary_history, members' totals and carries), which the
 *   next pairing run (server/lib/pairing.ts) matches into binary earnings;
 * - pays the sponsor's direct bonus through the ledger when direct_bonus is on;
 * - moves the member and their upline to a higher rank whose criteria they now meet.
 *
 * Money received outside the wallet (card, counter) is posted by the fulfilment (bank against revenue);
 * a wallet payment posts wallet against revenue itself, under the wallet lock, before fulfilling.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import type { Modules } from '../../src/schemas/common.schema';
import type { PackagePaymentOptions, Purchase, PurchaseKind, ReturnSchedule } from '../../src/schemas/packages.schema';
import type { SettingsService } from './settings';
import { HttpError, notFound, validationError } from './errors';
import { PURPOSES, settledServices, type FulfilmentInput, type FulfilmentServices, type Payable, type PurposeHandler } from './fulfilment';
import { packageData } from './home';
import {
  accountBalance,
  lockWallet,
  post,
  postEarning,
  rowsOf,
  systemAccounts,
  walletSettings,
  type Executor,
  type Tx,
} from './ledger';
import { announce } from './member-notices';
import * as money from './money';
import { weekStart } from './pairing';
import { pathIds } from './tree';
import { bestRank, loadRankDefinitions, planShape, rankFigures } from './ranks';
import { checkPayoutPassword } from './wallet-password';

const DAY = 86_400_000;

interface PackageRow {
  id: number;
  name: string;
  sku: string;
  status: boolean;
  sort_order: number;
  price: string;
  bv: string;
  expiry_days: number | null;
  image: string | null;
  direct_bonus: string;
}

interface PurchaseRow {
  id: number;
  member_id: number;
  package_id: number;
  from_package_id: number | null;
  kind: PurchaseKind;
  amount: string;
  pv: string;
  status: 'pending' | 'paid' | 'cancelled';
  payment_method: 'wallet' | 'card' | 'otc' | null;
  order_id: number | null;
  created_at: Date | string;
  paid_at: Date | string | null;
  package_name: string;
  from_package_name: string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();

async function packageById(ex: Executor, id: number): Promise<PackageRow | null> {
  const [p] = await rowsOf<PackageRow>(
    ex,
    sql`SELECT id, name, sku, status, sort_order, price::text AS price, bv::text AS bv, expiry_days, image, direct_bonus::text AS direct_bonus
        FROM packages WHERE id = ${id}`,
  );
  return p ?? null;
}

async function modulesOf(settings: SettingsService): Promise<Modules> {
  return (await settings.get('modules')) as Modules;
}

/** The return schedule of each package with a return, when roi is on: monthly return for the months of its validity. */
export function returnSchedules(options: Array<{ id: number; price: string; roi_bonus: string; expiry: number | null }>): ReturnSchedule[] {
  return options
    .filter((p) => money.parse(p.roi_bonus) > 0n)
    .map((p) => {
      const months = p.expiry === null ? 12 : Math.max(1, Math.floor(p.expiry / 30));
      const monthly = money.percentOf(money.parse(p.price), p.roi_bonus, 2);
      return { package_id: p.id, rate: money.format(money.parse(p.roi_bonus), 2), monthly: money.format(monthly, 2), months, total: money.format(monthly * BigInt(months), 2) };
    });
}

/** GET /api/packages: what the payment page offers the member. */
export async function packagePaymentOptions(db: Db, settings: SettingsService, member: MemberRow): Promise<PackagePaymentOptions> {
  // The company's packages and settings come from the cache; the member's own part is one statement: the
  // wallet balance as maintained in member_figures (kept equal to the ledger's) and whether a wallet password is set.
  const [modules, data, [mine]] = await Promise.all([
    modulesOf(settings),
    packageData(db, settings, member),
    rowsOf<{ balance: string; wallet_password: boolean }>(
      db,
      sql`SELECT coalesce((SELECT balance FROM member_figures WHERE member_id = ${member.id}), 0)::text AS balance,
                 EXISTS (SELECT 1 FROM wallet_passwords WHERE member_id = ${member.id}) AS wallet_password`,
    ),
  ]);
  return {
    package_data: data,
    roi: !!modules.roi,
    return_schedules: modules.roi ? returnSchedules(data.packages) : [],
    wallet_balance: money.format(money.parse(mine.balance), 2),
    password_kind: mine.wallet_password ? 'wallet' : 'account',
    methods: ['wallet', 'card', 'otc'],
  };
}

const purchaseSelect = sql`SELECT pp.id::int AS id, pp.member_id, pp.package_id, pp.from_package_id, pp.kind, pp.amount::text AS amount, pp.pv::text AS pv,
    pp.status, pp.payment_method, pp.order_id::int AS order_id, pp.created_at, pp.paid_at, p.name AS package_name, f.name AS from_package_name
  FROM package_purchases pp JOIN packages p ON p.id = pp.package_id LEFT JOIN packages f ON f.id = pp.from_package_id`;

function purchaseOf(r: PurchaseRow): Purchase {
  return {
    id: Number(r.id),
    kind: r.kind,
    status: r.status,
    package_id: Number(r.package_id),
    package_name: r.package_name,
    from_package_name: r.from_package_name,
    amount: money.format(money.parse(r.amount), 2),
    pv: money.format(money.parse(r.pv), 2),
    payment_method: r.payment_method,
    order_id: r.order_id === null ? null : Number(r.order_id),
    created_at: iso(r.created_at),
    paid_at: r.paid_at === null ? null : iso(r.paid_at),
  };
}

/** A purchase of `memberId` (another member's, or none → 404); `lock` takes its row lock. */
async function purchaseRow(ex: Executor, memberId: number, id: number, lock = false): Promise<PurchaseRow> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2 ** 53) throw notFound('No such purchase');
  if (lock) await ex.execute(sql`SELECT 1 FROM package_purchases WHERE id = ${id} FOR UPDATE`);
  const [r] = await rowsOf<PurchaseRow>(ex, sql`${purchaseSelect} WHERE pp.id = ${id} AND pp.member_id = ${memberId}`);
  if (!r) throw notFound('No such purchase');
  return r;
}

export async function purchaseOfMember(db: Db, memberId: number, id: number): Promise<Purchase> {
  return purchaseOf(await purchaseRow(db, memberId, id));
}

/**
 * Create a pending purchase of `packageId`: the first package (full price), an upgrade to a higher one
 * (price and PV difference; upgrade module on), or the renewal of the member's expired package.
 */
export async function createPurchase(db: Db, settings: SettingsService, member: MemberRow, packageId: number, now = new Date()): Promise<Purchase> {
  const modules = await modulesOf(settings);
  if (!modules.package) throw new HttpError(403, 'forbidden', 'Packages are switched off.');
  const target = Number.isSafeInteger(packageId) && packageId > 0 && packageId <= 2_147_483_647 ? await packageById(db, packageId) : null;
  if (!target || !target.status) throw validationError({ package_id: ['validation:invalidChoice'] });
  const current = member.packageId === null ? null : await packageById(db, member.packageId);
  let kind: PurchaseKind;
  let amount = money.parse(target.price);
  let pv = money.parse(target.bv);
  if (!current) kind = 'purchase';
  else if (current.id === target.id) {
    const expired = member.packageExpiry !== null && member.packageExpiry.getTime() < now.getTime();
    if (!expired) throw validationError({ package_id: ['store:packages.errors.stillActive'] });
    kind = 'renewal';
  } else if (target.sort_order > current.sort_order) {
    if (!modules.upgrade) throw validationError({ package_id: ['store:packages.errors.upgradeOff'] });
    kind = 'upgrade';
    amount -= money.parse(current.price);
    pv -= money.parse(current.bv);
    if (pv < 0n) pv = 0n;
  } else throw validationError({ package_id: ['store:packages.errors.lowerPackage'] });
  if (amount <= 0n) throw validationError({ package_id: ['validation:invalidChoice'] });

  return db.transaction(async (tx) => {
    // One pending purchase per member: a new choice replaces what was not paid (unless a counter payment waits for it).
    await tx.execute(sql`SELECT id FROM members WHERE id = ${member.id} FOR UPDATE`);
    await tx.execute(
      sql`UPDATE package_purchases pp SET status = 'cancelled' WHERE pp.member_id = ${member.id} AND pp.status = 'pending'
          AND NOT EXISTS (SELECT 1 FROM otc_requests o WHERE o.purpose = 'package' AND o.ref_id = pp.id AND o.status IN ('awaiting_payment', 'submitted'))`,
    );
    const [row] = await rowsOf<{ id: number }>(
      tx,
      sql`INSERT INTO package_purchases (member_id, package_id, from_package_id, kind, amount, pv, created_at)
          VALUES (${member.id}, ${target.id}, ${kind === 'upgrade' ? current!.id : null}, ${kind}, ${money.format(amount)}, ${money.format(pv)}, ${now.toISOString()}::timestamptz)
          RETURNING id::int AS id`,
    );
    return purchaseOf(await purchaseRow(tx, member.id, Number(row.id)));
  });
}

// ---------------------------------------------------------------------------------------------
// Fulfilment

/** Billing of a package order: the member's latest address, else their name and e-mail. */
async function billingOf(tx: Executor, memberId: number) {
  const [m] = await rowsOf<{ first_name: string; last_name: string | null; email: string | null; phone: string | null }>(
    tx,
    sql`SELECT first_name, last_name, email, mobile_code || mobile AS phone FROM members WHERE id = ${memberId}`,
  );
  const [a] = await rowsOf<Record<string, string | null>>(
    tx,
    sql`SELECT first_name, last_name, company, address_1, address_2, city, postcode, country_name, zone_name, phone, email
        FROM addresses WHERE member_id = ${memberId} AND deleted_at IS NULL ORDER BY updated_at DESC, id DESC LIMIT 1`,
  );
  const blank = (v: string | null | undefined) => (v ? v : null);
  return {
    first_name: a?.first_name ?? m.first_name,
    last_name: blank(a?.last_name ?? m.last_name),
    company: blank(a?.company),
    address_1: a?.address_1 ?? '',
    address_2: blank(a?.address_2),
    city: a?.city ?? '',
    postcode: blank(a?.postcode),
    country_name: blank(a?.country_name),
    zone_name: blank(a?.zone_name),
    phone: blank(a?.phone ?? m.phone),
    email: blank(a?.email ?? m.email),
  };
}

const ORDER_TYPE: Record<PurchaseKind, string> = { purchase: 'registration', upgrade: 'upgrade', renewal: 'renewal' };
const PAYMENT_LABEL: Record<string, string> = { wallet: 'e_wallet', card: 'card', otc: 'bank_transfer' };

/** The order of a paid purchase, with its one line (the package and its validity end). */
async function recordOrder(tx: Tx, p: PurchaseRow, pkg: PackageRow, method: string, at: Date, expiry: Date | null): Promise<number> {
  const [{ id }] = await rowsOf<{ id: number }>(tx, sql`SELECT nextval(pg_get_serial_sequence('orders', 'id'))::int AS id`);
  const billing = await billingOf(tx, p.member_id);
  await tx.execute(
    sql`INSERT INTO orders (id, member_id, invoice_no, order_type, status, package_id, package_name, total, total_bv, payment_method, billing, shipping, created_at)
        VALUES (${id}, ${p.member_id}, ${`INV-${at.getUTCFullYear()}-${String(id).padStart(6, '0')}`}, ${ORDER_TYPE[p.kind]}, 'completed', ${pkg.id}, ${pkg.name},
                ${p.amount}::numeric, ${p.pv}::numeric, ${PAYMENT_LABEL[method] ?? method}, ${JSON.stringify(billing)}::jsonb, NULL, ${at.toISOString()}::timestamptz)`,
  );
  await tx.execute(
    sql`INSERT INTO order_items (order_id, sku, name, price, bv, quantity, expiry, image)
        VALUES (${id}, ${pkg.sku}, ${pkg.name}, ${p.amount}::numeric, ${p.pv}::numeric, 1, ${expiry ? expiry.toISOString().slice(0, 10) : null}, ${pkg.image})`,
  );
  return Number(id);
}

/**
 * The purchase's volume: PV (and team volume) to the buyer, team volume and binary-leg volume to every
 * member above them in the placement tree. Locks the rows it changes, root first (one order for everyone,
 * so two purchases in one tree never wait on each other in a cycle).
 */
export async function addVolume(tx: Executor, buyerId: number, pv: money.Units, at: Date, type: string, orderId: number | null): Promise<void> {
  if (pv <= 0n) return;
  const [buyer] = await rowsOf<{ path: string }>(tx, sql`SELECT path FROM members WHERE id = ${buyerId}`);
  const ids = pathIds(buyer.path);
  const chain = ids.length && ids[ids.length - 1] === buyerId ? ids : [...ids, buyerId];
  const nodes = await rowsOf<{ id: number; position: string | null }>(
    tx,
    sql`SELECT id, position FROM members WHERE id IN (${sql.join(chain.map((i) => sql`${i}`), sql`, `)}) ORDER BY id FOR UPDATE`,
  );
  const positionOf = new Map(nodes.map((n) => [Number(n.id), n.position]));
  const amount = money.format(pv);
  const atText = at.toISOString();
  const period = weekStart(at).toISOString().slice(0, 10);

  const [self] = await rowsOf<{ pv: string; tv: string }>(
    tx,
    sql`UPDATE members SET pv = pv + ${amount}::numeric, tv = tv + ${amount}::numeric WHERE id = ${buyerId} RETURNING pv::text AS pv, tv::text AS tv`,
  );
  await tx.execute(
    sql`INSERT INTO pv_history (member_id, type, pv, tv, total_pv, total_tv, from_member_id, order_id, created_at)
        VALUES (${buyerId}, ${type}, ${amount}::numeric, ${amount}::numeric, ${self.pv}::numeric, ${self.tv}::numeric, ${buyerId}, ${orderId}, ${atText}::timestamptz)`,
  );

  // Each upline member: the leg is the side of their child on the way down to the buyer.
  const legs: Array<{ id: number; leg: 'L' | 'R' }> = [];
  for (let i = 0; i < chain.length - 1; i++) {
    const child = positionOf.get(chain[i + 1]);
    if (child === 'L' || child === 'R') legs.push({ id: chain[i], leg: child });
  }
  if (!legs.length) return;
  const values = sql.join(
    legs.map((l) => sql`(${l.id}::int, ${l.leg}::char(1))`),
    sql`, `,
  );
  await tx.execute(sql`
    WITH legs(id, leg) AS (VALUES ${values}),
    up AS (
      UPDATE members m SET
        tv = m.tv + ${amount}::numeric,
        total_left = m.total_left + CASE WHEN l.leg = 'L' THEN ${amount}::numeric ELSE 0 END,
        carry_left = m.carry_left + CASE WHEN l.leg = 'L' THEN ${amount}::numeric ELSE 0 END,
        total_right = m.total_right + CASE WHEN l.leg = 'R' THEN ${amount}::numeric ELSE 0 END,
        carry_right = m.carry_right + CASE WHEN l.leg = 'R' THEN ${amount}::numeric ELSE 0 END
      FROM legs l WHERE m.id = l.id
      RETURNING m.id, l.leg, m.pv, m.tv, m.total_left, m.total_right, m.carry_left, m.carry_right
    ),
    bh AS (
      INSERT INTO binary_history (member_id, type, leg, pv_added, total_left, total_right, carry_left, carry_right, period_start, from_member_id, order_id, created_at)
      SELECT id, CASE WHEN leg = 'L' THEN 'left_volume' ELSE 'right_volume' END, leg, ${amount}::numeric, total_left, total_right, carry_left, carry_right,
             ${period}::date, ${buyerId}, ${orderId}, ${atText}::timestamptz FROM up
    )
    INSERT INTO pv_history (member_id, type, pv, tv, total_pv, total_tv, from_member_id, order_id, created_at)
    SELECT id, ${type}, 0, ${amount}::numeric, pv, tv, ${buyerId}, ${orderId}, ${atText}::timestamptz FROM up`);
}

/**
 * Raise each of `memberIds` to the highest rank of the plan whose criteria (ranks.ts: the plan's own —
 * legs, matrix levels and places, group volume, active recruits, volumes) they now meet, if it is above
 * their current one: the rank, the date, the achievement row and the rank bonus of each rank passed.
 */
export async function promoteRanks(tx: Tx, memberIds: number[], at: Date, services: FulfilmentServices): Promise<Array<{ memberId: number; rankId: number }>> {
  if (!memberIds.length) return [];
  const shape = await planShape(services.settings);
  const ranks = await loadRankDefinitions(tx as unknown as Db, shape.plan);
  if (!ranks.length) return [];
  const figures = await rankFigures(tx as unknown as Db, shape, memberIds);
  const currentOrder = new Map(
    (
      await rowsOf<{ id: number; sort_order: number | null }>(
        tx,
        sql`SELECT m.id, cur.sort_order FROM members m LEFT JOIN ranks cur ON cur.id = m.rank_id
            WHERE m.id IN (${sql.join(memberIds.map((i) => sql`${i}`), sql`, `)}) AND m.role_id <> 1`,
      )
    ).map((r) => [Number(r.id), r.sort_order === null ? null : Number(r.sort_order)]),
  );
  const due: Array<{ id: number; best: number; best_order: number; current_order: number | null }> = [];
  for (const [id, current] of currentOrder) {
    const best = bestRank(ranks, figures.get(id)?.values ?? new Map());
    if (best && (current === null || best.sortOrder > current)) due.push({ id, best: best.id, best_order: best.sortOrder, current_order: current });
  }
  const ws = await walletSettings(services.settings);
  const promoted: Array<{ memberId: number; rankId: number }> = [];
  for (const d of due) {
    const memberId = Number(d.id);
    const reached = await rowsOf<{ id: number; bonus: string }>(
      tx,
      sql`SELECT id, bonus::text AS bonus FROM ranks WHERE (plan IS NULL OR plan = ${shape.plan}) AND sort_order <= ${d.best_order} AND sort_order > ${d.current_order ?? 0}
          AND NOT EXISTS (SELECT 1 FROM rank_achievements a WHERE a.member_id = ${memberId} AND a.rank_id = ranks.id) ORDER BY sort_order`,
    );
    await tx.execute(sql`UPDATE members SET rank_id = ${d.best}, rank_achieved_at = ${at.toISOString()}::timestamptz WHERE id = ${memberId}`);
    for (const r of reached) {
      await tx.execute(sql`INSERT INTO rank_achievements (member_id, rank_id, achieved_at) VALUES (${memberId}, ${r.id}, ${at.toISOString()}::timestamptz) ON CONFLICT DO NOTHING`);
      const bonus = money.parse(r.bonus);
      if (bonus > 0n) await postEarning(tx as unknown as Db, { memberId, bonusType: 'rank_bonus', gross: bonus, rankId: Number(r.id), createdAt: at }, ws);
    }
    promoted.push({ memberId, rankId: Number(d.best) });
  }
  if (promoted.length) {
    const names = new Map(
      (await rowsOf<{ id: number; name: string }>(tx, sql`SELECT id, name FROM ranks WHERE id IN (${sql.join(promoted.map((p) => sql`${p.rankId}`), sql`, `)})`)).map((r) => [
        Number(r.id),
        r.name,
      ]),
    );
    for (const p of promoted) {
      const name = names.get(p.rankId) ?? '';
      await announce(services, p.memberId, 'rank_achieved', { key: 'rank_achieved', values: { rank: name }, link: '/member/home/rank' }, tx);
    }
  }
  return promoted;
}

async function fulfilPackage(tx: Tx, input: FulfilmentInput, services: FulfilmentServices): Promise<void> {
  const p = await purchaseRow(tx, input.memberId, input.refId, true);
  if (p.status !== 'pending') throw new HttpError(409, 'conflict', `Purchase ${p.id} is already ${p.status}`);
  const pkg = (await packageById(tx, p.package_id))!;
  const at = input.at;
  const [m] = await rowsOf<{ package_expiry: Date | string | null; sponsor_id: number | null; path: string }>(
    tx,
    sql`SELECT package_expiry, sponsor_id, path FROM members WHERE id = ${p.member_id} FOR UPDATE`,
  );
  // Validity from today; a renewal before the old end would add to it (renewals are only offered once expired).
  const startsAt = p.kind === 'renewal' && m.package_expiry && new Date(m.package_expiry).getTime() > at.getTime() ? new Date(m.package_expiry) : at;
  const expiry = pkg.expiry_days === null ? null : new Date(startsAt.getTime() + pkg.expiry_days * DAY);

  const orderId = await recordOrder(tx, p, pkg, input.method, at, expiry);
  await tx.execute(
    sql`UPDATE package_purchases SET status = 'paid', payment_method = ${input.method}, payment_ref = ${input.paymentRef}, order_id = ${orderId}, paid_at = ${at.toISOString()}::timestamptz
        WHERE id = ${p.id}`,
  );
  await tx.execute(
    sql`UPDATE members SET package_id = ${pkg.id}, package_expiry = ${expiry ? expiry.toISOString() : null}::timestamptz, package_purchase_date = ${at.toISOString()}::timestamptz
        WHERE id = ${p.member_id}`,
  );

  const acc = await systemAccounts(tx);
  const amount = money.parse(p.amount);
  if (input.method !== 'wallet') {
    // Money received by the company's bank (card provider, counter).
    await post(tx, {
      group: 'purchase',
      type: 'order_payment',
      key: 'order_payment',
      memberId: p.member_id,
      orderId,
      memo: `Package ${p.kind} #${p.id} (${input.method} ${input.paymentRef})`,
      createdAt: at,
      lines: [
        { account: acc.company_bank, amount },
        { account: acc.sales_revenue, amount: -amount },
      ],
    });
  }

  await addVolume(tx, p.member_id, money.parse(p.pv), at, ORDER_TYPE[p.kind], orderId);

  const modules = await modulesOf(services.settings);
  if (modules.direct_bonus && m.sponsor_id !== null) {
    const ws = await walletSettings(services.settings);
    const rate = money.parse(pkg.direct_bonus) > 0n ? pkg.direct_bonus : ws.referral_percent;
    const gross = money.percentOf(amount, rate, 2);
    if (gross > 0n) {
      await postEarning(tx as unknown as Db, { memberId: m.sponsor_id, bonusType: 'referral_bonus', gross, level: 1, fromMemberId: p.member_id, createdAt: at }, ws);
    }
  }
  // A counter payment's decision tells the member itself.
  if (input.method !== 'otc') {
    const key = p.kind === 'upgrade' ? 'upgrade_paid' : p.kind === 'renewal' ? 'renewal_paid' : 'package_paid';
    await announce(
      services,
      p.member_id,
      'order_status',
      { key, values: { name: pkg.name, amount: money.format(amount, 2) }, link: `/member/orders/${orderId}` },
      tx,
    );
  }
  await promoteRanks(tx, pathIds(m.path).length ? pathIds(m.path) : [p.member_id], at, services);
}

async function payablePackage(ex: Executor, memberId: number, refId: number): Promise<Payable> {
  const p = await purchaseRow(ex, memberId, refId);
  if (p.status !== 'pending') throw new HttpError(409, 'conflict', `Purchase ${p.id} is already ${p.status}`);
  const what = p.kind === 'upgrade' ? `Upgrade ${p.from_package_name} → ${p.package_name}` : p.kind === 'renewal' ? `Renewal of ${p.package_name}` : `Package ${p.package_name}`;
  return { amount: money.parse(p.amount), description: what };
}

export const packagePurpose: PurposeHandler = { payable: payablePackage, fulfil: fulfilPackage };

// ---------------------------------------------------------------------------------------------
// Wallet top-ups (paid over the counter or by card; credited to the wallet once)

export async function createTopup(ex: Executor, memberId: number, amount: money.Units, now = new Date()): Promise<number> {
  const [r] = await rowsOf<{ id: number }>(
    ex,
    sql`INSERT INTO wallet_topups (member_id, amount, created_at) VALUES (${memberId}, ${money.format(amount)}, ${now.toISOString()}::timestamptz) RETURNING id::int AS id`,
  );
  return Number(r.id);
}

async function topupRow(ex: Executor, memberId: number, id: number, lock = false) {
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound('No such top-up');
  const [r] = await rowsOf<{ id: number; amount: string; status: string }>(
    ex,
    sql`SELECT id::int AS id, amount::text AS amount, status FROM wallet_topups WHERE id = ${id} AND member_id = ${memberId} ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  if (!r) throw notFound('No such top-up');
  return r;
}

export const topupPurpose: PurposeHandler = {
  async payable(ex, memberId, refId) {
    const t = await topupRow(ex, memberId, refId);
    if (t.status !== 'pending') throw new HttpError(409, 'conflict', `Top-up ${refId} is already ${t.status}`);
    return { amount: money.parse(t.amount), description: 'Wallet top-up' };
  },
  async fulfil(tx, input) {
    const t = await topupRow(tx, input.memberId, input.refId, true);
    if (t.status !== 'pending') throw new HttpError(409, 'conflict', `Top-up ${t.id} is already ${t.status}`);
    if (input.method === 'wallet') throw validationError({ method: ['validation:invalidChoice'] });
    const wallet = await lockWallet(tx, input.memberId);
    const acc = await systemAccounts(tx);
    const amount = money.parse(t.amount);
    const transactionId = await post(tx, {
      group: 'adjustment',
      type: 'wallet_topup',
      key: 'admin_adjustment',
      memberId: input.memberId,
      memo: `Wallet top-up (${input.method} ${input.paymentRef})`,
      createdAt: input.at,
      lines: [
        { account: acc.company_bank, amount },
        { account: wallet, amount: -amount },
      ],
    });
    await tx.execute(
      sql`UPDATE wallet_topups SET status = 'paid', payment_ref = ${input.paymentRef}, transaction_id = ${transactionId}, paid_at = ${input.at.toISOString()}::timestamptz WHERE id = ${t.id}`,
    );
  },
};

PURPOSES.package = packagePurpose;
PURPOSES.topup = topupPurpose;

export { settledServices } from './fulfilment';

// ---------------------------------------------------------------------------------------------
// Paying by e-wallet

/**
 * Pay a pending purchase from the wallet: the password (wallet password once set, else the account
 * password), then under the wallet lock the balance, the posting and the fulfilment in one transaction.
 * Paying an already paid purchase again answers it unchanged (`replayed`), never a second charge.
 */
export async function payPurchaseByWallet(
  db: Db,
  services: FulfilmentServices,
  member: MemberRow,
  purchaseId: number,
  password: string,
  now = new Date(),
): Promise<{ purchase: Purchase; wallet_balance: string; replayed: boolean }> {
  await purchaseRow(db, member.id, purchaseId);
  if (!password || !(await checkPayoutPassword(db, member, password))) throw validationError({ password: ['validation:invalidPassword'] });
  const settled = await settledServices(services);
  return db.transaction(async (tx) => {
    const wallet = await lockWallet(tx, member.id);
    const p = await purchaseRow(tx, member.id, purchaseId, true);
    if (p.status === 'paid' && p.payment_method === 'wallet') {
      return { purchase: purchaseOf(p), wallet_balance: money.format(await accountBalance(tx, wallet), 2), replayed: true };
    }
    if (p.status !== 'pending') throw new HttpError(409, 'conflict', `Purchase ${p.id} is already ${p.status}`);
    const [otc] = await rowsOf(tx, sql`SELECT 1 FROM otc_requests WHERE purpose = 'package' AND ref_id = ${p.id} AND status IN ('awaiting_payment', 'submitted')`);
    if (otc) throw new HttpError(409, 'conflict', 'A counter payment of this purchase is under way.');
    const amount = money.parse(p.amount);
    const balance = await accountBalance(tx, wallet);
    if (balance < amount) throw validationError({ password: ['store:packages.errors.insufficientBalance'] });
    const acc = await systemAccounts(tx);
    const transactionId = await post(tx, {
      group: 'purchase',
      type: 'order_payment',
      key: 'wallet_purchase',
      memberId: member.id,
      memo: `Package ${p.kind} #${p.id}`,
      createdAt: now,
      lines: [
        { account: wallet, amount },
        { account: acc.sales_revenue, amount: -amount },
      ],
    });
    await fulfilPackage(tx, { memberId: member.id, refId: p.id, amount, method: 'wallet', paymentRef: `ledger:${transactionId}`, at: now }, settled);
    const paid = await purchaseRow(tx, member.id, p.id);
    await tx.execute(sql`UPDATE ledger_transactions SET order_id = ${paid.order_id} WHERE id = ${transactionId}`);
    return { purchase: purchaseOf(paid), wallet_balance: money.format(await accountBalance(tx, wallet), 2), replayed: false };
  });
}
