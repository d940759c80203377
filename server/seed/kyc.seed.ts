/**
 * Identity documents of the demo company, in step with the statuses payouts read (member_kyc, set by the
 * wallet seed): demo approved after an earlier rejection; every other member who has a status other than
 * "not submitted" has the document that led to it; at least one ordinary member in each of the four states.
 */
import { sql } from 'drizzle-orm';
import { rowsOf } from '../lib/ledger';
import type { Seeder } from '../seed';

const DAY = 86_400_000;
const REASONS = [
  'The photo is blurred: the document number cannot be read.',
  'The document has expired.',
  'The name on the document does not match the account.',
];
const STATES = ['not_submitted', 'pending', 'approved', 'rejected'] as const;

export const kycSeeder: Seeder = async ({ db, members, rng }) => {
  const random = rng('kyc');
  const categories = (await rowsOf<{ id: number }>(db, sql`SELECT id FROM kyc_categories ORDER BY sort_order, id`)).map((c) => c.id);
  if (!categories.length) return;

  // Ordinary members without payouts can take any state: make sure each of the four is there.
  const free = await rowsOf<{ member_id: number; status: string }>(
    db,
    sql`SELECT k.member_id, k.status FROM member_kyc k
        WHERE k.member_id > 4 AND NOT EXISTS (SELECT 1 FROM payout_requests p WHERE p.member_id = k.member_id)
        ORDER BY k.member_id`,
  );
  for (const state of STATES) {
    if (free.some((f) => f.status === state)) continue;
    // A member whose state others share takes the missing one.
    const donor = free.find((f) => free.filter((g) => g.status === f.status).length > 1);
    if (!donor) break;
    await db.execute(sql`UPDATE member_kyc SET status = ${state} WHERE member_id = ${donor.member_id}`);
    donor.status = state;
  }

  const demo = members.ids.demo;
  const demoSince = Date.UTC(2025, 1, 2, 9);
  await db.execute(sql`
    INSERT INTO kyc_documents (member_id, category_id, id_number, status, reason, created_at, decided_at) VALUES
      (${demo}, ${categories[0]}, 'X1234567', 'rejected', ${REASONS[0]}, ${new Date(demoSince)}, ${new Date(demoSince + 2 * DAY)}),
      (${demo}, ${categories[0]}, 'X1234567', 'approved', NULL, ${new Date(demoSince + 5 * DAY)}, ${new Date(demoSince + 8 * DAY)})`);
  await db.execute(sql`UPDATE member_kyc SET status = 'approved' WHERE member_id = ${demo}`);

  const others = await rowsOf<{ member_id: number; status: 'pending' | 'approved' | 'rejected'; updated_at: string | Date }>(
    db,
    sql`SELECT member_id, status, updated_at FROM member_kyc WHERE member_id <> ${demo} AND status <> 'not_submitted' ORDER BY member_id`,
  );
  for (let i = 0; i < others.length; i += 500) {
    const rows = others.slice(i, i + 500).map((o) => {
      const decided = new Date(o.updated_at);
      const sent = new Date(decided.getTime() - random.int(1, 4) * DAY);
      const reason = o.status === 'rejected' ? REASONS[random.int(0, REASONS.length - 1)] : null;
      const number = `D${String(100000 + o.member_id * 7)}`;
      return sql`(${o.member_id}, ${categories[random.int(0, categories.length - 1)]}, ${number}, ${o.status}, ${reason}, ${sent}, ${o.status === 'pending' ? null : decided})`;
    });
    await db.execute(sql`INSERT INTO kyc_documents (member_id, category_id, id_number, status, reason, created_at, decided_at) VALUES ${sql.join(rows, sql`, `)}`);
  }
};
