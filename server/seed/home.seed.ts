/**
 * Home demo data: articles and videos, events, messages to `demo` (some unread), the read marks that
 * leave the newest orders and payouts of each member as notifications, when every ranked member
 * reached each rank, monthly recruitment targets and a few special members.
 *
 * Deterministic: fixed dates and a seeded PRNG. Runs after the members and the wallet data exist;
 * an already seeded database (stories present) is left alone.
 */
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { settings } from '../db/schema';
import { events, messageThreads, messages, recruitmentTargets, stories } from '../db/schema-home';
import { rowsOf } from '../lib/ledger';
import { DEFAULT_HOME_SETTINGS, type HomeSettings } from '../lib/home';
import { Rng } from './prng';
import type { Seeder } from '../seed';

const DAY = 86_400_000;
/** Nothing is dated after the end of the seeded wallet data. */
const SEEDED_UNTIL = Date.UTC(2026, 9, 31, 12);
const at = (y: number, m: number, d: number, h = 9, min = 0) => new Date(Date.UTC(y, m - 1, d, h, min));

export const HOME_SETTINGS: HomeSettings = { ...DEFAULT_HOME_SETTINGS, affiliate_products_category: 'affiliate-products' };

const ARTICLES: Array<{ title: string; description: string; content: string; image: string; at: Date }> = [
  {
    title: 'Welcome to your new back office',
    description: 'A quick tour of the dashboard, your wallet and your team.',
    content:
      '<h2>Everything in one place</h2><p>Your <strong>dashboard</strong> shows your earnings, wallet balance, rank and the newest members of your team.</p>' +
      '<ul><li>Check your wallet statement any time.</li><li>Follow your binary legs from the <em>Binary</em> tab.</li><li>Read the latest news here.</li></ul>',
    image: '/images/stories/welcome.svg',
    at: at(2026, 1, 12),
  },
  {
    title: 'How the binary bonus is paid',
    description: 'Pairs, carry forward and the daily capping limit explained.',
    content:
      '<p>Every <strong>100 PV</strong> on your weaker leg pairs with the same volume on your stronger leg. Volume that does not pair is carried forward.</p>' +
      '<blockquote>Your first pair needs a 2:1 ratio; after that, pairs are 1:1.</blockquote>' +
      '<p>See the <a href="/member/binary-history">binary history</a> for every pairing run.</p>',
    image: '/images/stories/binary.svg',
    at: at(2026, 3, 4),
  },
  {
    title: 'Spring product launch',
    description: 'Three new wellness products join the catalogue this month.',
    content:
      '<h3>New in the catalogue</h3><ol><li>Plant Protein 1 kg</li><li>Green Tea Extract</li><li>Skin Care Set</li></ol>' +
      '<p>Each product carries business volume for your rank qualification.</p>',
    image: '/images/stories/launch.svg',
    at: at(2026, 4, 20),
  },
  {
    title: 'Rank advancement: what counts',
    description: 'Direct referrals, personal volume and team volume — the three criteria.',
    content:
      '<p>To reach a rank you need all three: <strong>direct referrals</strong>, <strong>personal volume</strong> and <strong>team volume</strong>.</p>' +
      '<table><thead><tr><th scope="col">Rank</th><th scope="col">Referrals</th></tr></thead><tbody><tr><td>Bronze</td><td>1</td></tr><tr><td>Silver</td><td>2</td></tr></tbody></table>',
    image: '/images/stories/ranks.svg',
    at: at(2026, 6, 8),
  },
  {
    title: 'Getting paid: payouts and KYC',
    description: 'Verify your identity once and request payouts from your wallet.',
    content:
      '<p>Payouts need an approved identity verification. Upload your documents under <a href="/member/kyc">KYC</a>, then request a payout from your wallet.</p>' +
      '<p>Questions? Write to <a href="mailto:support@upline.example">support@upline.example</a>.</p>',
    image: '/images/stories/payouts.svg',
    at: at(2026, 8, 17),
  },
  {
    title: 'Autumn leadership summit recap',
    description: 'Highlights, awards and the plan for next year.',
    content:
      '<p>Thank you to everyone who joined us in Madrid. Congratulations to our new <strong>Diamond</strong> leaders!</p>' +
      '<figure><img src="/images/stories/summit.svg" alt="Summit stage" width="640" height="360"><figcaption>The summit stage</figcaption></figure>',
    image: '/images/stories/summit.svg',
    at: at(2026, 10, 5),
  },
];

