/**
 * The cart (/member/shopping/cart), kept on the server: load it, change a quantity, remove a line (restored
 * at once with Undo), and `cartAddMachine`, the "add to cart" of the product list and detail.
 *
 * cart: loading → ready ⇄ updating; loading fails into connectionError / serverError (retry) or forceLogout;
 * a failed change goes back to ready with its refusal (out of stock, too many…) shown and the cart unchanged.
 */
import { assign, fromPromise, setup } from 'xstate';
import { shopApi } from '../api/shop';
import { classifyFailure, endsSession, errorInfo, type ErrorInfo } from '../api/errors';
import type { NotifyParams } from '../lib/flow';
import type { Cart } from '../schemas/shop.schema';

export type CartChange = { op: 'quantity'; id: number; quantity: number } | { op: 'remove'; id: number } | { op: 'restore'; id: number };

export interface CartContext {
  cart: Cart | null;
  error: ErrorInfo | null;
  /** The refusal of the last change (its i18n key), shown above the cart. */
  refusal: string | null;
  change: CartChange | null;
}

export type CartEvent =
  | { type: 'cart.setQuantity'; id: number; quantity: number }
  | { type: 'cart.remove'; id: number }
  | { type: 'cart.restore'; id: number }
  | { type: 'cart.retry' }
  | { type: 'cart.refresh' };

const errorOf = (event: unknown) => (event as { error: unknown }).error;
const isConnection = ({ event }: { event: unknown }) => classifyFailure(errorOf(event)) === 'connection';
const endingSession = ({ event }: { event: unknown }) => endsSession(classifyFailure(errorOf(event)));

/** The i18n key of a refused change: the server's field message when it sent one, else a generic one. */
export function refusalKey(error: unknown): string {
  const info = errorInfo(error);
  if (info.code === 'out_of_stock') return 'store:cart.errors.outOfStock';
  const first = Object.values(info.fields)[0];
  if (first && first.includes(':')) return first;
  if (classifyFailure(error) === 'connection') return 'store:cart.errors.connection';
  return 'store:cart.errors.failed';
}

export const cartMachine = setup({
  types: { context: {} as CartContext, events: {} as CartEvent },
  actors: {
    load: fromPromise<Cart, void>(() => shopApi.cart()),
    change: fromPromise<Cart, CartChange>(({ input }) =>
      input.op === 'quantity' ? shopApi.setQuantity(input.id, input.quantity) : input.op === 'remove' ? shopApi.remove(input.id) : shopApi.restore(input.id),
    ),
  },
  actions: {
    notify: (_, _params: NotifyParams) => {},
    forceLogout: () => {},
  },
}).createMachine({
  id: 'cart',
  context: { cart: null, error: null, refusal: null, change: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: assign({ cart: ({ event }) => event.output, error: null }) },
        onError: [
          { guard: isConnection, target: 'connectionError', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
          { guard: endingSession, target: 'forceLogout', actions: 'forceLogout' },
          { target: 'serverError', actions: assign({ error: ({ event }) => errorInfo(event.error) }) },
        ],
      },
    },
    ready: {
      on: {
        'cart.setQuantity': { target: 'updating', actions: assign({ change: ({ event }) => ({ op: 'quantity' as const, id: event.id, quantity: event.quantity }), refusal: null }) },
        'cart.remove': { target: 'updating', actions: assign({ change: ({ event }) => ({ op: 'remove' as const, id: event.id }), refusal: null }) },
        'cart.restore': { target: 'updating', actions: assign({ change: ({ event }) => ({ op: 'restore' as const, id: event.id }), refusal: null }) },
        'cart.refresh': 'loading',
      },
    },
    updating: {
      tags: ['busy'],
      invoke: {
        id: 'change',
        src: 'change',
        input: ({ context }) => context.change!,
        onDone: [
          {
            guard: ({ context }) => context.change?.op === 'remove',
            target: 'ready',
            actions: [assign({ cart: ({ event }) => event.output }), { type: 'notify', params: { kind: 'info', key: 'store:cart.removed' } }],
          },
          { target: 'ready', actions: assign({ cart: ({ event }) => event.output }) },
        ],
        onError: [
          { guard: endingSession, target: 'forceLogout', actions: 'forceLogout' },
          { target: 'ready', actions: assign({ refusal: ({ event }) => refusalKey(event.error) }) },
        ],
      },
    },
    connectionError: { tags: ['error'], on: { 'cart.retry': 'loading' } },
    serverError: { tags: ['error'], on: { 'cart.retry': 'loading' } },
    forceLogout: { tags: ['error'] },
  },
});

export interface CartAddContext {
  /** The product being added, then the last one added. */
  productId: number | null;
  quantity: number;
  refusal: string | null;
  added: number;
}

/** "Add to cart" of the product list and detail: idle ⇄ adding; a refusal or success is a toast. */
export const cartAddMachine = setup({
  types: { context: {} as CartAddContext, events: {} as { type: 'cart.add'; productId: number; quantity?: number } },
  actors: {
    add: fromPromise<Cart, { productId: number; quantity: number }>(({ input }) => shopApi.addToCart(input.productId, input.quantity)),
  },
  actions: {
    notify: (_, _params: NotifyParams) => {},
    forceLogout: () => {},
  },
}).createMachine({
  id: 'cartAdd',
  context: { productId: null, quantity: 1, refusal: null, added: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'cart.add': { target: 'adding', actions: assign({ productId: ({ event }) => event.productId, quantity: ({ event }) => event.quantity ?? 1, refusal: null }) },
      },
    },
    adding: {
      tags: ['busy'],
      invoke: {
        id: 'add',
        src: 'add',
        input: ({ context }) => ({ productId: context.productId!, quantity: context.quantity }),
        onDone: { target: 'idle', actions: [assign({ added: ({ context }) => context.added + 1 }), { type: 'notify', params: { kind: 'success', key: 'store:cart.added' } }] },
        onError: [
          { guard: endingSession, target: 'forceLogout', actions: 'forceLogout' },
          {
            target: 'idle',
            actions: [
              assign({ refusal: ({ event }) => refusalKey(event.error) }),
              { type: 'notify', params: ({ event }) => ({ kind: 'error' as const, key: refusalKey(event.error) }) },
            ],
          },
        ],
      },
    },
    forceLogout: { tags: ['error'] },
  },
});
