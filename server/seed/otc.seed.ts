/**
 * Demo's over-the-counter payments, one in each status: a product order paid at the bank and approved, a
 * wallet top-up rejected (with the reason), one that expired unpaid, one whose receipt waits for review and
 * one awaiting its deposit (on a date agreed with the company, so it stays open).
 */
import { sql } from 'drizzle-orm';
import { rowsOf } from '../lib/ledger';
import type { Seeder } from '../seed';
import { WALLET_END } from './wallet.seed';

const DAY = 86_400_000;

export const otcSeeder: Seeder = async ({ db, members }) => {
  const demo = members.ids.demo;
  const at = (t: number) => new Date(t).toISOString();
  const topup = async (amount: string, status: 'pending' | 'cancelled', createdAt: number) => {
    const [r] = await rowsOf<{ id: number }>(
      db,
      sql`INSERT INTO wallet_topups (member_id, amount, status, created_at) VALUES (${demo}, ${amount}, ${status}, ${at(createdAt)}::timestamptz) RETURNING id::int AS id`,
    );
    return Number(r.id);
  };
  const request = async (r: {
    purpose: 'order' | 'topup';
    refId: number;
    amount: string;
    method: 'bank_deposit' | 'cash';
    reference: string;
    description: string;
    status: string;
    createdAt: number;
    expiresAt: number;
    transactionRef?: string;
    submittedAt?: number;
    decidedAt?: number;
    reason?: string;
  }) =>
    db.execute(
      sql`INSERT INTO otc_requests (member_id, purpose, ref_id, amount, method, reference, description, status, transaction_ref, reason, expires_at, created_at, submitted_at, decided_at)
          VALUES (${demo}, ${r.purpose}, ${r.refId}, ${r.amount}, ${r.method}, ${r.reference}, ${r.description}, ${r.status}, ${r.transactionRef ?? null}, ${r.reason ?? null},
                  ${at(r.expiresAt)}::timestamptz, ${at(r.createdAt)}::timestamptz, ${r.submittedAt ? at(r.submittedAt) : null}::timestamptz, ${r.decidedAt ? at(r.decidedAt) : null}::timestamptz)`,
    );

  // An order demo paid by bank transfer, as an approved counter payment.
  const [order] = await rowsOf<{ id: number; total: string; created_at: Date | string; invoice_no: string }>(
    db,
    sql`SELECT id::int AS id, total::text AS total, created_at, invoice_no FROM orders WHERE member_id = ${demo} AND payment_method = 'bank_transfer' ORDER BY created_at DESC LIMIT 1`,
  );
  if (order) {
    const t = new Date(order.created_at).getTime();
    await request({
      purpose: 'order',
      refId: Number(order.id),
      amount: order.total,
      method: 'bank_deposit',
      reference: 'OTC-DEMO-A7K2',
      description: `Order ${order.invoice_no}`,
      status: 'approved',
      createdAt: t - 2 * DAY,
      expiresAt: t + 5 * DAY,
      transactionRef: 'FCB-20488213',
      submittedAt: t - DAY,
      decidedAt: t,
    });
  }
  const base = WALLET_END - 40 * DAY;
  await request({
    purpose: 'topup',
    refId: await topup('150', 'cancelled', base),
    amount: '150',
    method: 'cash',
    reference: 'OTC-DEMO-R3P9',
    description: 'Wallet top-up',
    status: 'rejected',
    createdAt: base,
    expiresAt: base + 7 * DAY,
    transactionRef: 'DESK-5521',
    submittedAt: base + DAY,
    decidedAt: base + 2 * DAY,
    reason: 'The receipt shows 105.00, not 150.00. Please ask again with the amount you paid.',
  });
  await request({
    purpose: 'topup',
    refId: await topup('80', 'cancelled', base + 10 * DAY),
    amount: '80',
    method: 'bank_deposit',
    reference: 'OTC-DEMO-X5M4',
    description: 'Wallet top-up',
    status: 'expired',
    createdAt: base + 10 * DAY,
    expiresAt: base + 17 * DAY,
    decidedAt: base + 17 * DAY,
  });
  await request({
    purpose: 'topup',
    refId: await topup('200', 'pending', WALLET_END - 3 * DAY),
    amount: '200',
    method: 'bank_deposit',
    reference: 'OTC-DEMO-S8H6',
    description: 'Wallet top-up',
    status: 'submitted',
    createdAt: WALLET_END - 3 * DAY,
    expiresAt: WALLET_END + 4 * DAY,
    transactionRef: 'FCB-20511907',
    submittedAt: WALLET_END - 2 * DAY,
  });
  // A deposit announced for a date agreed with the company: open until then.
  await request({
    purpose: 'topup',
    refId: await topup('120', 'pending', WALLET_END - DAY),
    amount: '120',
    method: 'cash',
    reference: 'OTC-DEMO-W2B7',
    description: 'Wallet top-up',
    status: 'awaiting_payment',
    createdAt: WALLET_END - DAY,
    expiresAt: Date.UTC(2027, 11, 31),
  });
};
