/** Orders calls of spec §7. */
import { get } from './client';
import { download } from './download';
import { orderDetailSchema, recentOrdersPageSchema, recentOrdersQuerySchema, type OrderFilters } from '../schemas/orders.schema';
import { queryRecord } from '../lib/search-codec';

export const ordersApi = {
  recentOrders: (f: OrderFilters = {}) => get(recentOrdersPageSchema, '/api/orders/recent_orders', queryRecord(recentOrdersQuerySchema, f)),
  downloadRecentOrders: (f: OrderFilters = {}) => download('/api/orders/recent_orders/export', queryRecord(recentOrdersQuerySchema, { ...f, cursor: undefined })),
  order: (id: number) => get(orderDetailSchema, `/api/orders/${encodeURIComponent(String(id))}`),
};
