/**
 * Network history calls (spec §7 "Network"): PV history and binary history of the signed-in
 * member, cursor-paged with the shared filters plus `type` (one type at a time), and CSV exports.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../lib/app-context';
import { binaryHistoryPageSchema, pvHistoryPageSchema } from '../../src/schemas/history.schema';
import { historyQuery } from '../../src/schemas/list-query.schema';
import { BINARY_TYPE_LABELS, BINARY_TYPES, PV_TYPE_LABELS, PV_TYPES, binaryRows, historyTypeFilter, pvRows } from '../lib/history';
import { listEndpoint } from '../lib/list-endpoint';

export async function historyRoutes(app: FastifyInstance, ctx: AppContext) {
  const tags = ['network'];

  listEndpoint(app, ctx, {
    path: '/api/network/pv_history',
    tags,
    querystring: historyQuery(PV_TYPES),
    response: pvHistoryPageSchema,
    filters: historyTypeFilter(PV_TYPES),
    rows: (db, member, q, type, limit) => pvRows(db, member.id, q, type, limit),
    extra: { types: [...PV_TYPES], type_labels: PV_TYPE_LABELS },
    csv: {
      name: 'pv-history',
      columns: ['id', 'date', 'type', 'from_username', 'pv', 'tv', 'total_pv', 'total_tv'],
      line: (r) => [r.id, r.created_at, r.type, r.from_username, r.pv, r.tv, r.total_pv, r.total_tv],
    },
  });

  listEndpoint(app, ctx, {
    path: '/api/network/binary_history',
    tags,
    querystring: historyQuery(BINARY_TYPES),
    response: binaryHistoryPageSchema,
    filters: historyTypeFilter(BINARY_TYPES),
    rows: (db, member, q, type, limit) => binaryRows(db, member.id, q, type, limit),
    extra: { types: [...BINARY_TYPES], type_labels: BINARY_TYPE_LABELS },
    csv: {
      name: 'binary-history',
      columns: [
        'id',
        'date',
        'leg',
        'from_username',
        'pv_added',
        'pv_deducted_left',
        'pv_deducted_right',
        'total_left',
        'total_right',
        'carry_left',
        'carry_right',
        'bonus_generated',
        'bonus_to_pay',
        'capping_limit',
      ],
      line: (r) => [
        r.id,
        r.created_at,
        r.leg,
        r.from_username,
        r.pv_added,
        r.pv_deducted_left,
        r.pv_deducted_right,
        r.total_left,
        r.total_right,
        r.carry_left,
        r.carry_right,
        r.bonus_generated,
        r.bonus_to_pay,
        r.capping_limit,
      ],
    },
  });
}
