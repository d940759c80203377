import { ApiError, ConnectionError } from '../../src/api/errors';
import { cartAddMachine, cartMachine } from '../../src/machines/cart.machine';
import { checkoutMachine } from '../../src/machines/checkout.machine';
import type { Cart, CheckoutResult } from '../../src/schemas/shop.schema';
import type { Address } from '../../src/schemas/account.schema';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';

const LINE = { id: 7, sku: 'A', name: 'A', image: null, price: '10', bv: '5', quantity: 1, stock: 3, status: true, line_total: '10' };
const CART: Cart = { items: [LINE], totals: { quantity: 1, amount: '10', bv: '5', available: true }, removed: [] };
const EMPTY: Cart = { items: [], totals: { quantity: 0, amount: '0', bv: '0', available: true }, removed: [] };
const ADDRESS = { id: 3, first_name: 'Dana', last_name: '', company: '', address_1: '1 Main', address_2: '', city: 'Chicago', postcode: '', email: '', phone: '', country_id: 1, zone_id: null, country_name: 'US', zone_name: '', created_at: '2026-01-01T00:00:00.000Z' } as Address;
const result = (outcome: CheckoutResult['outcome']): CheckoutResult => ({ order_id: 1, invoice_no: 'INV-2026-000001', total: '10', outcome, url: outcome === 'paid' ? null : '/x' });
const refused = (code: string, errors: Record<string, string[]> = {}, status = 422) => new ApiError('badRequest', status, { error_code: code, errors });

const cartFailures = (id: string) => [
  errorEvent(id, new ConnectionError()),
  errorEvent(id, new ApiError('server', 500, {})),
  errorEvent(id, new ApiError('unauthorized', 401, {})),
];

describePaths('cart machine', {
  machine: stubActors(cartMachine),
  serializeState: (s) => JSON.stringify([s.value, s.context.change?.op ?? null, s.context.refusal]),
  events: [
    doneEvent('load', CART),
    ...cartFailures('load'),
    { type: 'cart.setQuantity', id: 7, quantity: 2 },
    { type: 'cart.remove', id: 7 },
    { type: 'cart.restore', id: 7 },
    doneEvent('change', CART),
    errorEvent('change', refused('out_of_stock', { product_id: ['store:cart.errors.outOfStock'] }, 409)),
    errorEvent('change', new ApiError('unauthorized', 401, {})),
  ],
});

describePaths('add to cart machine', {
  machine: stubActors(cartAddMachine),
  serializeState: (s) => JSON.stringify([s.value, s.context.refusal]),
  events: [
    { type: 'cart.add', productId: 7 },
    doneEvent('add', CART),
    errorEvent('add', refused('out_of_stock', { product_id: ['store:cart.errors.outOfStock'] }, 409)),
    errorEvent('add', new ApiError('unauthorized', 401, {})),
  ],
});

describePaths('checkout machine', {
  machine: stubActors(checkoutMachine),
  inputs: [{}],
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.choice?.kind ?? null, s.context.method, s.context.password !== '', s.context.newAddress.first_name !== '', Object.keys(s.context.fieldErrors).length > 0]),
  events: [
    doneEvent('load', { cart: CART, addresses: [ADDRESS], countries: [] }),
    doneEvent('load', { cart: EMPTY, addresses: [], countries: [] }),
    ...cartFailures('load'),
    { type: 'checkout.chooseAddress', id: 3 },
    { type: 'checkout.newAddress' },
    { type: 'checkout.changeAddress', field: 'first_name', value: 'Rae' },
    { type: 'checkout.chooseMethod', method: 'card' },
    { type: 'checkout.chooseMethod', method: 'wallet' },
    { type: 'checkout.changePassword', value: 'secret' },
    { type: 'checkout.next' },
    { type: 'checkout.back' },
    { type: 'checkout.pay' },
    { type: 'checkout.retry' },
    { type: 'checkout.reload' },
    doneEvent('submit', result('paid')),
    doneEvent('submit', result('redirect')),
    doneEvent('submit', result('otc')),
    errorEvent('submit', new ConnectionError()),
    errorEvent('submit', new ApiError('unauthorized', 401, {})),
    errorEvent('submit', new ApiError('forbidden', 403, { error_code: 'demo_blocked' })),
    errorEvent('submit', refused('out_of_stock', { 'items.7': ['store:checkout.errors.outOfStock'] }, 409)),
    errorEvent('submit', refused('insufficient_balance', { payment_method: ['store:checkout.errors.insufficientBalance'] })),
    errorEvent('submit', refused('validation_error', { password: ['validation:invalidPassword'] })),
    errorEvent('submit', refused('validation_error', { 'address.city': ['validation:required'] })),
    errorEvent('submit', refused('validation_error', { cart: ['store:checkout.errors.emptyCart'] })),
    errorEvent('submit', new ApiError('server', 500, {})),
    errorEvent('submit', new ApiError('notFound', 409, { error_code: 'already_paid' })),
  ],
});
