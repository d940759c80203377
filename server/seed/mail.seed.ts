/**
 * Mail of the demo company: the participants of every thread (the home seed writes messages to demo),
 * and demo's own mail — threads with its sponsor (a reply waiting unread), its team and the company,
 * sent items, and a message of each direction in the bin.
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Executor } from '../lib/ledger';
import type { Seeder } from '../seed';

const at = (y: number, m: number, d: number, h = 9) => new Date(Date.UTC(y, m - 1, d, h));
const HOUR = 3_600_000;

async function thread(db: Executor, subject: string, a: number, b: number, when: Date): Promise<number> {
  const [t] = await rowsOf<{ id: number }>(db, sql`INSERT INTO message_threads (subject, created_at) VALUES (${subject}, ${when.toISOString()}::timestamptz) RETURNING id::int AS id`);
  await db.execute(sql`INSERT INTO message_participants (thread_id, member_id) VALUES (${t.id}, ${a}), (${t.id}, ${b}) ON CONFLICT DO NOTHING`);
  return Number(t.id);
}

async function message(
  db: Executor,
  threadId: number,
  from: number,
  to: number,
  body: string,
  when: Date,
  opts: { read?: boolean; senderBinned?: boolean; recipientBinned?: boolean } = {},
): Promise<void> {
  const ts = (on: boolean | undefined, d: Date) => (on ? d.toISOString() : null);
  await db.execute(sql`
    INSERT INTO messages (thread_id, sender_id, recipient_id, body, created_at, read_at, sender_binned_at, recipient_binned_at)
    VALUES (${threadId}, ${from}, ${to}, ${body}, ${when.toISOString()}::timestamptz,
            ${ts(opts.read, new Date(when.getTime() + HOUR))}::timestamptz,
            ${ts(opts.senderBinned, new Date(when.getTime() + 2 * HOUR))}::timestamptz,
            ${ts(opts.recipientBinned, new Date(when.getTime() + 2 * HOUR))}::timestamptz)`);
}

export const mailSeeder: Seeder = async ({ db, members }) => {
  // Threads written before participants existed (or by other seeds) get theirs from their messages.
  await db.execute(sql`
    INSERT INTO message_participants (thread_id, member_id)
    SELECT thread_id, sender_id FROM messages UNION SELECT thread_id, recipient_id FROM messages
    ON CONFLICT DO NOTHING`);

  const demo = members.ids.demo;
  const admin = members.ids.admin;
  const [me] = await rowsOf<{ sponsor_id: number | null }>(db, sql`SELECT sponsor_id FROM members WHERE id = ${demo}`);
  const sponsor = me?.sponsor_id && Number(me.sponsor_id) !== admin ? Number(me.sponsor_id) : null;
  const team = (await rowsOf<{ id: number }>(db, sql`SELECT id FROM members WHERE sponsor_id = ${demo} AND verified AND status = 1 ORDER BY id LIMIT 3`)).map((r) =>
    Number(r.id),
  );

  if (sponsor) {
    const t = await thread(db, 'Plan for the next quarter', demo, sponsor, at(2026, 10, 2, 14));
    await message(db, t, demo, sponsor, '<p>Hi! Could we go through my <strong>plan for the next quarter</strong> on a call this week?</p>', at(2026, 10, 2, 14), { read: true });
    await message(db, t, sponsor, demo, '<p>Of course. Thursday at 5 pm works for me; bring your team numbers.</p>', at(2026, 10, 3, 10));
  }
  if (team.length) {
    const t = await thread(db, 'Welcome to the team', demo, team[0], at(2026, 9, 20, 9));
    await message(
      db,
      t,
      demo,
      team[0],
      '<p>Welcome! Here is what to do in your first week:</p><ul><li>Finish your profile</li><li>Watch the intro video</li><li>Book a call with me</li></ul>',
      at(2026, 9, 20, 9),
      { read: true },
    );
    const old = await thread(db, 'Old meeting notes', demo, team[team.length - 1], at(2026, 6, 5, 16));
    await message(db, old, demo, team[team.length - 1], '<p>Notes of our June meeting, no longer needed.</p>', at(2026, 6, 5, 16), { read: true, senderBinned: true });
    await message(db, old, team[team.length - 1], demo, '<p>Thanks, got them.</p>', at(2026, 6, 6, 8), { read: true, recipientBinned: true });
  }
  const c = await thread(db, 'Invoice address', demo, admin, at(2026, 11, 2, 11));
  await message(db, c, demo, admin, '<p>Please put my company name on my next invoices.</p>', at(2026, 11, 2, 11), { read: true });
};
