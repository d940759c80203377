/**
 * The wallet ledger: double entry, exact decimals, balances derived from entries.
 *
 * Convention (see migrations/0004_wallet.sql): an entry's amount is signed, debit positive and
 * credit negative; the entries of one transaction sum to zero. Member wallets are credit-normal
 * (the company owes the member), so a wallet balance is -SUM(entries). Every posting happens
 * inside one database transaction together with the rows it belongs to (earning, payout, order).
 *
 * The figures member pages show (a wallet's balance, its monthly credit and debit; ./figures) are kept by
 * the database in the same statement as the entries `post` writes (migration 0022), so every posting, by
 * whichever code, updates them inside its transaction; the balance checks below still sum the entries.
 *
 * Payout requests lock the member's wallet account row (SELECT … FOR UPDATE) before reading the
 * balance, so concurrent requests of one member run one after the other and can never overdraw;
 * the same Idempotency-Key never creates a second payout.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { earnings, ledgerEntries, ledgerTransactions, payoutRequests, type PayoutRow } from '../db/schema-wallet';
import { validationError, type FieldMap } from './errors';
import * as money from './money';
import type { Units } from './money';
import type { SettingsService } from './settings';

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

const ISO_UTC_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/**
 * A time column as JavaScript's toISOString writes it, written by the database: to the millisecond, finer
 * digits cut off as a Date read from the column would cut them.
 */
export const isoUtc = (col: SQL) => sql`to_char(${col} AT TIME ZONE 'UTC', ${sql.raw(ISO_UTC_FORMAT)})`;
/** The same, as SQL text for a column named in a raw column list. */
export const isoUtcText = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', ${ISO_UTC_FORMAT})`;

