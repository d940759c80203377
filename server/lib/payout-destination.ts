/**
 * Where a member's payouts go (spec §2 Account settings: bank, payout; §7 Wallet and payout): the bank
 * details of /member/account/bank and the payout method of /member/account/payout. Only ever about the
 * caller. Every change needs the account password re-entered and leaves an audit row in the same
 * transaction; answers and audit rows show an account number by its last four characters only.
 */
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import type { MemberRow } from '../db/schema';
import {
  bankDetailsSchema,
  compactAccount,
  compactCode,
  maskLastFour,
  usesIban,
  type BankDetailsAnswer,
  type BankDetailsRequest,
  type MaskedBankDetails,
} from '../../src/schemas/bank-details.schema';
import {
  maskAddress,
  maskEmail,
  PAYOUT_METHODS,
  payoutMethodSchema,
  type ChosenPayoutMethod,
  type PayoutMethodAnswer,
  type PayoutMethodId,
  type PayoutMethodRequest,
} from '../../src/schemas/payout-method.schema';
import type { AppContext } from './app-context';
import { recordAudit } from './audit';
import { verifyPassword } from './crypto';
import { issuesToFieldMap, validationError, type FieldMap } from './errors';
import { rowsOf, type Executor } from './ledger';
import type { SettingsService } from './settings';

type Services = Pick<AppContext, 'database' | 'settings'>;

/** Issues → field map: this area's own keys (account:bank.errors.*, account:payoutMethod.errors.*) as they are, the rest as usual. */
function fieldMapOf(issues: Parameters<typeof issuesToFieldMap>[0]): FieldMap {
  const own = issues.filter((i) => /^account:(bank|payoutMethod)\.errors\.[A-Za-z]+$/.test(i.message));
  const out = issuesToFieldMap(issues.filter((i) => !own.includes(i)));
  for (const i of own) {
    const field = i.path.map(String).join('.');
    (out[field] ??= []).includes(i.message) || out[field].push(i.message);
  }
  return out;
}

interface BankRow {
  account_holder: string;
  country: string;
  iban: string | null;
  account_number: string | null;
  routing_code: string | null;
  bic: string;
  bank_name: string;
  updated_at: Date | string;
}

const bankRow = async (db: Executor, memberId: number) =>
  (
    await rowsOf<BankRow>(
      db,
      sql`SELECT account_holder, country, iban, account_number, routing_code, bic, bank_name, updated_at FROM bank_details WHERE member_id = ${memberId}`,
    )
  )[0] ?? null;

