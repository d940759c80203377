/**
 * Checkout (/member/shopping/checkout) as an explicit flow:
 *
 *   loading (cart + address book) → address → payment → walletConfirm → submitting → confirmed
 *                                                      → submitting (card) → redirecting (provider page)
 *                                                      → submitting (over the counter) → otcHandoff
 *
 * with every failure a state of its own: the cart empty, the load's connection or server error (retry),
 * a refused address (back to the address with its field errors), a wrong password (back to the password),
 * a balance too low, an item sold out meanwhile (reload the cart), the checkout's connection or server
 * error (retry with the same idempotency key: never a second order), a demo refusal, and forceLogout.
 * Each submission from the form gets a new idempotency key; a retry reuses it.
 */
import { assign, fromPromise, setup } from 'xstate';
import { authApi } from '../api/auth';
import { shopApi } from '../api/shop';
import type { Country } from '../schemas/common.schema';
import { classifyFailure, endsSession, errorInfo, type ErrorInfo } from '../api/errors';
import type { NotifyParams } from '../lib/flow';
import { EMPTY_ADDRESS, type Address, type AddressValues } from '../schemas/account.schema';
import type { Cart, CheckoutMethod, CheckoutRequest, CheckoutResult } from '../schemas/shop.schema';
import { newIdempotencyKey } from './form.machine';

export type AddressChoice = { kind: 'saved'; id: number } | { kind: 'new' };

export interface CheckoutContext {
  cart: Cart | null;
  addresses: Address[];
  /** The countries a new address may be in (those the signup offers). */
  countries: Country[];
  choice: AddressChoice | null;
  newAddress: AddressValues;
  method: CheckoutMethod;
  password: string;
  idempotencyKey: string | null;
  result: CheckoutResult | null;
  error: ErrorInfo | null;
  /** Field → i18n key (the address's fields, password, cart). */
  fieldErrors: Record<string, string>;
  /** Sent back from the provider's page without paying. */
  cancelled: boolean;
}

export type CheckoutEvent =
  | { type: 'checkout.chooseAddress'; id: number }
  | { type: 'checkout.newAddress' }
  | { type: 'checkout.changeAddress'; field: keyof AddressValues; value: string }
  | { type: 'checkout.chooseMethod'; method: CheckoutMethod }
  | { type: 'checkout.changePassword'; value: string }
  | { type: 'checkout.next' }
  | { type: 'checkout.back' }
  | { type: 'checkout.pay' }
  | { type: 'checkout.retry' }
  | { type: 'checkout.reload' };

export interface CheckoutInput {
  cancelled?: boolean;
}

interface Loaded {
  cart: Cart;
  addresses: Address[];
  countries: Country[];
}

const errorOf = (event: unknown) => (event as { error: unknown }).error;
const failure = (event: unknown) => classifyFailure(errorOf(event));
const codeOf = (event: unknown) => errorInfo(errorOf(event)).code;
const fieldsOf = (event: unknown) => errorInfo(errorOf(event)).fields;
const hasField = (event: unknown, test: (field: string) => boolean) => Object.keys(fieldsOf(event)).some(test);

/** The request of the checkout from what was chosen. */
export function checkoutRequest(c: CheckoutContext): CheckoutRequest {
  const body: CheckoutRequest = { payment_method: c.method };
  if (c.choice?.kind === 'saved') body.address_id = c.choice.id;
  else {
    const a = c.newAddress;
    body.address = {
      first_name: a.first_name,
      address_1: a.address_1,
      city: a.city,
      country_id: Number(a.country_id) || 0,
      ...(a.last_name ? { last_name: a.last_name } : {}),
      ...(a.company ? { company: a.company } : {}),
      ...(a.address_2 ? { address_2: a.address_2 } : {}),
      ...(a.postcode ? { postcode: a.postcode } : {}),
      ...(a.phone ? { phone: a.phone } : {}),
      ...(a.email ? { email: a.email } : {}),
      ...(a.zone_name ? { zone_name: a.zone_name } : {}),
    };
  }
  if (c.method === 'wallet') body.password = c.password;
  return body;
}

