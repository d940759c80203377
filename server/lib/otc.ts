/**
 * Over-the-counter payments (spec §2 Over-the-counter payment): the member asks to pay something — a
 * package purchase, an order, a wallet top-up — at a bank or a cash desk and is given the company's bank
 * details and a reference; after paying, sends the receipt and the bank's transaction reference; staff
 * approve (the payment takes effect through `fulfil`, in the approval's transaction, exactly once) or
 * reject with a reason. A request not paid within OTC_EXPIRY_DAYS expires.
 *
 * Statuses: awaiting_payment → submitted → approved | rejected; awaiting_payment → expired.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { AppContext } from './app-context';
import { OTC_EXPIRY_DAYS, otcPaymentFieldsSchema, type OtcBank, type OtcMethod, type OtcPurpose, type OtcRequest, type OtcRequestBody, type OtcStatus } from '../../src/schemas/otc.schema';
import * as z from 'zod/mini';
import { HttpError, issuesToFieldMap, notFound, validationError, type FieldMap } from './errors';
import { fulfil, payableOf, type FulfilmentServices } from './fulfilment';
import { isUniqueViolation, rowsOf, type Executor } from './ledger';
import { keyedRow, type Keyed } from './list-endpoint';
import { announce } from './member-notices';
import * as money from './money';
import { createTopup, settledServices } from './packages';
import type { ListQuery } from './pagination';
import { UPLOAD_POLICIES, discardFiles, fieldOf, inspectFile, storeUploads, type CheckedFile, type UploadRequest } from './uploads';

const DAY = 86_400_000;
/** Largest wallet top-up asked over the counter. */
export const MAX_TOPUP = money.parse('100000');
export const MIN_TOPUP = money.parse('10');

export const DEFAULT_OTC_BANK: OtcBank = {
  bank_name: 'First Commerce Bank',
  account_name: 'Upline Inc.',
  account_number: '0012 3456 7890',
  iban: 'US00 FCBK 0012 3456 7890',
  swift: 'FCBKUS33',
  branch: 'Main Street branch, Springfield',
  desk: 'Upline office, 100 Main Street, Springfield — Monday to Friday, 9:00–17:00',
};

/** The company's bank details (settings row `otc_bank`, else the defaults). */
export async function otcBank(settings: AppContext['settings']): Promise<OtcBank> {
  const all = (await settings.all()) as unknown as Record<string, unknown>;
  const row = all.otc_bank;
  return row && typeof row === 'object' ? { ...DEFAULT_OTC_BANK, ...(row as Partial<OtcBank>) } : DEFAULT_OTC_BANK;
}

interface RequestRow {
  id: number;
  member_id: number;
  purpose: OtcPurpose;
  ref_id: number;
  amount: string;
  method: OtcMethod;
  reference: string;
  description: string;
  status: OtcStatus;
  transaction_ref: string | null;
  receipt_upload_id: number | null;
  receipt_name: string | null;
  reason: string | null;
  expires_at: Date | string;
  created_at: Date | string;
  submitted_at: Date | string | null;
  decided_at: Date | string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

const requestSelect = sql`SELECT o.id::int AS id, o.member_id, o.purpose, o.ref_id::int AS ref_id, o.amount::text AS amount, o.method, o.reference, o.description,
    o.status, o.transaction_ref, o.receipt_upload_id::int AS receipt_upload_id, u.original_name AS receipt_name, o.reason, o.expires_at, o.created_at,
    o.submitted_at, o.decided_at
  FROM otc_requests o LEFT JOIN uploads u ON u.id = o.receipt_upload_id`;

function requestOf(r: RequestRow): OtcRequest {
  return {
    id: Number(r.id),
    purpose: r.purpose,
    ref_id: Number(r.ref_id),
    amount: money.format(money.parse(r.amount), 2),
    method: r.method,
    reference: r.reference,
    description: r.description,
    status: r.status,
    transaction_ref: r.transaction_ref,
    receipt_id: r.receipt_upload_id === null ? null : Number(r.receipt_upload_id),
    receipt_name: r.receipt_name,
    reason: r.reason,
    expires_at: iso(r.expires_at),
    created_at: iso(r.created_at),
    submitted_at: isoOrNull(r.submitted_at),
    decided_at: isoOrNull(r.decided_at),
  };
}

/** Requests past their payment window expire (of one member, or all with null). */
export async function expireRequests(ex: Executor, memberId: number | null, now = new Date()): Promise<void> {
  await ex.execute(
    sql`UPDATE otc_requests SET status = 'expired', decided_at = ${now.toISOString()}::timestamptz
        WHERE status = 'awaiting_payment' AND expires_at < ${now.toISOString()}::timestamptz ${memberId === null ? sql`` : sql`AND member_id = ${memberId}`}`,
  );
}

const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2 ** 53;

async function requestRow(ex: Executor, memberId: number | null, id: number, lock = false): Promise<RequestRow> {
  if (!validId(id)) throw notFound('No such payment request');
  if (lock) await ex.execute(sql`SELECT 1 FROM otc_requests WHERE id = ${id} FOR UPDATE`);
  const [r] = await rowsOf<RequestRow>(ex, sql`${requestSelect} WHERE o.id = ${id} ${memberId === null ? sql`` : sql`AND o.member_id = ${memberId}`}`);
  if (!r) throw notFound('No such payment request');
  return r;
}

/** A reference nobody can guess and anyone can read out: OTC-XXXX-XXXX (no 0/O, 1/I). */
export function newReference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  const chars = [...bytes].map((b) => alphabet[b % alphabet.length]);
  return `OTC-${chars.slice(0, 4).join('')}-${chars.slice(4).join('')}`;
}

