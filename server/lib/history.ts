/**
 * Network history of one member (spec §7 "Network"): PV history and binary history lines, read for the
 * member only, volumes as exact decimal strings.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { BinaryHistoryEntry, PvHistoryEntry } from '../../src/schemas/history.schema';
import { rowsOf } from './ledger';
import { keyedRow, type Keyed } from './list-endpoint';
import * as money from './money';
import type { ListQuery } from './pagination';

export const PV_TYPES = ['registration', 'repurchase', 'upgrade'] as const;
export const PV_TYPE_LABELS: Record<(typeof PV_TYPES)[number], string> = {
  registration: 'Registration',
  repurchase: 'Repurchase',
  upgrade: 'Upgrade',
};
export const BINARY_TYPES = ['left_volume', 'right_volume', 'pairing'] as const;
export const BINARY_TYPE_LABELS: Record<(typeof BINARY_TYPES)[number], string> = {
  left_volume: 'Left leg volume',
  right_volume: 'Right leg volume',
  pairing: 'Pair matching',
};

const dec = (v: string | null) => (v === null ? null : money.normalize(v));

/** The history filter: one `type` of the list's types. */
export const historyTypeFilter =
  (types: readonly string[]) =>
  (q: ListQuery): string | undefined =>
    q.oneOf('type', types);

/** The member's lines of a history table (of `type` when given), in `q`'s order after its cursor: `columns` and the member they came from. */
async function historyRows<R>(db: Db, table: 'pv_history' | 'binary_history', columns: SQL, memberId: number, q: ListQuery, type: string | undefined, limit: number) {
  const t = type ? sql`h.type = ${type}` : sql`TRUE`;
  return rowsOf<R & { id: number; created_at: Date | string; from_username: string | null }>(
    db,
    sql`SELECT h.id, ${columns}, h.created_at, m.username AS from_username
        FROM ${sql.raw(table)} h LEFT JOIN members m ON m.id = h.from_member_id
        WHERE h.member_id = ${memberId} AND ${q.rangeSql(sql`h.created_at`)} AND ${t} AND ${q.afterCursorSql(sql`h.created_at`, sql`h.id`)}
        ORDER BY ${q.orderSql(sql`h.created_at`, sql`h.id`)} LIMIT ${limit}`,
  );
}

interface PvDbRow {
  pv: string;
  tv: string;
  total_pv: string;
  total_tv: string;
  type: string;
}
const PV_COLUMNS = sql`h.pv::text AS pv, h.tv::text AS tv, h.total_pv::text AS total_pv, h.total_tv::text AS total_tv, h.type`;

export async function pvRows(db: Db, memberId: number, q: ListQuery, type: string | undefined, limit: number): Promise<Array<Keyed<PvHistoryEntry>>> {
  const rows = await historyRows<PvDbRow>(db, 'pv_history', PV_COLUMNS, memberId, q, type, limit);
  return rows.map((r) =>
    keyedRow(r.id, r.created_at, {
      pv: money.normalize(r.pv),
      tv: money.normalize(r.tv),
      total_pv: money.normalize(r.total_pv),
      total_tv: money.normalize(r.total_tv),
      type: r.type,
      from_username: r.from_username,
    }),
  );
}

interface BinaryDbRow {
  leg: string | null;
  pv_added: string;
  pv_deducted_left: string;
  pv_deducted_right: string;
  total_left: string;
  total_right: string;
  carry_left: string;
  carry_right: string;
  bonus_generated: string;
  bonus_to_pay: string;
  capping_limit: string | null;
}

const BINARY_COLUMNS = sql`h.leg, h.pv_added::text AS pv_added, h.pv_deducted_left::text AS pv_deducted_left,
  h.pv_deducted_right::text AS pv_deducted_right, h.total_left::text AS total_left, h.total_right::text AS total_right,
  h.carry_left::text AS carry_left, h.carry_right::text AS carry_right, h.bonus_generated::text AS bonus_generated,
  h.bonus_to_pay::text AS bonus_to_pay, h.capping_limit::text AS capping_limit`;

export async function binaryRows(db: Db, memberId: number, q: ListQuery, type: string | undefined, limit: number): Promise<Array<Keyed<BinaryHistoryEntry>>> {
  const rows = await historyRows<BinaryDbRow>(db, 'binary_history', BINARY_COLUMNS, memberId, q, type, limit);
  return rows.map((r) =>
    keyedRow(r.id, r.created_at, {
      pv_added: money.normalize(r.pv_added),
      pv_deducted_left: money.normalize(r.pv_deducted_left),
      pv_deducted_right: money.normalize(r.pv_deducted_right),
      total_left: money.normalize(r.total_left),
      total_right: money.normalize(r.total_right),
      carry_left: money.normalize(r.carry_left),
      carry_right: money.normalize(r.carry_right),
      leg: r.leg === 'L' || r.leg === 'R' ? r.leg : null,
      bonus_generated: money.normalize(r.bonus_generated),
      bonus_to_pay: money.normalize(r.bonus_to_pay),
      capping_limit: dec(r.capping_limit),
      from_username: r.from_username,
    }),
  );
}