const VIDEOS: Array<{ title: string; description: string; url: string; image: string; at: Date }> = [
  { title: 'Your first week', description: 'Five steps to get started.', url: 'https://videos.upline.example/first-week', image: '/images/stories/video-first-week.svg', at: at(2026, 2, 2) },
  { title: 'Sharing your referral link', description: 'Invite people the right way.', url: 'https://videos.upline.example/referral-link', image: '/images/stories/video-referral.svg', at: at(2026, 5, 11) },
  { title: 'Reading the genealogy', description: 'Find your way around your tree.', url: 'https://videos.upline.example/genealogy', image: '/images/stories/video-genealogy.svg', at: at(2026, 7, 23) },
  { title: 'Product spotlight: Skin Care Set', description: 'What is inside and who it is for.', url: 'https://videos.upline.example/skin-care', image: '/images/stories/video-skin-care.svg', at: at(2026, 9, 30) },
];

const EVENTS: Array<{ title: string; venue: string; about: string; tag: string; start: Date; days: number }> = [
  { title: 'New year kick-off webinar', venue: 'Online', about: 'Goals and promotions for the year ahead.', tag: 'webinar', start: at(2026, 1, 15, 17), days: 0 },
  { title: 'Business builder workshop', venue: 'Austin, Texas', about: 'A full day on building a balanced team.', tag: 'training', start: at(2026, 4, 18, 9), days: 1 },
  { title: 'Autumn leadership summit', venue: 'Madrid, Spain', about: 'Two days of training, awards and networking.', tag: 'summit', start: at(2026, 10, 2, 9), days: 2 },
  { title: 'Product training: wellness range', venue: 'Online', about: 'Everything about the new wellness products.', tag: 'webinar', start: at(2027, 1, 20, 17), days: 0 },
  { title: 'Spring regional meeting', venue: 'Guadalajara, Mexico', about: 'Meet the leaders of your region.', tag: 'meeting', start: at(2027, 3, 13, 10), days: 0 },
  { title: 'Rank advancement bootcamp', venue: 'Manchester, United Kingdom', about: 'Plan your next rank with experienced leaders.', tag: 'training', start: at(2027, 5, 22, 9), days: 1 },
  { title: 'Annual convention', venue: 'Orlando, Florida', about: 'The year’s biggest gathering: keynotes, launches and recognition.', tag: 'convention', start: at(2027, 9, 9, 9), days: 3 },
];

/** Messages to demo: [subject, from ('admin' | 'sponsor' | 'downline'), body, date, read]. */
const DEMO_MESSAGES: Array<[string, 'admin' | 'downline', string, Date, boolean]> = [
  ['Welcome aboard', 'admin', 'Welcome to Upline! Your back office is ready. Start with the dashboard tour.', at(2025, 1, 3), true],
  ['Your KYC is approved', 'admin', 'Good news: your identity documents were approved. You can now request payouts.', at(2025, 2, 10), true],
  ['Question about my order', 'downline', 'Hi Dana, my starter kit has not arrived yet. Who should I ask?', at(2026, 9, 14, 15), true],
  ['Thank you!', 'downline', 'Thanks for the help with my first order. Looking forward to the summit!', at(2026, 10, 6, 11), false],
  ['Summit photos', 'admin', 'The photos of the autumn leadership summit are online in the stories section.', at(2026, 10, 12, 8), false],
  ['Team call on Thursday', 'downline', 'Can we move our team call to Thursday at 6 pm?', at(2026, 10, 20, 19), false],
  ['Payout schedule update', 'admin', 'From November, approved payouts are sent every Tuesday and Friday.', at(2026, 10, 28, 10), false],
];

async function alreadySeeded(db: Db): Promise<boolean> {
  const [r] = await rowsOf(db, sql`SELECT 1 FROM stories LIMIT 1`);
  return !!r;
}

/** Seed the Home data in its own transaction (an already seeded database is left alone). */
export async function seedHome(database: Database, config: Config): Promise<void> {
  await database.db.transaction(async (tx) => seedHomeInto(tx as unknown as Db, config, new Rng(0x40e5eed)));
}

/** The same, as a step of the main seed (inside its transaction). */
export const homeSeeder: Seeder = (ctx) => seedHomeInto(ctx.db, ctx.config, ctx.rng('home'));

