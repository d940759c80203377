/** Orders calls of spec §7. */
import { download, get } from './client';
import { orderDetailSchema, recentOrdersPageSchema, type OrderFilters } from '../schemas/orders.schema';
import { listQuery } from './wallet';

export const ordersApi = {
  recentOrders: (f: OrderFilters = {}) => get(recentOrdersPageSchema, '/api/orders/recent_orders', listQuery({ ...f })),
  downloadRecentOrders: (f: OrderFilters = {}) => download('/api/orders/recent_orders/export', listQuery({ ...f, cursor: undefined })),
  order: (id: number) => get(orderDetailSchema, `/api/orders/${encodeURIComponent(String(id))}`),
};