export async function rowsOf<T = Record<string, unknown>>(ex: Executor, query: SQL): Promise<T[]> {
  const r = (await ex.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

// ---------------------------------------------------------------------------------------------
// Vocabulary

/** Bonus types paid as earnings. */
export const BONUS_TYPES = ['referral_bonus', 'binary_bonus', 'level_commission', 'rank_bonus'] as const;
export type BonusType = (typeof BONUS_TYPES)[number];
export const BONUS_LABELS: Record<BonusType, string> = {
  referral_bonus: 'Referral bonus',
  binary_bonus: 'Binary bonus',
  level_commission: 'Level commission',
  rank_bonus: 'Rank bonus',
};

/** What a wallet line is about (the `transaction_key` filter). */
export const TRANSACTION_KEYS = [
  ...BONUS_TYPES,
  'payout',
  'payout_fee',
  'fund_transfer',
  'wallet_purchase',
  'admin_adjustment',
] as const;
export type TransactionKey = (typeof TRANSACTION_KEYS)[number];
export const TRANSACTION_LABELS: Record<TransactionKey, string> = {
  ...BONUS_LABELS,
  payout: 'Payout',
  payout_fee: 'Payout fee',
  fund_transfer: 'Fund transfer',
  wallet_purchase: 'Wallet purchase',
  admin_adjustment: 'Admin adjustment',
};

export const CASH_FLOWS = ['credit', 'debit'] as const;
export type CashFlow = (typeof CASH_FLOWS)[number];

export const PAYOUT_STATUS = { pending: 1, approved: 2, paid: 3, rejected: 4, cancelled: 5 } as const;
export type PayoutStatusId = (typeof PAYOUT_STATUS)[keyof typeof PAYOUT_STATUS];
export const PAYOUT_STATUS_KEYS: Record<PayoutStatusId, string> = { 1: 'pending', 2: 'approved', 3: 'paid', 4: 'rejected', 5: 'cancelled' };

export const KYC_STATUSES = ['not_submitted', 'pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

/** The company's own accounts. D = debit-normal (assets, expenses), C = credit-normal. */
export const SYSTEM_ACCOUNTS = {
  bonus_expense: { side: 'D', name: 'Bonus expense' },
  tax_payable: { side: 'C', name: 'Tax withheld on bonuses' },
  service_charge_income: { side: 'C', name: 'Service charges on bonuses' },
  payouts_payable: { side: 'C', name: 'Payouts payable (clearing)' },
  payout_fee_income: { side: 'C', name: 'Payout fees' },
  company_bank: { side: 'D', name: 'Company bank' },
  sales_revenue: { side: 'C', name: 'Sales revenue' },
  wallet_adjustments: { side: 'D', name: 'Wallet adjustments' },
} as const;
export type SystemAccount = keyof typeof SYSTEM_ACCOUNTS;
export type SystemAccountIds = Record<SystemAccount, number>;

// ---------------------------------------------------------------------------------------------
// Settings (rows `wallet` and `payout` of the settings table)

export interface BinarySettings {
  pair_unit: string;
  pair_bonus: string;
  capping_limit: string | null;
  pair_ratio: '1:1' | '2:1';
  first_pair_ratio: '1:1' | '2:1';
}

export interface WalletSettings {
  /** Withheld from every bonus, percent of the gross amount. */
  tax_percent: string;
  service_charge_percent: string;
  /** Direct (referral) bonus, percent of the sponsored member's package price. */
  referral_percent: string;
  /** Level commission: percent of a product or upgrade order's total for sponsor levels 1, 2, … */
  level_percents: string[];
  binary: BinarySettings;
}

export interface PayoutSettings {
  minimum: string;
  maximum: string;
  fee_fixed: string;
  fee_percent: string;
  kyc_required: boolean;
  /** At most one pending request per member. */
  single_pending: boolean;
}

export const DEFAULT_WALLET_SETTINGS: WalletSettings = {
  tax_percent: '5',
  service_charge_percent: '2',
  referral_percent: '10',
  level_percents: ['5', '3', '2', '1', '1'],
  binary: { pair_unit: '100', pair_bonus: '10', capping_limit: '80', pair_ratio: '1:1', first_pair_ratio: '2:1' },
};

export const DEFAULT_PAYOUT_SETTINGS: PayoutSettings = {
  minimum: '50',
  maximum: '5000',
  fee_fixed: '2',
  fee_percent: '1.5',
  kyc_required: true,
  single_pending: true,
};

async function settingsRow(settings: SettingsService, key: string): Promise<Record<string, unknown> | undefined> {
  const all = (await settings.all()) as unknown as Record<string, unknown>;
  const v = all[key];
  return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
}

export async function walletSettings(settings: SettingsService): Promise<WalletSettings> {
  const row = (await settingsRow(settings, 'wallet')) as Partial<WalletSettings> | undefined;
  return { ...DEFAULT_WALLET_SETTINGS, ...row, binary: { ...DEFAULT_WALLET_SETTINGS.binary, ...row?.binary } };
}

export async function payoutSettings(settings: SettingsService): Promise<PayoutSettings & { enabled: boolean }> {
  const row = (await settingsRow(settings, 'payout')) as Partial<PayoutSettings> | undefined;
  const modules = (await settings.all()).modules as { payout_request?: boolean } | undefined;
  return { ...DEFAULT_PAYOUT_SETTINGS, ...row, enabled: modules?.payout_request ?? true };
}

// ---------------------------------------------------------------------------------------------
// Accounts

const systemIdsCache = new WeakMap<object, SystemAccountIds>();

/** Ids of the company accounts, created on first use. */
export async function systemAccounts(ex: Executor, cacheKey?: object): Promise<SystemAccountIds> {
  const cached = cacheKey && systemIdsCache.get(cacheKey);
  if (cached) return cached;
  const read = async () => {
    const rows = await rowsOf<{ id: number; kind: string }>(ex, sql`SELECT id, kind FROM ledger_accounts WHERE member_id IS NULL`);
    return Object.fromEntries(rows.map((r) => [r.kind, Number(r.id)])) as Partial<SystemAccountIds>;
  };
  let ids = await read();
  const missing = (Object.keys(SYSTEM_ACCOUNTS) as SystemAccount[]).filter((k) => ids[k] === undefined);
  if (missing.length) {
    const values = sql.join(
      missing.map((k) => sql`(${k}, NULL, ${SYSTEM_ACCOUNTS[k].side}, ${SYSTEM_ACCOUNTS[k].name})`),
      sql`, `,
    );
    await ex.execute(
      sql`INSERT INTO ledger_accounts (kind, member_id, normal_side, name) VALUES ${values} ON CONFLICT (kind) WHERE member_id IS NULL DO NOTHING`,
    );
    ids = await read();
  }
  const full = ids as SystemAccountIds;
  if (cacheKey) systemIdsCache.set(cacheKey, full);
  return full;
}

/** The member's wallet account id, or null when the member never had one (no writes). */
export async function findWallet(ex: Executor, memberId: number): Promise<number | null> {
  const [r] = await rowsOf<{ id: number }>(ex, sql`SELECT id FROM ledger_accounts WHERE member_id = ${memberId}`);
  return r ? Number(r.id) : null;
}

/** The member's wallet account id, created when missing. */
export async function ensureWallet(ex: Executor, memberId: number): Promise<number> {
  const found = await findWallet(ex, memberId);
  if (found !== null) return found;
  await ex.execute(
    sql`INSERT INTO ledger_accounts (kind, member_id, normal_side, name)
        VALUES ('member_wallet', ${memberId}, 'C', ${`Wallet of member ${memberId}`})
        ON CONFLICT (member_id) WHERE member_id IS NOT NULL DO NOTHING`,
  );
  return (await findWallet(ex, memberId))!;
}

/** Lock the member's wallet row for the rest of the transaction; returns its id. */
export async function lockWallet(tx: Tx, memberId: number): Promise<number> {
  await ensureWallet(tx, memberId);
  const [r] = await rowsOf<{ id: number }>(tx, sql`SELECT id FROM ledger_accounts WHERE member_id = ${memberId} FOR UPDATE`);
  return Number(r.id);
}

/** Balance of an account as its holder sees it, derived from the entries. */
export async function accountBalance(ex: Executor, accountId: number): Promise<Units> {
  const [r] = await rowsOf<{ side: string; total: string | null }>(
    ex,
    sql`SELECT a.normal_side AS side, (SELECT sum(amount) FROM ledger_entries WHERE account_id = a.id)::text AS total
        FROM ledger_accounts a WHERE a.id = ${accountId}`,
  );
  if (!r) return 0n;
  const total = r.total === null ? 0n : money.parse(r.total);
  return r.side === 'C' ? -total : total;
}

export async function walletBalance(ex: Executor, memberId: number): Promise<Units> {
  const id = await findWallet(ex, memberId);
  return id === null ? 0n : accountBalance(ex, id);
}

// ---------------------------------------------------------------------------------------------
// Postings

export interface Line {
  account: number;
  /** Debit positive, credit negative. */
  amount: Units;
}

export interface Posting {
  group: 'commission' | 'payout' | 'transfer' | 'purchase' | 'adjustment';
  type: string;
  /** A wallet line's key; postings that touch no wallet may use an internal key. */
  key: TransactionKey | 'order_payment';
  memberId?: number | null;
  fromMemberId?: number | null;
  level?: number | null;
  rankId?: number | null;
  payoutId?: number | null;
  orderId?: number | null;
  memo?: string | null;
  createdAt: Date;
  lines: Line[];
}

export class UnbalancedPostingError extends Error {}

/** A posting must have at least two non-zero lines on distinct accounts summing to zero. */
export function assertBalanced(p: Posting): void {
  if (p.lines.length < 2) throw new UnbalancedPostingError('a posting needs at least two lines');
  const seen = new Set<number>();
  for (const l of p.lines) {
    if (l.amount === 0n) throw new UnbalancedPostingError('zero line');
    if (seen.has(l.account)) throw new UnbalancedPostingError('one line per account');
    seen.add(l.account);
  }
  const total = money.sum(p.lines.map((l) => l.amount));
  if (total !== 0n) throw new UnbalancedPostingError(`lines sum to ${money.format(total)}, not zero`);
}

/** The transaction row of a posting (its id comes from the database or from the batch). */
function transactionRow(p: Posting) {
  return {
    transactionGroup: p.group,
    transactionType: p.type,
    transactionKey: p.key,
    memberId: p.memberId ?? null,
    fromMemberId: p.fromMemberId ?? null,
    level: p.level ?? null,
    rankId: p.rankId ?? null,
    payoutId: p.payoutId ?? null,
    orderId: p.orderId ?? null,
    memo: p.memo ?? null,
    createdAt: p.createdAt,
  } satisfies Omit<typeof ledgerTransactions.$inferInsert, 'id'>;
}

/** The entry rows of a posting's lines. */
function entryRows(p: Posting, transactionId: number): Array<typeof ledgerEntries.$inferInsert> {
  return p.lines.map((l) => ({ transactionId, accountId: l.account, amount: money.format(l.amount), createdAt: p.createdAt }));
}

/** Write one balanced posting (call inside a database transaction). Returns the transaction id. */
export async function post(tx: Executor, p: Posting): Promise<number> {
  assertBalanced(p);
  const [t] = await tx
    .insert(ledgerTransactions)
    .values(transactionRow(p))
    .returning({ id: ledgerTransactions.id });
  await tx.insert(ledgerEntries).values(entryRows(p, t.id));
  return Number(t.id);
}

/** Gross bonus → tax, service charge (each rounded to cents) and what reaches the wallet. */
export function splitEarning(gross: Units, s: Pick<WalletSettings, 'tax_percent' | 'service_charge_percent'>) {
  const tax = money.percentOf(gross, s.tax_percent, 2);
  const serviceCharge = money.percentOf(gross, s.service_charge_percent, 2);
  return { tax, serviceCharge, net: gross - tax - serviceCharge };
}

export interface EarningInput {
  memberId: number;
  bonusType: BonusType;
  gross: Units;
  level?: number | null;
  fromMemberId?: number | null;
  rankId?: number | null;
  createdAt: Date;
}

/** The posting of one earning: bonus expense (gross) against wallet (net), tax and service charge. */
export function earningPosting(e: EarningInput, wallet: number, acc: SystemAccountIds, s: WalletSettings) {
  const { tax, serviceCharge, net } = splitEarning(e.gross, s);
  const lines: Line[] = [
    { account: acc.bonus_expense, amount: e.gross },
    { account: wallet, amount: -net },
  ];
  if (tax) lines.push({ account: acc.tax_payable, amount: -tax });
  if (serviceCharge) lines.push({ account: acc.service_charge_income, amount: -serviceCharge });
  const posting: Posting = {
    group: 'commission',
    type: 'bonus',
    key: e.bonusType,
    memberId: e.memberId,
    fromMemberId: e.fromMemberId ?? null,
    level: e.level ?? null,
    rankId: e.rankId ?? null,
    createdAt: e.createdAt,
    lines,
  };
  return { posting, tax, serviceCharge, net };
}

/** The earnings row of one bonus: gross, its deductions and what reaches the wallet, with the posting's transaction. */
function earningRow(e: EarningInput, split: { tax: Units; serviceCharge: Units; net: Units }, transactionId: number) {
  return {
    memberId: e.memberId,
    bonusType: e.bonusType,
    amountGenerated: money.format(e.gross),
    tax: money.format(split.tax),
    serviceCharge: money.format(split.serviceCharge),
    amountPayable: money.format(split.net),
    level: e.level ?? null,
    fromMemberId: e.fromMemberId ?? null,
    rankId: e.rankId ?? null,
    transactionId,
    createdAt: e.createdAt,
  } satisfies Omit<typeof earnings.$inferInsert, 'id'>;
}

/** Pay one bonus: the earning row and its posting in one transaction. */
export async function postEarning(db: Db, e: EarningInput, s: WalletSettings): Promise<{ earningId: number; transactionId: number; net: Units }> {
  if (e.gross <= 0n) throw new RangeError('an earning must be positive');
  return db.transaction(async (tx) => {
    const acc = await systemAccounts(tx);
    const wallet = await ensureWallet(tx, e.memberId);
    const { posting, tax, serviceCharge, net } = earningPosting(e, wallet, acc, s);
    const transactionId = await post(tx, posting);
    const [row] = await tx
      .insert(earnings)
      .values(earningRow(e, { tax, serviceCharge, net }, transactionId))
      .returning({ id: earnings.id });
    return { earningId: Number(row.id), transactionId, net };
  });
}

/** Two lines moving `amount`: debit `debit`, credit `credit`. */
function movement(debit: number, credit: number, amount: Units): Line[] {
  return [
    { account: debit, amount },
    { account: credit, amount: -amount },
  ];
}

type PayoutRef = { id: number; memberId: number };

function payoutPosting(p: PayoutRef, type: string, key: 'payout' | 'payout_fee', createdAt: Date, lines: Line[]): Posting {
  return { group: 'payout', type, key, memberId: p.memberId, payoutId: p.id, createdAt, lines };
}

/** A payout request takes amount + fee from the wallet: two lines of the statement. */
export function payoutRequestPostings(p: PayoutRef & { amount: Units; fee: Units; createdAt: Date }, wallet: number, acc: SystemAccountIds): Posting[] {
  const out = [payoutPosting(p, 'payout_request', 'payout', p.createdAt, movement(wallet, acc.payouts_payable, p.amount))];
  if (p.fee > 0n) out.push(payoutPosting(p, 'payout_fee', 'payout_fee', p.createdAt, movement(wallet, acc.payout_fee_income, p.fee)));
  return out;
}

/** A rejected request gives amount and fee back. */
export function payoutRefundPostings(p: PayoutRef & { amount: Units; fee: Units }, at: Date, wallet: number, acc: SystemAccountIds): Posting[] {
  const out = [payoutPosting(p, 'payout_refund', 'payout', at, movement(acc.payouts_payable, wallet, p.amount))];
  if (p.fee > 0n) out.push(payoutPosting(p, 'payout_fee_refund', 'payout_fee', at, movement(acc.payout_fee_income, wallet, p.fee)));
  return out;
}

/** Money leaves the company: clearing against bank (no wallet line). */
export function payoutPaidPosting(p: PayoutRef & { amount: Units }, at: Date, acc: SystemAccountIds): Posting {
  return payoutPosting(p, 'payout_paid', 'payout', at, movement(acc.payouts_payable, acc.company_bank, p.amount));
}

type OrderRef = { id: number; memberId: number; total: Units; createdAt: Date };

function orderPaymentPosting(o: OrderRef, key: 'wallet_purchase' | 'order_payment', paidFrom: number, acc: SystemAccountIds): Posting {
  return {
    group: 'purchase',
    type: 'order_payment',
    key,
    memberId: o.memberId,
    orderId: o.id,
    createdAt: o.createdAt,
    lines: movement(paidFrom, acc.sales_revenue, o.total),
  };
}

/** An order paid from the wallet. */
export function walletPurchasePosting(o: OrderRef, wallet: number, acc: SystemAccountIds): Posting {
  return orderPaymentPosting(o, 'wallet_purchase', wallet, acc);
}

/** An order paid outside the wallet (card, bank transfer): bank against revenue. */
export function externalPaymentPosting(o: OrderRef, acc: SystemAccountIds): Posting {
  return orderPaymentPosting(o, 'order_payment', acc.company_bank, acc);
}

/** Wallet to wallet. `memberId` is the recipient, `fromMemberId` the sender. */
export function transferPosting(t: { fromMemberId: number; toMemberId: number; amount: Units; createdAt: Date }, fromWallet: number, toWallet: number): Posting {
  return {
    group: 'transfer',
    type: 'fund_transfer',
    key: 'fund_transfer',
    memberId: t.toMemberId,
    fromMemberId: t.fromMemberId,
    createdAt: t.createdAt,
    lines: movement(fromWallet, toWallet, t.amount),
  };
}

/** The company credits (amount > 0) or debits (amount < 0) a wallet. */
export function adjustmentPosting(a: { memberId: number; amount: Units; memo: string; createdAt: Date }, wallet: number, acc: SystemAccountIds): Posting {
  return {
    group: 'adjustment',
    type: a.amount > 0n ? 'admin_credit' : 'admin_debit',
    key: 'admin_adjustment',
    memberId: a.memberId,
    memo: a.memo,
    createdAt: a.createdAt,
    lines: movement(acc.wallet_adjustments, wallet, a.amount),
  };
}

// ---------------------------------------------------------------------------------------------
// Payouts

/** Fee of a payout: fixed + percent of the amount, rounded to cents. */
export function payoutFee(amount: Units, s: Pick<PayoutSettings, 'fee_fixed' | 'fee_percent'>): Units {
  return money.roundTo(money.parse(s.fee_fixed) + money.percentOf(amount, s.fee_percent), 2);
}

/** The largest whole-cent amount whose amount + fee fits in `balance` and within the maximum. */
export function maxRequestable(balance: Units, s: PayoutSettings): Units {
  const cent = 100n; // one cent in units
  const fixed = money.parse(s.fee_fixed);
  const pct = money.parse(s.fee_percent); // percent × 10^4
  if (balance <= fixed) return 0n;
  // amount × (1 + pct/100) ≤ balance − fixed
  let a = ((balance - fixed) * 1_000_000n) / (1_000_000n + pct);
  a = (a / cent) * cent;
  // Fees are rounded to cents, so the estimate can be a cent off either way.
  while (a > 0n && a + payoutFee(a, s) > balance) a -= cent;
  while (a + cent + payoutFee(a + cent, s) <= balance) a += cent;
  const maximum = money.parse(s.maximum);
  if (a > maximum) a = maximum;
  return a < money.parse(s.minimum) ? 0n : a;
}

/** Rules that need no database: format, minimum, maximum. */
export function payoutAmountErrors(amountText: string, s: PayoutSettings): { amount: Units | null; errors: FieldMap } {
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(amountText.trim())) return { amount: null, errors: { amount: ['validation:invalidAmount'] } };
  const amount = money.parse(amountText.trim());
  if (amount <= 0n) return { amount: null, errors: { amount: ['validation:invalidAmount'] } };
  if (amount < money.parse(s.minimum)) return { amount, errors: { amount: ['validation:payoutBelowMinimum'] } };
  if (amount > money.parse(s.maximum)) return { amount, errors: { amount: ['validation:payoutAboveMaximum'] } };
  return { amount, errors: {} };
}

export async function kycStatus(ex: Executor, memberId: number): Promise<KycStatus> {
  const [r] = await rowsOf<{ status: KycStatus }>(ex, sql`SELECT status FROM member_kyc WHERE member_id = ${memberId}`);
  return r?.status ?? 'not_submitted';
}

export interface PayoutRequestInput {
  memberId: number;
  amount: Units;
  idempotencyKey: string;
  /** What the request asked for; the same key with a different request is refused. */
  fingerprint: string;
  settings: PayoutSettings;
  now?: Date;
  /** The payout method and a masked snapshot of where the money goes, kept on the request. */
  destination?: { method: string; destination: string };
}

export interface PayoutResult {
  payout: PayoutRow;
  replayed: boolean;
}

/** A unique-constraint violation (23505), wherever the driver nests it in the error's causes. */
export function isUniqueViolation(e: unknown): boolean {
  for (let c: unknown = e; c && typeof c === 'object'; c = (c as { cause?: unknown }).cause) {
    if ((c as { code?: string }).code === '23505') return true;
  }
  return false;
}

async function findByKey(ex: Executor, memberId: number, key: string): Promise<PayoutRow | null> {
  const [r] = await ex
    .select()
    .from(payoutRequests)
    .where(sql`${payoutRequests.memberId} = ${memberId} AND ${payoutRequests.idempotencyKey} = ${key}`)
    .limit(1);
  return r ?? null;
}

function replay(existing: PayoutRow, fingerprint: string): PayoutResult {
  if (existing.requestFingerprint !== fingerprint) throw validationError({ idempotency_key: ['validation:idempotencyKeyReused'] });
  return { payout: existing, replayed: true };
}

/**
 * Create a payout request: under the wallet lock, replay an earlier request with the same key,
 * then check pending requests, KYC and the balance (amount + fee), insert the request and post it.
 */
export async function requestPayout(db: Db, input: PayoutRequestInput): Promise<PayoutResult> {
  const { memberId, amount, settings: s } = input;
  try {
    return await db.transaction(async (tx) => {
      const wallet = await lockWallet(tx, memberId);
      const existing = await findByKey(tx, memberId, input.idempotencyKey);
      if (existing) return replay(existing, input.fingerprint);

      if (s.single_pending) {
        const [p] = await rowsOf(tx, sql`SELECT 1 FROM payout_requests WHERE member_id = ${memberId} AND status = 1 LIMIT 1`);
        if (p) throw validationError({ amount: ['validation:payoutPendingExists'] });
      }
      if (s.kyc_required && (await kycStatus(tx, memberId)) !== 'approved') {
        throw validationError({ amount: ['validation:payoutKycRequired'] });
      }
      const fee = payoutFee(amount, s);
      const balance = await accountBalance(tx, wallet);
      if (amount + fee > balance) throw validationError({ amount: ['validation:payoutInsufficientBalance'] });

      const now = input.now ?? new Date();
      const [row] = await tx
        .insert(payoutRequests)
        .values({
          memberId,
          amount: money.format(amount),
          fee: money.format(fee),
          status: PAYOUT_STATUS.pending,
          idempotencyKey: input.idempotencyKey,
          requestFingerprint: input.fingerprint,
          balanceAfter: money.format(balance - amount - fee),
          payoutMethod: input.destination?.method ?? null,
          payoutDestination: input.destination?.destination ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const acc = await systemAccounts(tx);
      for (const p of payoutRequestPostings({ id: Number(row.id), memberId, amount, fee, createdAt: now }, wallet, acc)) await post(tx, p);
      return { payout: row, replayed: false };
    });
  } catch (e) {
    // Two requests with one key raced past each other (only possible without the lock): answer the winner.
    if (isUniqueViolation(e)) {
      const existing = await findByKey(db, memberId, input.idempotencyKey);
      if (existing) return replay(existing, input.fingerprint);
    }
    throw e;
  }
}

async function loadPayoutForUpdate(tx: Tx, id: number): Promise<PayoutRow> {
  const [r] = await rowsOf<{ id: number }>(tx, sql`SELECT id FROM payout_requests WHERE id = ${id} FOR UPDATE`);
  if (!r) throw new Error(`no payout ${id}`);
  const [row] = await tx.select().from(payoutRequests).where(sql`${payoutRequests.id} = ${id}`);
  return row;
}

/** Back-office decision: approve a pending request. */
export async function approvePayout(db: Db, id: number, at = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const p = await loadPayoutForUpdate(tx, id);
    if (p.status !== PAYOUT_STATUS.pending) throw new Error(`payout ${id} is not pending`);
    await tx.execute(sql`UPDATE payout_requests SET status = 2, updated_at = ${at.toISOString()}::timestamptz WHERE id = ${id}`);
  });
}

/** Money sent: clearing against bank. */
export async function markPayoutPaid(db: Db, id: number, at = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const p = await loadPayoutForUpdate(tx, id);
    if (p.status !== PAYOUT_STATUS.pending && p.status !== PAYOUT_STATUS.approved) throw new Error(`payout ${id} cannot be paid`);
    const acc = await systemAccounts(tx);
    await post(tx, payoutPaidPosting({ id, memberId: p.memberId, amount: money.parse(p.amount) }, at, acc));
    await tx.execute(sql`UPDATE payout_requests SET status = 3, paid_at = ${at.toISOString()}::timestamptz, updated_at = ${at.toISOString()}::timestamptz WHERE id = ${id}`);
  });
}