export async function seedHomeInto(db: Db, _config: Config, rng: Rng): Promise<void> {
  void _config;
  if (await alreadySeeded(db)) return;

  await db.insert(settings).values({ key: 'home', value: HOME_SETTINGS }).onConflictDoNothing();

  await db.insert(stories).values([
    ...ARTICLES.map((a) => ({
      kind: 'article' as const,
      title: a.title,
      description: a.description,
      content: a.content,
      url: null,
      imagePreview: a.image,
      createdAt: a.at,
      updatedAt: a.at,
    })),
    ...VIDEOS.map((v) => ({
      kind: 'video' as const,
      title: v.title,
      description: v.description,
      content: '',
      url: v.url,
      imagePreview: v.image,
      createdAt: v.at,
      updatedAt: v.at,
    })),
  ]);

  await db.insert(events).values(
    EVENTS.map((e) => ({
      title: e.title,
      venue: e.venue,
      about: e.about,
      imagePreview: `/images/events/${e.tag}.svg`,
      tag: e.tag,
      startDate: e.start,
      endDate: new Date(e.start.getTime() + e.days * DAY + 8 * 3_600_000),
      // Announced a month ahead (and never later than the end of the seeded data).
      updatedAt: new Date(Math.min(e.start.getTime() - 30 * DAY, SEEDED_UNTIL)),
    })),
  );

  // Company-wide monthly recruitment targets for 2025–2027, and demo's own (higher) target for a few months.
  const targets: Array<typeof recruitmentTargets.$inferInsert> = [];
  for (let y = 2025; y <= 2027; y++) {
    for (let m = 1; m <= 12; m++) targets.push({ memberId: null, month: `${y}-${String(m).padStart(2, '0')}-01`, requiredCount: rng.int(2, 5) });
  }
  const [demo] = await rowsOf<{ id: number; sponsor_id: number | null }>(db, sql`SELECT id, sponsor_id FROM members WHERE lower(username) = 'demo'`);
  if (demo) {
    for (const month of ['2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01']) targets.push({ memberId: Number(demo.id), month, requiredCount: rng.int(4, 8) });
  }
  await db.insert(recruitmentTargets).values(targets);

  // When each ranked member reached each rank up to the current one: lower ranks some weeks earlier.
  await db.execute(sql`
    INSERT INTO rank_achievements (member_id, rank_id, achieved_at)
    SELECT m.id, r.id, GREATEST(m.created_at, m.rank_achieved_at - make_interval(days => (cr.sort_order - r.sort_order) * 21))
    FROM members m
    JOIN ranks cr ON cr.id = m.rank_id
    JOIN ranks r ON r.sort_order <= cr.sort_order AND r.plan IS NOT DISTINCT FROM cr.plan
    WHERE m.rank_achieved_at IS NOT NULL`);

  // Special members: the three strongest teams below demo.
  await db.execute(sql`
    INSERT INTO special_members (member_id, since)
    SELECT id, created_at + interval '90 days' FROM members
    WHERE lower(username) NOT IN ('admin', 'demo') AND role_id = 3 AND status = 1
    ORDER BY tv DESC, id LIMIT 3`);

  // Notifications: everything but each member's newest order and payout change has been read; demo has
  // three unread orders and two unread payout changes.
  if (demo) {
    for (const [kind, table, column] of [
      ['order', 'orders', 'created_at'],
      ['payout', 'payout_requests', 'updated_at'],
    ] as const) {
      const keep = kind === 'order' ? 3 : 2;
      await db.execute(sql`
        INSERT INTO notification_marks (member_id, kind, read_before)
        SELECT member_id, ${kind}, at FROM (
          SELECT member_id, ${sql.raw(column)} AS at,
                 row_number() OVER (PARTITION BY member_id ORDER BY ${sql.raw(column)} DESC, id DESC) AS rn
          FROM ${sql.raw(table)}
        ) t
        WHERE rn = CASE WHEN member_id = ${Number(demo.id)} THEN ${keep + 1} ELSE 2 END`);
    }
  }

  // Messages to demo from the company and from members of its team.
  const [admin] = await rowsOf<{ id: number }>(db, sql`SELECT id FROM members WHERE role_id = 1 ORDER BY id LIMIT 1`);
  if (!demo || !admin) return;
  const team = await rowsOf<{ id: number }>(db, sql`SELECT id FROM members WHERE sponsor_id = ${Number(demo.id)} AND verified ORDER BY id LIMIT 5`);
  for (const [subject, from, body, when, read] of DEMO_MESSAGES) {
    const senderId = from === 'admin' || !team.length ? Number(admin.id) : Number(rng.pick(team).id);
    const [thread] = await db.insert(messageThreads).values({ subject, createdAt: when }).returning({ id: messageThreads.id });
    await db.insert(messages).values({
      threadId: thread.id,
      senderId,
      recipientId: Number(demo.id),
      body,
      createdAt: when,
      readAt: read ? new Date(when.getTime() + 3_600_000) : null,
    });
    // The question about the order got an answer from demo.
    if (subject === 'Question about my order') {
      await db.insert(messages).values({
        threadId: thread.id,
        senderId: Number(demo.id),
        recipientId: senderId,
        body: 'Hi! Orders ship within five working days; I will ask support to check yours.',
        createdAt: new Date(when.getTime() + 2 * 3_600_000),
        readAt: new Date(when.getTime() + 5 * 3_600_000),
      });
    }
  }
}