/** POST /api/otc/requests: a new request for a purchase, an order or a top-up (amount from the thing paid, or entered for a top-up). */
export async function createOtcRequest(db: Db, settings: AppContext['settings'], memberId: number, body: OtcRequestBody, now = new Date()) {
  const errors: FieldMap = {};
  let topupAmount: money.Units | null = null;
  if (body.purpose === 'topup') {
    if (!body.amount) errors.amount = ['validation:required'];
    else {
      topupAmount = money.parse(body.amount);
      if (topupAmount < MIN_TOPUP) errors.amount = ['store:otc.errors.topupMinimum'];
      else if (topupAmount > MAX_TOPUP) errors.amount = ['store:otc.errors.topupMaximum'];
    }
  } else if (body.ref_id === undefined || body.ref_id === null) errors.ref_id = ['validation:required'];
  if (Object.keys(errors).length) throw validationError(errors);

  try {
    const id = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM members WHERE id = ${memberId} FOR UPDATE`);
      await expireRequests(tx, memberId, now);
      const refId = body.purpose === 'topup' ? await createTopup(tx, memberId, topupAmount!, now) : Number(body.ref_id);
      if (body.purpose !== 'topup' && !validId(refId)) throw notFound('Nothing to pay');
      const payable = await payableOf(tx, body.purpose, memberId, refId);
      const [open] = await rowsOf(tx, sql`SELECT 1 FROM otc_requests WHERE purpose = ${body.purpose} AND ref_id = ${refId} AND status IN ('awaiting_payment', 'submitted')`);
      if (open) throw validationError({ ref_id: ['store:otc.errors.alreadyRequested'] });
      const expires = new Date(now.getTime() + OTC_EXPIRY_DAYS * DAY);
      const [r] = await rowsOf<{ id: number }>(
        tx,
        sql`INSERT INTO otc_requests (member_id, purpose, ref_id, amount, method, reference, description, expires_at, created_at)
            VALUES (${memberId}, ${body.purpose}, ${refId}, ${money.format(payable.amount)}, ${body.method}, ${newReference()}, ${payable.description},
                    ${expires.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
            RETURNING id::int AS id`,
      );
      return Number(r.id);
    });
    return { request: requestOf(await requestRow(db, memberId, id)), bank: await otcBank(settings) };
  } catch (e) {
    if (isUniqueViolation(e)) throw validationError({ ref_id: ['store:otc.errors.alreadyRequested'] });
    throw e;
  }
}

export async function otcRequestOf(db: Db, settings: AppContext['settings'], memberId: number, id: number) {
  await expireRequests(db, memberId);
  return { request: requestOf(await requestRow(db, memberId, id)), bank: await otcBank(settings) };
}

/** The member's requests for the payment history (keyset paged, newest first by default). */
export async function otcRows(db: Db, memberId: number, q: ListQuery, limit: number, now = new Date()): Promise<Array<Keyed<OtcRequest>>> {
  // One read tells, with the page, whether a request of the member is past its window: only then are they
  // expired (a write) and the page read again. (A page without rows shows none, expired or not.)
  const read = () =>
    rowsOf<RequestRow & { expire_due: boolean }>(
      db,
      sql`SELECT x.*, EXISTS (SELECT 1 FROM otc_requests e WHERE e.member_id = ${memberId} AND e.status = 'awaiting_payment'
                                AND e.expires_at < ${now.toISOString()}::timestamptz) AS expire_due
          FROM (${requestSelect} WHERE o.member_id = ${memberId} AND ${q.rangeSql(sql`o.created_at`)} AND ${q.afterCursorSql(sql`o.created_at`, sql`o.id`)}
                ORDER BY ${q.orderSql(sql`o.created_at`, sql`o.id`)} LIMIT ${limit}) x
          ORDER BY ${q.orderSql(sql`x.created_at`, sql`x.id`)}`,
    );
  let rows = await read();
  if (rows[0]?.expire_due) {
    await expireRequests(db, memberId, now);
    rows = await read();
  }
  return rows.map((r) => {
    const item = requestOf(r);
    return { ...item, ...keyedRow(item.id, r.created_at, {}), created_at: item.created_at };
  });
}

/**
 * POST /api/otc/requests/{id}/payment: the receipt (one JPG, PNG or PDF checked by its bytes) and the
 * bank's transaction reference of a request awaiting payment (a rejected one is asked again as a new request).
 */
export async function submitOtcPayment(ctx: Pick<AppContext, 'database' | 'config'>, memberId: number, id: number, upload: UploadRequest, now = new Date()) {
  const db = ctx.database.db;
  const policy = UPLOAD_POLICIES.receipt;
  const field = fieldOf(policy);
  const errors: FieldMap = {};
  for (const k of Object.keys(upload.fields)) if (k !== 'transaction_ref') errors[k] = ['validation:unknownField'];
  const parsed = z.safeParse(otcPaymentFieldsSchema, { transaction_ref: upload.fields.transaction_ref ?? '' });
  if (!parsed.success) Object.assign(errors, issuesToFieldMap(parsed.error.issues));
  if (upload.files.length === 0) errors[field] = ['store:otc.errors.receiptRequired'];
  await expireRequests(db, memberId, now);
  const before = await requestRow(db, memberId, id);
  if (before.status !== 'awaiting_payment') errors._body = [`store:otc.errors.not_${before.status}`];
  if (Object.keys(errors).length) throw validationError(errors);

  const checked: CheckedFile[] = [];
  for (const f of upload.files) checked.push(await inspectFile(f, policy));
  const stored: string[] = [];
  try {
    await db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const r = await requestRow(tx, memberId, id, true);
      if (r.status !== 'awaiting_payment') throw validationError({ _body: [`store:otc.errors.not_${r.status}`] });
      const rows = await storeUploads(tx, ctx.config, memberId, policy, checked);
      stored.push(...rows.map((u) => u.stored_name));
      await tx.execute(
        sql`UPDATE otc_requests SET status = 'submitted', transaction_ref = ${parsed.data!.transaction_ref}, receipt_upload_id = ${rows[0].id},
            submitted_at = ${now.toISOString()}::timestamptz WHERE id = ${id}`,
      );
    });
  } catch (e) {
    await discardFiles(ctx.config, stored);
    throw e;
  }
  return requestOf(await requestRow(db, memberId, id));
}

// ---------------------------------------------------------------------------------------------
// Staff decisions

export interface PendingOtc {
  id: number;
  username: string;
  purpose: OtcPurpose;
  amount: string;
  method: OtcMethod;
  reference: string;
  status: OtcStatus;
  transaction_ref: string | null;
  created_at: string;
}

export async function listOtc(db: Db, status: OtcStatus | 'open', limit = 100): Promise<PendingOtc[]> {
  await expireRequests(db, null);
  const where = status === 'open' ? sql`o.status IN ('awaiting_payment', 'submitted')` : sql`o.status = ${status}`;
  const rows = await rowsOf<PendingOtc & { created_at: Date | string }>(
    db,
    sql`SELECT o.id::int AS id, m.username, o.purpose, o.amount::text AS amount, o.method, o.reference, o.status, o.transaction_ref, o.created_at
        FROM otc_requests o JOIN members m ON m.id = o.member_id WHERE ${where} ORDER BY o.id LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), amount: money.format(money.parse(r.amount), 2), created_at: iso(r.created_at) }));
}

