/**
 * The property both databases are held to (tests/server and tests/server-pg): after any sequence of CRM
 * writes (leads added one or several at a time, edited, moved along the pipeline, converted to contacts,
 * deleted and restored, removed for good; contacts added, deleted and restored), the CRM dashboard's
 * maintained figures (live leads and their summed estimated value per status, live open leads per
 * follow-up day, live contacts) equal what the leads and contacts say when counted from scratch; and, after
 * those and after writes only the dashboard shows (meetings and their invitees, names, sales), the dashboard's
 * kept answers equal the answers computed afresh.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Database } from '../../server/db/client';
import type { MemberRow } from '../../server/db/schema';
import { moveLead } from '../../server/lib/crm-leads';
import { convertLead } from '../../server/lib/crm-people';
import { LEAD_STATUSES } from '../../src/schemas/crm.schema';
import * as money from '../../server/lib/money';
import { table, type Table } from './maintained-figures';
import { crmDashboardJson, crmDashboardQuery } from '../../server/lib/crm-dashboard';

/** The time zone the dashboards are read in (one whose days do not begin at UTC midnight). */
const TZ = 'America/Chicago';

const FIRST_DAY = Date.UTC(2026, 10, 1);
const dayOf = (d: number | null) => (d === null ? null : new Date(FIRST_DAY + d * 86_400_000).toISOString().slice(0, 10));

type Op =
  | { kind: 'add'; who: number; n: number; status: number; cents: number; day: number | null }
  | { kind: 'edit'; who: number; pick: number; status: number | null; cents: number | null; day: number | null | 'keep' }
  | { kind: 'move'; who: number; pick: number; status: number }
  | { kind: 'touch'; who: number }
  | { kind: 'revalue'; who: number; cents: number }
  | { kind: 'delete'; who: number; pick: number }
  | { kind: 'restore'; who: number; pick: number }
  | { kind: 'purge'; who: number; pick: number }
  | { kind: 'convert'; who: number; pick: number }
  | { kind: 'contact'; who: number; n: number }
  | { kind: 'drop contact'; who: number; pick: number }
  | { kind: 'restore contact'; who: number; pick: number }
  // Writes only the dashboard's kept answer follows (migration 0047): meetings and their invitees, names, sales.
  | { kind: 'meeting'; who: number; hours: number; pick: number; lead: boolean }
  | { kind: 'drop meeting'; who: number; pick: number }
  | { kind: 'rename'; who: number; pick: number; lead: boolean }
  | { kind: 'sale'; who: number; pick: number; cents: number; drop: boolean };

const who = fc.nat({ max: 1000 });
const pick = fc.nat({ max: 1000 });
const status = fc.nat({ max: LEAD_STATUSES.length - 1 });
const cents = fc.integer({ min: 0, max: 500_000 });
const day = fc.option(fc.nat({ max: 40 }), { nil: null });
export const operation: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), who, n: fc.integer({ min: 1, max: 3 }), status, cents, day }),
  fc.record({
    kind: fc.constant('edit' as const),
    who,
    pick,
    status: fc.option(status, { nil: null }),
    cents: fc.option(cents, { nil: null }),
    day: fc.oneof(day, fc.constant('keep' as const)),
  }),
  fc.record({ kind: fc.constant('move' as const), who, pick, status }),
  fc.record({ kind: fc.constant('touch' as const), who }),
  fc.record({ kind: fc.constant('revalue' as const), who, cents: fc.integer({ min: -5_000, max: 5_000 }) }),
  fc.record({ kind: fc.constant('delete' as const), who, pick }),
  fc.record({ kind: fc.constant('restore' as const), who, pick }),
  fc.record({ kind: fc.constant('purge' as const), who, pick }),
  fc.record({ kind: fc.constant('convert' as const), who, pick }),
  fc.record({ kind: fc.constant('contact' as const), who, n: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('drop contact' as const), who, pick }),
  fc.record({ kind: fc.constant('restore contact' as const), who, pick }),
  fc.record({ kind: fc.constant('meeting' as const), who, hours: fc.integer({ min: -30, max: 200 }), pick, lead: fc.boolean() }),
  fc.record({ kind: fc.constant('drop meeting' as const), who, pick }),
  fc.record({ kind: fc.constant('rename' as const), who, pick, lead: fc.boolean() }),
  fc.record({ kind: fc.constant('sale' as const), who, pick, cents, drop: fc.boolean() }),
);

