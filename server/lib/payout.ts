/**
 * Payouts of one member (spec §7 "Wallet and payout"): the criteria the request form shows, the request
 * itself (password re-entered, idempotent by its key, never overdrawing — see requestPayout in ledger.ts),
 * the statement by day, week, month or year, and the payout lines of the paged list.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import type { PayoutRow } from '../db/schema-wallet';
import type { PAYOUT_INTERVALS, PayoutTransaction } from '../../src/schemas/wallet.schema';
import { PAYOUT_LINK } from '../../src/schemas/home.schema';
import { forbidden, HttpError, notFound, validationError, type FieldMap } from './errors';
import { PAYOUT_STATUS_KEYS, kycStatus, maxRequestable, payoutAmountErrors, payoutSettings, requestPayout, rowsOf, type PayoutStatusId } from './ledger';
import { unkeyed, type Keyed } from './list-endpoint';
import * as money from './money';
import { ListQuery, ymd } from './pagination';
import type { SettingsService } from './settings';
import { checkPayoutPassword, payoutPasswordKind } from './wallet-password';
import { memberBalance, payoutTotalsOf } from './wallet';
import { figuresColumns, figuresFrom, jsonOf, memberFigures, toFigures, type FiguresRow } from './figures';
import { chosenPayoutMethod } from './payout-destination';
import { announce } from './member-notices';
import type { AppContext } from './app-context';
import { approvePayout, lockWallet, markPayoutPaid, PAYOUT_STATUS, payoutRefundPostings, post, rejectPayout, systemAccounts } from './ledger';
import { recordAudit } from './audit';
import { payoutInvoiceNo } from './home';

export type PayoutInterval = (typeof PAYOUT_INTERVALS)[number];

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,128}$/;
const DAY = 86_400_000;
/** Buckets of the statement chart. */
const STATEMENT_BUCKETS = 12;
/** Latest payouts on the statement. */
const STATEMENT_RECENT = 5;

interface PayoutDbRow {
  id: number;
  status: number;
  amount: string;
  fee: string;
  created_at: Date | string;
}

function toPayout(r: PayoutDbRow | PayoutRow): Keyed<PayoutTransaction> {
  const at = new Date('created_at' in r ? r.created_at : r.createdAt);
  const status = Number(r.status) as PayoutStatusId;
  return {
    id: Number(r.id),
    status_id: status,
    status: PAYOUT_STATUS_KEYS[status] as PayoutTransaction['status'],
    total: money.normalize(String(r.amount)),
    fee: money.normalize(String(r.fee)),
    created_at: at.toISOString(),
    _at: at,
    _id: Number(r.id),
  };
}

const payoutOf = (r: PayoutDbRow | PayoutRow): PayoutTransaction => unkeyed(toPayout(r));

/** The member's payout requests matching `q` and `statuses`, in `q`'s order after its cursor, at most `limit`. */
function payoutPageSql(memberId: number, q: ListQuery, statuses: number[], limit: number) {
  const st = statuses.length ? sql`status IN (${sql.join(statuses.map((s) => sql`${s}`), sql`, `)})` : sql`TRUE`;
  return sql`SELECT id, status, amount::text AS amount, fee::text AS fee, created_at FROM payout_requests
        WHERE member_id = ${memberId} AND ${q.rangeSql(sql`created_at`)} AND ${st} AND ${q.afterCursorSql(sql`created_at`, sql`id`)}
        ORDER BY ${q.orderSql(sql`created_at`, sql`id`)} LIMIT ${limit}`;
}

export async function payoutRows(db: Db, memberId: number, q: ListQuery, statuses: number[], limit: number) {
  return (await rowsOf<PayoutDbRow>(db, payoutPageSql(memberId, q, statuses, limit))).map(toPayout);
}

/** The payout list's filter: payout_status (status ids, several). */
export const payoutStatusFilter = (q: ListQuery): number[] => q.manyOf('payout_status', ['1', '2', '3', '4', '5'] as const).map(Number);

/** What a payout took from the wallet: amount plus fee. */
export const totalDebited = (p: Pick<PayoutTransaction, 'total' | 'fee'>) => money.format(money.parse(p.total) + money.parse(p.fee));