/** Refused: amount and fee go back to the wallet. */
export async function rejectPayout(db: Db, id: number, at = new Date(), note = 'Rejected'): Promise<void> {
  await db.transaction(async (tx) => {
    const p = await loadPayoutForUpdate(tx, id);
    if (p.status !== PAYOUT_STATUS.pending && p.status !== PAYOUT_STATUS.approved) throw new Error(`payout ${id} cannot be rejected`);
    const wallet = await lockWallet(tx, p.memberId);
    const acc = await systemAccounts(tx);
    for (const posting of payoutRefundPostings({ id, memberId: p.memberId, amount: money.parse(p.amount), fee: money.parse(p.fee) }, at, wallet, acc)) {
      await post(tx, posting);
    }
    await tx.execute(sql`UPDATE payout_requests SET status = 4, note = ${note}, updated_at = ${at.toISOString()}::timestamptz WHERE id = ${id}`);
  });
}

/** Move money between two members' wallets (never below zero for the sender). */
export async function transferFunds(db: Db, t: { fromMemberId: number; toMemberId: number; amount: Units; createdAt?: Date }): Promise<number> {
  if (t.amount <= 0n || t.fromMemberId === t.toMemberId) throw new RangeError('bad transfer');
  return db.transaction(async (tx) => {
    const from = await lockWallet(tx, t.fromMemberId);
    const to = await ensureWallet(tx, t.toMemberId);
    if ((await accountBalance(tx, from)) < t.amount) throw validationError({ amount: ['validation:insufficientBalance'] });
    return post(tx, transferPosting({ ...t, createdAt: t.createdAt ?? new Date() }, from, to));
  });
}

