/** Network history calls of spec §7: PV history and binary history. */
import { download, get } from './client';
import { binaryHistoryPageSchema, pvHistoryPageSchema, type HistoryFilters } from '../schemas/history.schema';
import { listQuery } from './wallet';

export const historyApi = {
  pvHistory: (f: HistoryFilters = {}) => get(pvHistoryPageSchema, '/api/network/pv_history', listQuery({ ...f })),
  downloadPvHistory: (f: HistoryFilters = {}) => download('/api/network/pv_history/export', listQuery({ ...f, cursor: undefined })),
  binaryHistory: (f: HistoryFilters = {}) => get(binaryHistoryPageSchema, '/api/network/binary_history', listQuery({ ...f })),
  downloadBinaryHistory: (f: HistoryFilters = {}) => download('/api/network/binary_history/export', listQuery({ ...f, cursor: undefined })),
};
