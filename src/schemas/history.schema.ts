/** Network history calls of spec §7: PV history and binary history (cursor-paged). */
import * as z from 'zod/mini';
import { idSchema, decimalString } from './common.schema';
import { cursorPage } from './values.schema';
import { isoDateTime, labelsSchema } from './wallet.schema';
import { historyQuery, type QueryParams } from './list-query.schema';

/**
 * Volume added to the member: pv (personal) from their own orders, tv (team) from their own and
 * their downline's orders, with running totals.
 */
export const pvHistoryEntrySchema = z.object({
  id: idSchema,
  pv: decimalString,
  tv: decimalString,
  total_pv: decimalString,
  total_tv: decimalString,
  /** One of the page's types: registration, repurchase, upgrade. */
  type: z.string(),
  created_at: isoDateTime,
  from_username: z.nullable(z.string()),
});
export type PvHistoryEntry = z.infer<typeof pvHistoryEntrySchema>;

export const pvHistoryPageSchema = cursorPage(pvHistoryEntrySchema, {
  types: z.array(z.string()),
  type_labels: labelsSchema,
});
export type PvHistoryPage = z.infer<typeof pvHistoryPageSchema>;

/**
 * A binary history row: volume added to a leg (leg set), or a pairing run (leg null: a deduction
 * of matched volume from both carries, with the bonus it generated and what was paid after the
 * period's capping limit). A 2:1 pair deducts different amounts from the two legs.
 */
export const binaryHistoryEntrySchema = z.object({
  id: idSchema,
  pv_added: decimalString,
  pv_deducted_left: decimalString,
  pv_deducted_right: decimalString,
  total_left: decimalString,
  total_right: decimalString,
  carry_left: decimalString,
  carry_right: decimalString,
  leg: z.nullable(z.enum(['L', 'R'])),
  bonus_generated: decimalString,
  bonus_to_pay: decimalString,
  capping_limit: z.nullable(decimalString),
  created_at: isoDateTime,
  from_username: z.nullable(z.string()),
});
export type BinaryHistoryEntry = z.infer<typeof binaryHistoryEntrySchema>;

export const binaryHistoryPageSchema = cursorPage(binaryHistoryEntrySchema, {
  /** left_volume, right_volume, pairing */
  types: z.array(z.string()),
  type_labels: labelsSchema,
});
export type BinaryHistoryPage = z.infer<typeof binaryHistoryPageSchema>;

/** The history query with any type (the server checks its own types per list). */
export const historyQuerySchema = historyQuery();
/** `type` is sent only when exactly one type is chosen. */
export type HistoryFilters = QueryParams<typeof historyQuerySchema>;

/** Derived facts of a binary history row (spec §3). */
export const isDeduction = (e: Pick<BinaryHistoryEntry, 'leg'>) => e.leg === null;
export const maxDeducted = (e: Pick<BinaryHistoryEntry, 'pv_deducted_left' | 'pv_deducted_right'>) =>
  Number(e.pv_deducted_left) >= Number(e.pv_deducted_right) ? e.pv_deducted_left : e.pv_deducted_right;
export const isTwoToOnePair = (e: Pick<BinaryHistoryEntry, 'leg' | 'pv_deducted_left' | 'pv_deducted_right'>) =>
  e.leg === null && Number(e.pv_deducted_left) !== Number(e.pv_deducted_right);