/** A new address's required fields, checked before leaving the step (the server checks everything again). */
export function newAddressErrors(a: AddressValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of ['first_name', 'address_1', 'city', 'country_id'] as const) if (!a[f].trim()) out[`address.${f}`] = 'validation:required';
  return out;
}

const firstKeys = (fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v]));

export const checkoutMachine = setup({
  types: { context: {} as CheckoutContext, events: {} as CheckoutEvent, input: {} as CheckoutInput | undefined },
  actors: {
    load: fromPromise<Loaded, void>(async () => {
      const [cart, book, fields] = await Promise.all([shopApi.cart(), shopApi.addresses(), authApi.loginFields()]);
      return { cart, addresses: book.items, countries: fields.countries };
    }),
    submit: fromPromise<CheckoutResult, { body: CheckoutRequest; key: string }>(({ input }) => shopApi.checkout(input.body, input.key)),
  },
  actions: {
    notify: (_, _params: NotifyParams) => {},
    forceLogout: () => {},
    /** Sends the browser to the provider's checkout page. */
    redirect: (_, _params: { url: string }) => {},
    newKey: assign({ idempotencyKey: () => newIdempotencyKey() }),
    clearErrors: assign({ fieldErrors: () => ({}), error: () => null }),
    setError: assign({ error: ({ event }) => errorInfo(errorOf(event)) }),
    setFieldErrors: assign({ error: ({ event }) => errorInfo(errorOf(event)), fieldErrors: ({ event }) => firstKeys(fieldsOf(event)) }),
  },
  guards: {
    cartEmpty: ({ event }) => (event as unknown as { output: Loaded }).output.cart.items.length === 0,
    addressReady: ({ context }) =>
      context.choice !== null && (context.choice.kind === 'saved' || Object.keys(newAddressErrors(context.newAddress)).length === 0),
    payByWallet: ({ context }) => context.method === 'wallet',
    hasPassword: ({ context }) => context.password.length > 0,
    paid: ({ event }) => (event as unknown as { output: CheckoutResult }).output.outcome === 'paid',
    toProvider: ({ event }) => (event as unknown as { output: CheckoutResult }).output.outcome === 'redirect',
    connection: ({ event }) => failure(event) === 'connection',
    sessionEnds: ({ event }) => endsSession(failure(event)),
    demo: ({ event }) => failure(event) === 'demoBlocked',
    soldOut: ({ event }) => codeOf(event) === 'out_of_stock',
    tooLittle: ({ event }) => codeOf(event) === 'insufficient_balance',
    wrongPassword: ({ event }) => hasField(event, (f) => f === 'password'),
    badAddress: ({ event }) => hasField(event, (f) => f.startsWith('address')),
    emptyNow: ({ event }) => hasField(event, (f) => f === 'cart'),
    server: ({ event }) => failure(event) === 'server',
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    cart: null,
    addresses: [],
    countries: [],
    choice: null,
    newAddress: EMPTY_ADDRESS,
    method: 'wallet',
    password: '',
    idempotencyKey: null,
    result: null,
    error: null,
    fieldErrors: {},
    cancelled: input?.cancelled ?? false,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: [
          { guard: 'cartEmpty', target: 'empty', actions: assign({ cart: ({ event }) => event.output.cart }) },
          {
            target: 'address',
            actions: assign({
              cart: ({ event }) => event.output.cart,
              addresses: ({ event }) => event.output.addresses,
              countries: ({ event }) => event.output.countries,
              choice: ({ event }) => (event.output.addresses[0] ? { kind: 'saved' as const, id: event.output.addresses[0].id } : { kind: 'new' as const }),
            }),
          },
        ],
        onError: [
          { guard: 'connection', target: 'loadConnectionError', actions: 'setError' },
          { guard: 'sessionEnds', target: 'forceLogout', actions: 'forceLogout' },
          { target: 'loadServerError', actions: 'setError' },
        ],
      },
    },
    loadConnectionError: { tags: ['error'], on: { 'checkout.retry': 'loading' } },
    loadServerError: { tags: ['error'], on: { 'checkout.retry': 'loading' } },
    empty: { on: { 'checkout.reload': 'loading' } },
    address: {
      on: {
        'checkout.chooseAddress': { actions: [assign({ choice: ({ event }) => ({ kind: 'saved' as const, id: event.id }) }), 'clearErrors'] },
        'checkout.newAddress': { actions: [assign({ choice: { kind: 'new' as const } }), 'clearErrors'] },
        'checkout.changeAddress': {
          actions: assign({
            newAddress: ({ context, event }) => ({ ...context.newAddress, [event.field]: event.value }),
            fieldErrors: ({ context, event }) => {
              const { [`address.${event.field}`]: _gone, ...rest } = context.fieldErrors;
              void _gone;
              return rest;
            },
          }),
        },
        'checkout.next': [
          { guard: 'addressReady', target: 'payment', actions: 'clearErrors' },
          { actions: assign({ fieldErrors: ({ context }) => (context.choice ? newAddressErrors(context.newAddress) : { address_id: 'validation:required' }) }) },
        ],
      },
    },
    payment: {
      on: {
        'checkout.chooseMethod': { actions: [assign({ method: ({ event }) => event.method }), 'clearErrors'] },
        'checkout.back': { target: 'address', actions: 'clearErrors' },
        'checkout.next': [{ guard: 'payByWallet', target: 'walletConfirm', actions: 'clearErrors' }, { target: 'submitting', actions: 'newKey' }],
      },
    },
    walletConfirm: {
      on: {
        'checkout.changePassword': { actions: assign({ password: ({ event }) => event.value, fieldErrors: () => ({}) }) },
        'checkout.back': { target: 'payment', actions: [assign({ password: '' }), 'clearErrors'] },
        'checkout.pay': [
          { guard: 'hasPassword', target: 'submitting', actions: ['newKey', 'clearErrors'] },
          { actions: assign({ fieldErrors: { password: 'validation:required' } }) },
        ],
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'submit',
        src: 'submit',
        input: ({ context }) => ({ body: checkoutRequest(context), key: context.idempotencyKey! }),
        onDone: [
          { guard: 'paid', target: 'confirmed', actions: assign({ result: ({ event }) => event.output, password: '' }) },
          {
            guard: 'toProvider',
            target: 'redirecting',
            actions: [assign({ result: ({ event }) => event.output, password: '' }), { type: 'redirect', params: ({ event }) => ({ url: event.output.url ?? '' }) }],
          },
          { target: 'otcHandoff', actions: assign({ result: ({ event }) => event.output, password: '' }) },
        ],
        onError: [
          { guard: 'connection', target: 'connectionError', actions: 'setError' },
          { guard: 'sessionEnds', target: 'forceLogout', actions: 'forceLogout' },
          { guard: 'demo', target: 'payment', actions: ['setError', { type: 'notify', params: { kind: 'error', key: 'common:featureUnavailableInDemo' } }] },
          { guard: 'soldOut', target: 'outOfStock', actions: 'setFieldErrors' },
          { guard: 'tooLittle', target: 'insufficientBalance', actions: ['setError', assign({ password: '' })] },
          { guard: 'wrongPassword', target: 'walletConfirm', actions: ['setFieldErrors', assign({ password: '' })] },
          { guard: 'badAddress', target: 'address', actions: 'setFieldErrors' },
          { guard: 'emptyNow', target: 'empty', actions: 'setFieldErrors' },
          { guard: 'server', target: 'serverError', actions: 'setError' },
          { target: 'refused', actions: 'setError' },
        ],
      },
    },
    connectionError: { tags: ['error'], on: { 'checkout.retry': 'submitting', 'checkout.back': 'payment' } },
    serverError: { tags: ['error'], on: { 'checkout.retry': 'submitting', 'checkout.back': 'payment' } },
    refused: { tags: ['error'], on: { 'checkout.back': 'payment', 'checkout.reload': 'loading' } },
    insufficientBalance: { tags: ['error'], on: { 'checkout.back': { target: 'payment', actions: 'clearErrors' } } },
    outOfStock: { tags: ['error'], on: { 'checkout.reload': { target: 'loading', actions: 'clearErrors' } } },
    redirecting: { tags: ['busy'] },
    otcHandoff: {},
    confirmed: {},
    forceLogout: { tags: ['error'] },
  },
});
