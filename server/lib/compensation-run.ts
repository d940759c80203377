/**
 * The compensation run: pays one plan period (a week, Monday 00:00 UTC) from the volume the database has
 * recorded, through the ledger.
 *
 * - binary: every member whose legs received volume (binary_history volume rows) in the period has its
 *   carried volume matched into pairs (pairing.ts matchPairs); a pairing row records the deduction and the
 *   bonus, the bonus is an earning (binary_bonus) in the member's wallet.
 * - matrix / unilevel: every purchase's personal volume (pv_history rows of the buyer) recorded in the
 *   period pays level commissions (level_commission) to the placement uplines within the matrix depth,
 *   or to the sponsor generations (compensation.ts levelCommissions).
 *
 * Idempotent per period: the run inserts the period's compensation_runs row first, under a lock; a run
 * that finds the row pays nothing. Runs go forward: each pays what was recorded since the previous run's
 * `paid_until` (a run of the week still open covers it up to the moment it ran, the next week's run
 * picks up the rest), and a period before one already paid is refused.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { compensationRuns } from '../db/schema-compensation';
import { binaryHistory } from '../db/schema-wallet';
import type { Plan } from '../../src/schemas/common.schema';
import { levelCommissions, pairingConfig, periodOf, planRules, uplineIds, ymd, type Sale, type Upline } from './compensation';
import { HttpError } from './errors';
import { postEarning, rowsOf, walletSettings, type BonusType } from './ledger';
import * as money from './money';
import type { Units } from './money';
import { matchPairs } from './pairing';
import type { SettingsService } from './settings';

const RUN_LOCK_KEY = 7_345_020;

export interface CompensationRun {
  plan: Plan;
  /** Monday of the period (YYYY-MM-DD). */
  periodStart: string;
  /** Volume recorded before this instant is paid. */
  paidUntil: Date;
  /** True when the period had been paid already (nothing was paid now). */
  alreadyPaid: boolean;
  earnings: number;
  /** Gross of the earnings paid. */
  total: Units;
}

export class PeriodClosedError extends HttpError {
  constructor(message: string) {
    super(409, 'period_closed', message, {});
  }
}

/**
 * Pay the period `planDate` falls in (default: the last week that has ended). A period that has not
 * begun is refused; one still running is paid up to `now`.
 */