/** A company credit or debit of a wallet (a debit never takes it below zero). */
export async function adjustWallet(db: Db, a: { memberId: number; amount: Units; memo: string; createdAt?: Date }): Promise<number> {
  if (a.amount === 0n) throw new RangeError('zero adjustment');
  return db.transaction(async (tx) => {
    const wallet = await lockWallet(tx, a.memberId);
    if (a.amount < 0n && (await accountBalance(tx, wallet)) < -a.amount) throw validationError({ amount: ['validation:insufficientBalance'] });
    const acc = await systemAccounts(tx);
    return post(tx, adjustmentPosting({ ...a, createdAt: a.createdAt ?? new Date() }, wallet, acc));
  });
}

// ---------------------------------------------------------------------------------------------
// Bulk writing (the seed): postings collected in memory with their ids, inserted in batches.

export class LedgerBatch {
  readonly transactions: Array<typeof ledgerTransactions.$inferInsert> = [];
  readonly entries: Array<typeof ledgerEntries.$inferInsert> = [];
  readonly earnings: Array<typeof earnings.$inferInsert> = [];
  private nextTransactionId: number;
  private nextEarningId: number;

  constructor(firstTransactionId: number, firstEarningId: number) {
    this.nextTransactionId = firstTransactionId;
    this.nextEarningId = firstEarningId;
  }

  add(p: Posting): number {
    assertBalanced(p);
    const id = this.nextTransactionId++;
    this.transactions.push({ id, ...transactionRow(p) });
    this.entries.push(...entryRows(p, id));
    return id;
  }

  addEarning(e: EarningInput, wallet: number, acc: SystemAccountIds, s: WalletSettings): { earningId: number; net: Units } {
    const { posting, tax, serviceCharge, net } = earningPosting(e, wallet, acc, s);
    const transactionId = this.add(posting);
    const earningId = this.nextEarningId++;
    this.earnings.push({ id: earningId, ...earningRow(e, { tax, serviceCharge, net }, transactionId) });
    return { earningId, net };
  }
}