const value = (c: number) => money.format(BigInt(c) * 100n);
/** Refusals (a lead gone meanwhile, one still referred to) are outcomes too; anything else is a failure. */
const refused = (e: unknown) =>
  typeof e === 'object' && e !== null && ('statusCode' in e || (e as { code?: string }).code === '23503' || (e as { cause?: { code?: string } }).cause?.code === '23503');

let serial = 0;

/** Apply one operation; `pool` holds the members operations pick from (by index modulo its size). */
export async function apply(database: Database, pool: MemberRow[], op: Op): Promise<void> {
  const db = database.db;
  const member = pool[op.who % pool.length];
  const m = member.id;
  /** The `pick`-th lead of the member (live ones, or deleted ones), by id. */
  const leadId = async (p: number, deleted = false) => {
    const rows = await database.rows<{ id: number }>(
      sql`SELECT id FROM crm_leads WHERE member_id = ${m} AND (deleted_at IS NOT NULL) = ${deleted} ORDER BY id`,
    );
    return rows.length ? Number(rows[p % rows.length].id) : null;
  };
  const contactId = async (p: number, deleted = false) => {
    const rows = await database.rows<{ id: number }>(
      sql`SELECT id FROM crm_contacts WHERE member_id = ${m} AND (deleted_at IS NOT NULL) = ${deleted} ORDER BY id`,
    );
    return rows.length ? Number(rows[p % rows.length].id) : null;
  };
  try {
    switch (op.kind) {
      case 'add': {
        const rows = Array.from({ length: op.n }, (_, i) => {
          const st = LEAD_STATUSES[(op.status + i) % LEAD_STATUSES.length];
          return sql`(${m}, ${`Prop ${process.pid} ${++serial}`}, 'other', ${st}, ${value(op.cents + i)}::numeric, ${dayOf(op.day === null ? null : op.day + i)}::date)`;
        });
        await database.rows(
          sql`INSERT INTO crm_leads (member_id, name, source, status, estimated_value, next_follow_up) VALUES ${sql.join(rows, sql`, `)}`,
        );
        return;
      }
      case 'edit': {
        const id = await leadId(op.pick);
        if (id === null) return;
        const sets = [sql`updated_at = now()`];
        if (op.status !== null) sets.push(sql`status = ${LEAD_STATUSES[op.status]}`);
        if (op.cents !== null) sets.push(sql`estimated_value = ${value(op.cents)}::numeric`);
        if (op.day !== 'keep') sets.push(sql`next_follow_up = ${dayOf(op.day)}::date`);
        await database.rows(sql`UPDATE crm_leads SET ${sql.join(sets, sql`, `)} WHERE id = ${id}`);
        return;
      }
      case 'move': {
        const id = await leadId(op.pick);
        if (id !== null) await moveLead(db, member, id, { status: LEAD_STATUSES[op.status], lost_reason: 'property' } as never);
        return;
      }
      case 'touch':
        // Changes no figure: only the time of the last change, for every lead of the member at once.
        await database.rows(sql`UPDATE crm_leads SET updated_at = now() WHERE member_id = ${m}`);
        return;
      case 'revalue':
        // Several leads in one statement, some of them deleted, none below zero.
        await database.rows(
          sql`UPDATE crm_leads SET estimated_value = greatest(estimated_value + ${value(op.cents)}::numeric, 0) WHERE member_id = ${m} AND id % 3 = ${Math.abs(op.cents) % 3}`,
        );
        return;
      case 'delete': {
        const id = await leadId(op.pick);
        if (id !== null) await database.rows(sql`UPDATE crm_leads SET deleted_at = now() WHERE id = ${id}`);
        return;
      }
      case 'restore': {
        const id = await leadId(op.pick, true);
        if (id !== null) await database.rows(sql`UPDATE crm_leads SET deleted_at = NULL WHERE id = ${id}`);
        return;
      }
      case 'purge': {
        const id = await leadId(op.pick, op.pick % 2 === 0);
        if (id !== null) await database.rows(sql`DELETE FROM crm_leads WHERE id = ${id}`);
        return;
      }
      case 'convert': {
        const id = await leadId(op.pick);
        if (id !== null) await convertLead(db, member, id);
        return;
      }
      case 'contact': {
        const rows = Array.from({ length: op.n }, () => sql`(${m}, ${`Prop ${process.pid} ${++serial}`})`);
        await database.rows(sql`INSERT INTO crm_contacts (member_id, name) VALUES ${sql.join(rows, sql`, `)}`);
        return;
      }
      case 'drop contact': {
        const id = await contactId(op.pick);
        if (id !== null) await database.rows(sql`UPDATE crm_contacts SET deleted_at = now() WHERE id = ${id}`);
        return;
      }
      case 'restore contact': {
        const id = await contactId(op.pick, true);
        if (id !== null) await database.rows(sql`UPDATE crm_contacts SET deleted_at = NULL WHERE id = ${id}`);
        return;
      }
      case 'meeting': {
        // Earlier today, later today or on a later day; one lead or contact invited where the member has one.
        const startsAt = new Date(Date.now() + op.hours * 3_600_000).toISOString();
        const [mt] = await database.rows<{ id: number }>(
          sql`INSERT INTO crm_meetings (member_id, title, starts_at, time_zone) VALUES (${m}, ${`Meeting ${++serial}`}, ${startsAt}::timestamptz, ${TZ}) RETURNING id`,
        );
        const invited = op.lead ? await leadId(op.pick) : await contactId(op.pick);
        if (invited !== null) {
          await database.rows(
            sql`INSERT INTO crm_meeting_invitees (meeting_id, member_id, lead_id, contact_id) VALUES (${mt.id}, ${m}, ${op.lead ? invited : null}, ${op.lead ? null : invited})`,
          );
        }
        return;
      }
      case 'drop meeting': {
        const rows = await database.rows<{ id: number }>(sql`SELECT id FROM crm_meetings WHERE member_id = ${m} AND deleted_at IS NULL ORDER BY id`);
        if (rows.length) await database.rows(sql`UPDATE crm_meetings SET deleted_at = now() WHERE id = ${rows[op.pick % rows.length].id}`);
        return;
      }
      case 'rename': {
        const id = op.lead ? await leadId(op.pick) : await contactId(op.pick);
        if (id !== null) await database.rows(sql`UPDATE ${sql.raw(op.lead ? 'crm_leads' : 'crm_contacts')} SET name = ${`Renamed ${++serial}`} WHERE id = ${id}`);
        return;
      }
      case 'sale': {
        if (op.drop) {
          const rows = await database.rows<{ id: number }>(sql`SELECT id FROM crm_sales WHERE member_id = ${m} AND deleted_at IS NULL ORDER BY id`);
          if (rows.length) await database.rows(sql`UPDATE crm_sales SET deleted_at = now() WHERE id = ${rows[op.pick % rows.length].id}`);
          return;
        }
        const contact = await contactId(op.pick);
        if (contact !== null) {
          await database.rows(
            sql`INSERT INTO crm_sales (member_id, contact_id, contact_name, total) VALUES (${m}, ${contact}, 'Prop', ${value(op.cents)}::numeric)`,
          );
        }
        return;
      }
    }
  } catch (e) {
    if (!refused(e)) throw e;
  }
}