/** The request form's criteria: limits, fee, what the member can request now and the pending request. */
export async function payoutCriteria(db: Db, settings: SettingsService, memberId: number) {
  const s = await payoutSettings(settings);
  const balance = await memberBalance(db, memberId);
  const [pending] = await rowsOf<PayoutDbRow>(
    db,
    sql`SELECT id, status, amount::text AS amount, fee::text AS fee, created_at FROM payout_requests
        WHERE member_id = ${memberId} AND status = 1 ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  return {
    enabled: s.enabled,
    minimum_amount: money.normalize(s.minimum),
    maximum_amount: money.normalize(s.maximum),
    fee_fixed: money.normalize(s.fee_fixed),
    fee_percent: money.normalize(s.fee_percent),
    amount_decimals: 2,
    available_balance: money.format(balance),
    max_requestable: money.format(s.single_pending && pending ? 0n : maxRequestable(balance, s)),
    kyc_required: s.kyc_required,
    kyc_status: await kycStatus(db, memberId),
    single_pending: s.single_pending,
    pending_request: pending ? payoutOf(pending) : null,
    password_required: true,
    password_kind: await payoutPasswordKind(db, memberId),
    payout_method: await chosenPayoutMethod(db, settings, memberId),
  };
}

/**
 * A payout request of `member`: switched on, a well-formed idempotency key, an allowed amount and the
 * password (the wallet password once set, else the account password), all checked together (one field map); then requestPayout.
 */
export async function submitPayout(
  db: Db,
  settings: SettingsService,
  member: MemberRow,
  input: { amount: string; password: string; idempotencyKey: string },
) {
  const s = await payoutSettings(settings);
  if (!s.enabled) throw forbidden('payout_disabled', 'Payout requests are switched off.');

  const errors: FieldMap = {};
  const idempotencyKey = input.idempotencyKey;
  if (!idempotencyKey) errors.idempotency_key = ['validation:required'];
  else if (!IDEMPOTENCY_KEY.test(idempotencyKey)) errors.idempotency_key = ['validation:invalidFormat'];

  const { amount, errors: amountErrors } = payoutAmountErrors(input.amount, s);
  Object.assign(errors, amountErrors);
  // The wallet password when the member has set one, else the account password.
  if (!(await checkPayoutPassword(db, member, input.password))) errors.password = ['validation:invalidPassword'];
  // The money goes by the member's chosen method (/member/account/payout); without one there is nowhere to send it.
  const destination = await chosenPayoutMethod(db, settings, member.id);
  if (!destination) errors.payout_method = ['account:payoutMethod.errors.none'];
  if (Object.keys(errors).length || amount === null || !destination) throw validationError(errors);

  const fingerprint = createHash('sha256').update(`payout|${money.format(amount)}`).digest('hex');
  const { payout, replayed } = await requestPayout(db, { memberId: member.id, amount, idempotencyKey, fingerprint, settings: s, destination });
  const recorded = payout.payoutMethod && payout.payoutDestination ? { method: payout.payoutMethod, destination: payout.payoutDestination } : destination;
  return {
    replayed,
    answer: { payout: payoutOf(payout), wallet_balance: money.normalize(payout.balanceAfter ?? '0'), payout_method: recorded as typeof destination },
  };
}

/** Start of the bucket `d` falls in (UTC; weeks start on Monday). */
function bucketStart(d: Date, interval: PayoutInterval): Date {
  const day = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  switch (interval) {
    case 'day':
      return day;
    case 'week':
      return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY);
    case 'month':
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
    case 'year':
      return new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  }
}

function previousBucket(start: Date, interval: PayoutInterval): Date {
  switch (interval) {
    case 'day':
      return new Date(start.getTime() - DAY);
    case 'week':
      return new Date(start.getTime() - 7 * DAY);
    case 'month':
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1));
    case 'year':
      return new Date(Date.UTC(start.getUTCFullYear() - 1, 0, 1));
  }
}

/** Paid payouts per bucket (the last twelve, this one included), totals, balance and the latest payouts. */
export async function payoutStatement(db: Db, memberId: number, interval: PayoutInterval, now = new Date()) {
  const buckets: Date[] = [bucketStart(now, interval)];
  while (buckets.length < STATEMENT_BUCKETS) buckets.unshift(previousBucket(buckets[0], interval));
  const from = buckets[0];
  // Paid totals per bucket, the latest requests and the figures in one round trip, lists as JSON arrays.
  const order = new ListQuery({});
  const [r] = await rowsOf<FiguresRow & { sums: Array<[string, string]> | string | null; recent: PayoutDbRow[] | string | null }>(
    db,
    sql`SELECT ${figuresColumns(memberId)},
          (SELECT json_agg(json_build_array(d, total))::text FROM (
             SELECT to_char(date_trunc(${interval}, paid_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS d, sum(amount)::text AS total
             FROM payout_requests WHERE member_id = ${memberId} AND status = 3 AND paid_at >= ${from.toISOString()}::timestamptz
             GROUP BY 1) s) AS sums,
          (SELECT json_agg(x ORDER BY ${order.orderSql(sql`x.created_at`, sql`x.id`)})::text
             FROM (${payoutPageSql(memberId, order, [], STATEMENT_RECENT)}) x) AS recent
        ${figuresFrom(memberId)}`,
  );
  const figures = toFigures(r);
  const sums = jsonOf<Array<[string, string]>>(r?.sums, []).map(([d, total]) => ({ d, total }));
  const recent = jsonOf<PayoutDbRow[]>(r?.recent, []).map(toPayout);
  const byBucket = new Map(sums.map((r) => [r.d, money.normalize(r.total)]));
  return {
    interval,
    ...payoutTotalsOf(figures),
    total_balance: money.format(figures.balance),
    payout_datewise: buckets.map((b) => ({ date: ymd(b), total: byBucket.get(ymd(b)) ?? money.format(0n) })),
    recent_transactions: recent.map(unkeyed),
  };
}

const DECISIONS = {
  approve: { run: approvePayout, status: 'approved' },
  pay: { run: markPayoutPaid, status: 'paid' },
  reject: { run: rejectPayout, status: 'rejected' },
} as const;

/**
 * A back-office decision on a payout request (approve, mark paid, reject with a note), then the member
 * is told of the new status by the channels they keep on for payout_status.
 */
export async function decidePayout(ctx: Pick<AppContext, 'database' | 'outbox'>, id: number, decision: keyof typeof DECISIONS, note?: string): Promise<void> {
  const db = ctx.database.db;
  const d = DECISIONS[decision];
  if (decision === 'reject') await rejectPayout(db, id, new Date(), note ?? 'Rejected');
  else await d.run(db, id);
  const [p] = await rowsOf<{ member_id: number; amount: string }>(db, sql`SELECT member_id, amount::text AS amount FROM payout_requests WHERE id = ${id}`);
  if (!p) return;
  await announce(ctx, Number(p.member_id), 'payout_status', {
    key: decision === 'reject' && note ? 'payout_rejected_reason' : `payout_${d.status}`,
    values: { invoice: payoutInvoiceNo(id), amount: money.format(money.parse(p.amount), 2), reason: note ?? '' },
    link: PAYOUT_LINK,
  });
}

/**
 * The member withdraws their own pending request: the amount and the fee go back to the wallet (the
 * refund postings a rejection makes) in the same transaction as the status change, under the row's lock,
 * so a cancel racing a back-office approval or a second cancel changes the wallet once. Another member's
 * request (or no such request) → 404; one that is no longer pending → 409.
 */
export async function cancelPayout(ctx: Pick<AppContext, 'database' | 'settings'>, memberId: number, rawId: string, ip: string | null) {
  const id = /^\d{1,15}$/.test(rawId) ? Number(rawId) : 0;
  const db = ctx.database.db;
  const cancelled = await db.transaction(async (tx) => {
    const [p] = await rowsOf<PayoutDbRow>(
      tx,
      sql`SELECT id, status, amount::text AS amount, fee::text AS fee, created_at FROM payout_requests WHERE id = ${id} AND member_id = ${memberId} FOR UPDATE`,
    );
    if (!p) throw notFound();
    if (Number(p.status) !== PAYOUT_STATUS.pending) throw new HttpError(409, 'payout_not_pending', 'Only a pending request can be cancelled.');
    const wallet = await lockWallet(tx, memberId);
    const acc = await systemAccounts(tx);
    const at = new Date();
    for (const posting of payoutRefundPostings({ id, memberId, amount: money.parse(p.amount), fee: money.parse(p.fee) }, at, wallet, acc)) await post(tx, posting);
    await tx.execute(sql`UPDATE payout_requests SET status = ${PAYOUT_STATUS.cancelled}, note = 'Cancelled by the member', updated_at = ${at.toISOString()}::timestamptz WHERE id = ${id}`);
    await recordAudit(tx, memberId, 'payout.cancelled', { payout_id: id }, ip);
    return { ...p, status: PAYOUT_STATUS.cancelled };
  });
  return { payout: payoutOf(cancelled), wallet_balance: money.format(await memberBalance(db, memberId)) };
}
