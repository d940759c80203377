/** Network history calls of spec §7: PV history and binary history. */
import { get } from './client';
import { download } from './download';
import { binaryHistoryPageSchema, historyQuerySchema, pvHistoryPageSchema, type HistoryFilters } from '../schemas/history.schema';
import { queryRecord } from '../lib/search-codec';

const historyQuery = (f: HistoryFilters) => queryRecord(historyQuerySchema, f);

export const historyApi = {
  pvHistory: (f: HistoryFilters = {}) => get(pvHistoryPageSchema, '/api/network/pv_history', historyQuery(f)),
  downloadPvHistory: (f: HistoryFilters = {}) => download('/api/network/pv_history/export', historyQuery({ ...f, cursor: undefined })),
  binaryHistory: (f: HistoryFilters = {}) => get(binaryHistoryPageSchema, '/api/network/binary_history', historyQuery(f)),
  downloadBinaryHistory: (f: HistoryFilters = {}) => download('/api/network/binary_history/export', historyQuery({ ...f, cursor: undefined })),
};