/** Every maintained CRM figure next to its recount, as non-zero values keyed by member (and status, day). */
export async function crmFiguresAndRecount(database: Database): Promise<Array<{ figure: string; kept: Table; recounted: Table }>> {
  const pairs: Array<[string, ReturnType<typeof sql>, ReturnType<typeof sql>]> = [
    [
      'leads per status',
      sql`SELECT member_id || ' ' || status AS k, leads AS v FROM crm_lead_figures`,
      sql`SELECT member_id || ' ' || status AS k, count(*)::int AS v FROM crm_leads WHERE deleted_at IS NULL GROUP BY 1`,
    ],
    [
      'estimated value per status',
      sql`SELECT member_id || ' ' || status AS k, value::text AS v FROM crm_lead_figures`,
      sql`SELECT member_id || ' ' || status AS k, sum(estimated_value)::text AS v FROM crm_leads WHERE deleted_at IS NULL GROUP BY 1`,
    ],
    [
      'open leads per follow-up day',
      sql`SELECT member_id || ' ' || day AS k, leads AS v FROM crm_follow_up_days`,
      sql`SELECT member_id || ' ' || next_follow_up AS k, count(*)::int AS v FROM crm_leads
          WHERE deleted_at IS NULL AND next_follow_up IS NOT NULL AND status NOT IN ('won', 'lost') GROUP BY 1`,
    ],
    [
      'contacts',
      sql`SELECT member_id::text AS k, contacts AS v FROM crm_figures`,
      sql`SELECT member_id::text AS k, count(*)::int AS v FROM crm_contacts WHERE deleted_at IS NULL GROUP BY 1`,
    ],
  ];
  const out = [];
  for (const [figure, kept, recounted] of pairs) out.push({ figure, kept: await table(database, kept), recounted: await table(database, recounted) });
  return out;
}