export type OtcDecision = { approve: true } | { approve: false; reason: string };

/**
 * Approve or reject a request. Approval fulfils what it paid for in the same transaction, under the
 * request's row lock: a second approval (or one racing the first) finds it decided and is refused (409).
 */
export async function decideOtc(ctx: Pick<AppContext, 'database' | 'outbox' | 'settings' | 'config'>, id: number, decision: OtcDecision, now = new Date()) {
  const reason = decision.approve ? null : decision.reason.trim();
  if (!decision.approve && !reason) throw validationError({ reason: ['validation:required'] });
  if (reason && reason.length > 500) throw validationError({ reason: ['validation:tooLong'] });
  const services: FulfilmentServices = await settledServices(ctx);
  const r = await ctx.database.db.transaction(async (tx) => {
    await expireRequests(tx, null, now);
    const row = await requestRow(tx, null, id, true);
    if (row.status !== 'submitted' && row.status !== 'awaiting_payment') throw new HttpError(409, 'conflict', `Payment request ${id} is ${row.status}`);
    if (decision.approve) {
      await fulfil(tx, row.purpose, { memberId: row.member_id, refId: Number(row.ref_id), amount: money.parse(row.amount), method: 'otc', paymentRef: row.reference, at: now }, services);
    }
    await tx.execute(
      sql`UPDATE otc_requests SET status = ${decision.approve ? 'approved' : 'rejected'}, reason = ${reason}, decided_at = ${now.toISOString()}::timestamptz WHERE id = ${id}`,
    );
    return row;
  });
  await announce(ctx, r.member_id, 'order_status', {
    key: decision.approve ? 'otc_approved' : 'otc_rejected',
    values: { reference: r.reference, amount: money.format(money.parse(r.amount), 2), description: r.description, reason: reason ?? '' },
    link: '/member/otc/payment-history',
  });
  return { memberId: r.member_id, reference: r.reference, status: decision.approve ? ('approved' as const) : ('rejected' as const) };
}