export async function runCompensation(
  ctx: { db: Db; settings: SettingsService },
  opts: { planDate?: Date; now?: Date } = {},
): Promise<CompensationRun> {
  const now = opts.now ?? new Date();
  const period = periodOf(opts.planDate ?? new Date(now.getTime() - 7 * 86_400_000));
  if (period.start.getTime() > now.getTime()) throw new PeriodClosedError(`the period starting ${ymd(period.start)} has not begun`);
  const paidUntil = new Date(Math.min(period.end.getTime(), now.getTime()));
  const rules = await planRules(ctx.settings);
  const ws = await walletSettings(ctx.settings);
  const periodStart = ymd(period.start);

  return ctx.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${RUN_LOCK_KEY})`);
    const [latest] = await rowsOf<{ period_start: string; paid_until: Date }>(
      tx,
      sql`SELECT period_start::text AS period_start, paid_until FROM compensation_runs WHERE plan = ${rules.plan} ORDER BY period_start DESC LIMIT 1`,
    );
    const [same] = await rowsOf<{ earnings_count: number; total_paid: string; paid_until: Date }>(
      tx,
      sql`SELECT earnings_count, total_paid, paid_until FROM compensation_runs WHERE plan = ${rules.plan} AND period_start = ${periodStart}`,
    );
    if (same) {
      return { plan: rules.plan, periodStart, paidUntil: new Date(same.paid_until), alreadyPaid: true, earnings: same.earnings_count, total: money.parse(String(same.total_paid)) };
    }
    if (latest && latest.period_start > periodStart) throw new PeriodClosedError(`the period starting ${latest.period_start} is already paid; earlier periods are closed`);
    const from = latest ? new Date(latest.paid_until) : period.start;

    const paid: { gross: Units }[] = [];
    const pay = async (memberId: number, bonusType: BonusType, gross: Units, at: Date, extra: { level?: number; fromMemberId?: number } = {}) => {
      const r = await postEarning(tx, { memberId, bonusType, gross, createdAt: at, ...extra }, ws);
      paid.push({ gross });
      return r.earningId;
    };

    if (rules.plan === 'binary') {
      await payBinary(tx, { from, until: paidUntil, periodStart, cfg: pairingConfig(ws.binary), pay });
    } else {
      const sales = await rowsOf<{ member_id: number; pv: string; created_at: Date; path: string; sponsor_path: string }>(
        tx,
        sql`SELECT h.member_id, h.pv::text AS pv, h.created_at, m.path, m.sponsor_path
            FROM pv_history h JOIN members m ON m.id = h.member_id
            WHERE h.pv > 0 AND (h.from_member_id IS NULL OR h.from_member_id = h.member_id)
              AND h.created_at >= ${from} AND h.created_at < ${paidUntil}
            ORDER BY h.created_at, h.id`,
      );
      const chains = new Map<number, number[]>();
      for (const s of sales) chains.set(s.member_id, uplineIds(rules.plan === 'matrix' ? s.path : s.sponsor_path).slice(0, rules.levelPercents.length));
      const ids = [...new Set([...chains.values()].flat())];
      const earns = new Map<number, boolean>();
      for (let i = 0; i < ids.length; i += 5000) {
        const chunk = ids.slice(i, i + 5000);
        const rows = await rowsOf<{ id: number; earns: boolean }>(
          tx,
          sql`SELECT id, (status = 1 AND role_id <> 1) AS earns FROM members WHERE id IN (${sql.join(chunk.map((n) => sql`${n}`), sql`, `)})`,
        );
        for (const r of rows) earns.set(Number(r.id), Boolean(r.earns));
      }
      const upline = (memberId: number): Upline[] => (chains.get(memberId) ?? []).map((id) => ({ id, earns: earns.get(id) ?? false }));
      const list: Sale[] = sales.map((s) => ({ memberId: Number(s.member_id), pv: money.parse(s.pv), at: new Date(s.created_at) }));
      for (const c of levelCommissions(list, upline, rules.levelPercents)) {
        await pay(c.memberId, 'level_commission', c.gross, new Date(paidUntil.getTime() - 1), { level: c.level, fromMemberId: c.fromMemberId });
      }
    }

    const total = paid.reduce((s, p) => s + p.gross, 0n);
    await tx.insert(compensationRuns).values({ plan: rules.plan, periodStart, paidUntil, earningsCount: paid.length, totalPaid: money.format(total) });
    return { plan: rules.plan, periodStart, paidUntil, alreadyPaid: false, earnings: paid.length, total };
  });
}

interface BinaryRow {
  member_id: number;
  total_left: string;
  total_right: string;
  carry_left: string;
  carry_right: string;
  paired: boolean;
  earns: boolean;
}

async function payBinary(
  tx: Db,
  r: {
    from: Date;
    until: Date;
    periodStart: string;
    cfg: ReturnType<typeof pairingConfig>;
    pay: (memberId: number, type: BonusType, gross: Units, at: Date) => Promise<number>;
  },
) {
  // Each member with volume in the period: its latest row before the cut-off holds the legs' totals and carries.
  const rows = await rowsOf<BinaryRow>(
    tx,
    sql`SELECT DISTINCT ON (b.member_id) b.member_id, b.total_left::text AS total_left, b.total_right::text AS total_right,
               b.carry_left::text AS carry_left, b.carry_right::text AS carry_right,
               EXISTS (SELECT 1 FROM binary_history p WHERE p.member_id = b.member_id AND p.type = 'pairing') AS paired,
               (m.status = 1 AND m.role_id <> 1) AS earns
        FROM binary_history b JOIN members m ON m.id = b.member_id
        WHERE b.created_at < ${r.until}
          AND b.member_id IN (SELECT member_id FROM binary_history WHERE leg IS NOT NULL AND created_at >= ${r.from} AND created_at < ${r.until})
        ORDER BY b.member_id, b.created_at DESC, b.id DESC`,
  );
  const at = new Date(r.until.getTime() - 1);
  for (const row of rows) {
    if (!row.earns) continue;
    const state = {
      totalLeft: money.parse(row.total_left),
      totalRight: money.parse(row.total_right),
      carryLeft: money.parse(row.carry_left),
      carryRight: money.parse(row.carry_right),
      pairs: row.paired ? 1n : 0n,
    };
    const m = matchPairs(state, r.cfg);
    if (m.pairs <= 0n) continue;
    const earningId = m.bonusToPay > 0n ? await r.pay(Number(row.member_id), 'binary_bonus', m.bonusToPay, at) : null;
    await tx.insert(binaryHistory).values({
      memberId: Number(row.member_id),
      type: 'pairing',
      leg: null,
      pvDeductedLeft: money.format(m.deductedLeft),
      pvDeductedRight: money.format(m.deductedRight),
      totalLeft: money.format(m.state.totalLeft),
      totalRight: money.format(m.state.totalRight),
      carryLeft: money.format(m.state.carryLeft),
      carryRight: money.format(m.state.carryRight),
      bonusGenerated: money.format(m.bonusGenerated),
      bonusToPay: money.format(m.bonusToPay),
      cappingLimit: r.cfg.cappingLimit === null ? null : money.format(r.cfg.cappingLimit),
      periodStart: r.periodStart,
      earningId,
      createdAt: at,
    });
    await tx.execute(
      sql`UPDATE members SET carry_left = ${money.format(m.state.carryLeft)}, carry_right = ${money.format(m.state.carryRight)} WHERE id = ${Number(row.member_id)}`,
    );
  }
}