/**
 * The property itself: the figures match before anything happens (the seeded CRM of `demo` included), and
 * after each random sequence of writes, applied `together` at a time (concurrent writers of the same figures
 * neither lose updates nor deadlock).
 */
export async function holdsCrmFiguresToRecount(database: Database, together: number, numRuns = 15): Promise<void> {
  const pool = (await database.rows<MemberRow>(
    sql`(SELECT * FROM members WHERE username = 'demo') UNION ALL (SELECT * FROM members WHERE username <> 'demo' AND path <> '' ORDER BY id LIMIT 2)`,
  )).map((r) => ({ ...r, id: Number(r.id) }));
  expect(pool.length).toBe(3);
  let keptReads = 0;
  const check = async () => {
    for (const f of await crmFiguresAndRecount(database)) expect(f.kept, f.figure).toEqual(f.recounted);
    keptReads += await crmDashboardsAgree(database, pool);
  };
  await check();
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 25 }), async (ops) => {
      for (let i = 0; i < ops.length; i += together) await Promise.all(ops.slice(i, i + together).map((op) => apply(database, pool, op)));
      await check();
    }),
    { numRuns },
  );
  // Members the writes left alone were answered from their kept answers (the comparison above held those too).
  expect(keptReads).toBeGreaterThan(0);
}

/**
 * The CRM dashboard's kept answers (migration 0047) against the answers computed afresh, for every member of the
 * pool: each answer is read as GET /api/crm/dashboard reads it (the kept one while it counts), then every kept
 * answer is made not to count (the epoch raised) and the answers are computed again. Answers how many of the
 * reads were kept ones.
 */
async function crmDashboardsAgree(database: Database, pool: MemberRow[]): Promise<number> {
  const query = crmDashboardQuery(database.db);
  const now = new Date();
  const read: string[] = [];
  let kept = 0;
  for (const member of pool) {
    const r = await crmDashboardJson(query, member, TZ, now);
    if (r.kept) kept++;
    read.push(r.answer);
  }
  await database.rows(sql`UPDATE member_kept_epoch SET epoch = epoch + 1`);
  for (const [i, member] of pool.entries()) {
    const fresh = await crmDashboardJson(query, member, TZ, now);
    expect(fresh.kept).toBe(false);
    expect(JSON.parse(read[i]), `CRM dashboard of member ${member.id}`).toEqual(JSON.parse(fresh.answer));
  }
  return kept;
}