function masked(r: BankRow): MaskedBankDetails {
  return {
    account_holder: r.account_holder,
    country: r.country,
    kind: r.iban ? 'iban' : 'account',
    account_masked: maskLastFour(r.iban ?? r.account_number ?? ''),
    routing_code: r.iban ? null : r.routing_code,
    bic: r.bic,
    bank_name: r.bank_name,
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** The caller's bank details (masked) and the countries an account can be in. */
export async function bankDetailsOf(ctx: Services, memberId: number): Promise<BankDetailsAnswer> {
  const row = await bankRow(ctx.database.db, memberId);
  const countries = (await ctx.settings.countries()).map((c) => ({ iso_code_2: c.iso_code_2, name: c.name, iban: usesIban(c.iso_code_2) }));
  return { bank_details: row ? masked(row) : null, countries };
}

/** A wrong re-entered password is an error of `password`, checked with the rest (one field map). */
async function passwordErrors(member: MemberRow, password: string, errors: FieldMap) {
  if (!password) errors.password = ['validation:required'];
  else if (!(await verifyPassword(password, member.passwordHash))) errors.password = ['validation:invalidPassword'];
}

/** Save the caller's bank details: the shared schema (ibantools), the password, then one upsert and its audit row. */
export async function saveBankDetails(ctx: Services, member: MemberRow, body: BankDetailsRequest, ip: string | null): Promise<BankDetailsAnswer> {
  const { password, ...fields } = body;
  const checked = z.safeParse(bankDetailsSchema, fields);
  const errors = checked.success ? {} : fieldMapOf(checked.error.issues);
  const country = fields.country.trim().toUpperCase();
  if (!errors.country && !(await ctx.settings.countries()).some((c) => c.iso_code_2 === country)) errors.country = ['validation:invalidChoice'];
  await passwordErrors(member, password, errors);
  if (Object.keys(errors).length) throw validationError(errors);

  const iban = usesIban(country) ? compactAccount(fields.iban ?? '') : null;
  const accountNumber = iban ? null : compactCode(fields.account_number ?? '');
  const routing = iban ? null : compactCode(fields.routing_code ?? '');
  const bic = fields.bic.replace(/\s+/g, '').toUpperCase();
  const now = new Date().toISOString();
  await ctx.database.db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO bank_details (member_id, account_holder, country, iban, account_number, routing_code, bic, bank_name, updated_at)
      VALUES (${member.id}, ${fields.account_holder.trim()}, ${country}, ${iban}, ${accountNumber}, ${routing}, ${bic}, ${fields.bank_name.trim()}, ${now}::timestamptz)
      ON CONFLICT (member_id) DO UPDATE SET account_holder = EXCLUDED.account_holder, country = EXCLUDED.country, iban = EXCLUDED.iban,
        account_number = EXCLUDED.account_number, routing_code = EXCLUDED.routing_code, bic = EXCLUDED.bic, bank_name = EXCLUDED.bank_name,
        updated_at = EXCLUDED.updated_at`);
    await recordAudit(tx, member.id, 'bank.changed', { country, kind: iban ? 'iban' : 'account', last4: (iban ?? accountNumber ?? '').slice(-4), bic }, ip);
  });
  return bankDetailsOf(ctx, member.id);
}

// ── Payout method ────────────────────────────────────────────────────────────────────────────────

export const DEFAULT_PAYOUT_METHODS: readonly PayoutMethodId[] = PAYOUT_METHODS;

/** The methods the company offers (company setting `payout_methods`: { offered: [...] }), in its order. */
export async function offeredPayoutMethods(settings: SettingsService): Promise<PayoutMethodId[]> {
  const row = ((await settings.all()) as unknown as Record<string, unknown>).payout_methods as { offered?: unknown } | undefined;
  const offered = Array.isArray(row?.offered) ? row.offered.filter((m): m is PayoutMethodId => (PAYOUT_METHODS as readonly string[]).includes(m)) : [...DEFAULT_PAYOUT_METHODS];
  return offered;
}

/** The caller's chosen method with its masked destination, or null (none chosen, or no longer offered, or a bank transfer without bank details). */
export async function chosenPayoutMethod(db: Executor, settings: SettingsService, memberId: number): Promise<ChosenPayoutMethod | null> {
  const [row] = await rowsOf<{ method: PayoutMethodId; destination: string | null }>(db, sql`SELECT method, destination FROM payout_methods WHERE member_id = ${memberId}`);
  if (!row || !(await offeredPayoutMethods(settings)).includes(row.method)) return null;
  if (row.method === 'bank_transfer') {
    const bank = await bankRow(db, memberId);
    return bank ? { method: row.method, destination: `${bank.bank_name} ${maskLastFour(bank.iban ?? bank.account_number ?? '')}` } : null;
  }
  const destination = row.destination ?? '';
  return { method: row.method, destination: row.method === 'e_wallet' ? maskEmail(destination) : maskAddress(destination) };
}

export async function payoutMethodOf(ctx: Services, memberId: number): Promise<PayoutMethodAnswer> {
  const db = ctx.database.db;
  return {
    offered: await offeredPayoutMethods(ctx.settings),
    chosen: await chosenPayoutMethod(db, ctx.settings, memberId),
    has_bank_details: !!(await bankRow(db, memberId)),
  };
}

/** Choose the caller's payout method: offered, its destination well-formed, bank details for a transfer, the password. */
export async function savePayoutMethod(ctx: Services, member: MemberRow, body: PayoutMethodRequest, ip: string | null): Promise<PayoutMethodAnswer> {
  const db = ctx.database.db;
  const offered = await offeredPayoutMethods(ctx.settings);
  const checked = z.safeParse(payoutMethodSchema(offered), body);
  const errors = checked.success ? {} : fieldMapOf(checked.error.issues);
  if (!errors.method && body.method === 'bank_transfer' && !(await bankRow(db, member.id))) errors.method = ['account:payoutMethod.errors.bankMissing'];
  await passwordErrors(member, body.password, errors);
  if (Object.keys(errors).length) throw validationError(errors);

  const destination = body.method === 'e_wallet' ? (body.email ?? '').trim() : body.method === 'usdt_trc20' ? (body.address ?? '').trim() : null;
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      INSERT INTO payout_methods (member_id, method, destination, updated_at) VALUES (${member.id}, ${body.method}, ${destination}, now())
      ON CONFLICT (member_id) DO UPDATE SET method = EXCLUDED.method, destination = EXCLUDED.destination, updated_at = EXCLUDED.updated_at`);
    const shown = destination === null ? null : body.method === 'e_wallet' ? maskEmail(destination) : maskAddress(destination);
    await recordAudit(tx, member.id, 'payout_method.changed', { method: body.method, ...(shown ? { destination: shown } : {}) }, ip);
  });
  return payoutMethodOf(ctx, member.id);
}
