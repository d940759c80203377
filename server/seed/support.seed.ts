/**
 * Support and stories demo data: the company runs tickets (ticketing_system on); demo has a ticket in every
 * status, each with its conversation and status trail; a few more articles, videos (one on YouTube, one a
 * plain video file) and events, past and upcoming. Everything dated from fixed days.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../lib/ledger';
import type { Seeder } from '../seed';
import type { TicketStatus } from '../../src/schemas/support.schema';

const HOUR = 3_600_000;
const at = (y: number, m: number, d: number, h = 9) => new Date(Date.UTC(y, m - 1, d, h));

type Step = { author: 'member' | 'support'; body: string; to: TicketStatus };
const TICKETS: Array<{ subject: string; category: string; priority: string; opened: Date; steps: Step[] }> = [
  {
    subject: 'Payout not received yet',
    category: 'payments',
    priority: 'high',
    opened: at(2026, 11, 20, 10),
    steps: [{ author: 'member', body: 'My payout approved on 18 November has not reached my bank account yet.', to: 'open' }],
  },
  {
    subject: 'Cannot upload my passport',
    category: 'technical',
    priority: 'normal',
    opened: at(2026, 11, 12, 15),
    steps: [
      { author: 'member', body: 'The identity page says the file is not accepted.', to: 'open' },
      { author: 'support', body: 'Could you tell us the type and size of the file you tried? JPG, PNG or PDF up to 10 MB are accepted.', to: 'awaiting_member' },
    ],
  },
  {
    subject: 'How are binary pairs counted?',
    category: 'account',
    priority: 'low',
    opened: at(2026, 11, 2, 9),
    steps: [
      { author: 'member', body: 'I have more volume on the left leg. How is the pairing bonus worked out?', to: 'open' },
      { author: 'support', body: 'Pairs are made from the smaller leg every day at midnight UTC; the rest carries forward. Your binary history shows each run.', to: 'answered' },
    ],
  },
  {
    subject: 'Wrong size in my last order',
    category: 'orders',
    priority: 'normal',
    opened: at(2026, 10, 14, 11),
    steps: [
      { author: 'member', body: 'Order 1042 came with the wrong size.', to: 'open' },
      { author: 'support', body: 'We are sending the right size today at no cost; keep the other one.', to: 'resolved' },
    ],
  },
  {
    subject: 'Change of sponsor',
    category: 'other',
    priority: 'low',
    opened: at(2026, 9, 3, 16),
    steps: [
      { author: 'member', body: 'Can my sponsor be changed?', to: 'open' },
      { author: 'support', body: 'A sponsor cannot be changed once a member is placed in the tree.', to: 'answered' },
      { author: 'member', body: 'Understood, thank you.', to: 'closed' },
    ],
  },
];

const MORE_ARTICLES = [
  {
    title: 'Five habits of growing teams',
    description: 'What the leaders who grew fastest this year have in common.',
    content:
      '<h2>Habits that build</h2><ol><li>A weekly team call.</li><li>A welcome message to every new member within a day.</li><li>Clear goals for the month.</li>' +
      '<li>Recognition in public.</li><li>Time to learn the products.</li></ol><p>Read the <a href="https://upline.example/leaders">leaders’ stories</a>.</p>',
    image: '/images/stories/summit.svg',
    at: at(2026, 11, 6),
  },
  {
    title: 'Winter promotion: double points',
    description: 'Every order placed in December counts twice towards your rank.',
    content: '<p>From <strong>1 December</strong> to <strong>31 December</strong> every personal order counts <em>twice</em> towards rank qualification.</p>',
    image: null,
    at: at(2026, 11, 18),
  },
];

const MORE_VIDEOS = [
  { title: 'Welcome from our founders', description: 'Why the company exists and where it is going.', url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', at: at(2026, 11, 3) },
  { title: 'Setting up your payout method', description: 'Bank transfer or wallet, step by step.', url: 'https://media.upline.example/videos/payout-method.mp4', at: at(2026, 11, 15) },
];

const MORE_EVENTS = [
  { title: 'December product launch', venue: 'Online', about: 'The new winter range, live with the product team.\nQuestions welcome in the chat.', tag: 'webinar', start: at(2026, 12, 10, 18), hours: 2 },
  { title: 'Year-end awards night', venue: 'Lisbon, Portugal; Hotel Tivoli, ballroom', about: 'Dinner, awards and the year in review.', tag: 'meeting', start: at(2026, 12, 19, 19), hours: 5 },
  { title: 'Autumn welcome call', venue: 'Online', about: 'A call for everyone who joined in the autumn.', tag: 'webinar', start: at(2026, 11, 4, 18), hours: 1 },
];

async function seedTickets(db: Db, memberId: number) {
  for (const t of TICKETS) {
    const final = t.steps[t.steps.length - 1].to;
    const last = new Date(t.opened.getTime() + (t.steps.length - 1) * 20 * HOUR);
    const [row] = await rowsOf<{ id: number }>(
      db,
      sql`INSERT INTO support_tickets (member_id, category, priority, subject, status, created_at, updated_at)
          VALUES (${memberId}, ${t.category}, ${t.priority}, ${t.subject}, ${final}, ${t.opened.toISOString()}::timestamptz, ${last.toISOString()}::timestamptz) RETURNING id`,
    );
    let from: TicketStatus | null = null;
    for (const [i, s] of t.steps.entries()) {
      const when = new Date(t.opened.getTime() + i * 20 * HOUR).toISOString();
      await db.execute(sql`INSERT INTO support_messages (ticket_id, author, body, created_at) VALUES (${row.id}, ${s.author}, ${s.body}, ${when}::timestamptz)`);
      if (from !== s.to) {
        await db.execute(sql`INSERT INTO support_ticket_events (ticket_id, from_status, to_status, actor, created_at) VALUES (${row.id}, ${from}, ${s.to}, ${s.author}, ${when}::timestamptz)`);
        from = s.to;
      }
    }
  }
}

export const supportSeeder: Seeder = async ({ db, members }) => {
  await db.execute(sql`UPDATE settings SET value = jsonb_set(value::jsonb, '{ticketing_system}', 'true'::jsonb) WHERE key = 'modules'`);
  await seedTickets(db, members.ids.demo);

  for (const a of MORE_ARTICLES) {
    await db.execute(sql`INSERT INTO stories (kind, title, description, content, image_preview, created_at, updated_at)
        VALUES ('article', ${a.title}, ${a.description}, ${a.content}, ${a.image}, ${a.at.toISOString()}::timestamptz, ${a.at.toISOString()}::timestamptz)`);
  }
  for (const v of MORE_VIDEOS) {
    await db.execute(sql`INSERT INTO stories (kind, title, description, url, created_at, updated_at)
        VALUES ('video', ${v.title}, ${v.description}, ${v.url}, ${v.at.toISOString()}::timestamptz, ${v.at.toISOString()}::timestamptz)`);
  }
  for (const e of MORE_EVENTS) {
    const end = new Date(e.start.getTime() + e.hours * HOUR);
    await db.execute(sql`INSERT INTO events (title, venue, about, tag, start_date, end_date, updated_at)
        VALUES (${e.title}, ${e.venue}, ${e.about}, ${e.tag}, ${e.start.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz, ${at(2026, 10, 30).toISOString()}::timestamptz)`);
  }
};
