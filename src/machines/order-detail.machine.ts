/** One order's detail (/member/orders/:id): the generic load; a 404 ends in `error` with kind notFound. */
import { ordersApi } from '../api/orders';
import { createLoadMachine } from './load.machine';

export const orderDetailMachine = createLoadMachine('orderDetail', (id: number) => ordersApi.order(id));
