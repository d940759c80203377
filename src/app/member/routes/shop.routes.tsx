/**
 * The internal store's pages: products (with the detail under it), cart, checkout, and the card payment's
 * result page the provider sends the member back to. Menu placement and permission as the shop section's.
 */
import { useActorRef } from '@xstate/react';
import { PERMISSIONS } from '../../../lib/menu';
import { createSearchCodec } from '../../../lib/search-codec';
import { cartAddMachine, cartMachine } from '../../../machines/cart.machine';
import { checkoutMachine } from '../../../machines/checkout.machine';
import { cardPaymentResultMachine, productDetailMachine, productsListMachine } from '../../../machines/shop-catalogue.machine';
import { productsQuerySchema, type ProductFilters } from '../../../schemas/shop.schema';
import * as z from 'zod/mini';
import type { CartAddActor } from '../../../views/shop/products.view';
import { lazyView } from '../../lazy-view';
import { formActions } from '../member-forms';
import { page } from '../member-page';
import { SESSION, type MemberRoute, type PageEnv, type UrlBinding } from '../member-route';
import { guarded, LOADED } from '../route-parts';
import type { ReactNode } from 'react';

const views = () => import('../../../views/shop/products.view');
const ProductsView = lazyView(() => views().then((m) => m.ProductsView));
const ProductDetailView = lazyView(() => views().then((m) => m.ProductDetailView));
const CartView = lazyView(() => import('../../../views/shop/cart.view').then((m) => m.CartView));
const CheckoutView = lazyView(() => import('../../../views/shop/checkout.view').then((m) => m.CheckoutView));
const CardPaymentView = lazyView(() => import('../../../views/shop/card-payment.view').then((m) => m.CardPaymentView));

const productId = (id: string | undefined) => (Number.isInteger(Number(id)) && Number(id) > 0 ? Number(id) : -1);

/** ?search= and ?category= of the product list, followed by `list.setFilters`. */
const productsUrl: UrlBinding<typeof productsListMachine, ProductFilters> = {
  codec: createSearchCodec(productsQuerySchema, { fields: ['search', 'category'] }) as unknown as UrlBinding<typeof productsListMachine, ProductFilters>['codec'],
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
};

/** The session id the provider put in the return URL (only passed on: the server checks it). */
const returnUrlSchema = z.looseObject({ session_id: z.optional(z.string().check(z.regex(/^[A-Za-z0-9_]{1,255}$/))) });
const cardReturnUrl: UrlBinding<typeof cardPaymentResultMachine, { session_id?: string }> = {
  codec: createSearchCodec(returnUrlSchema, { fields: ['session_id'] }),
};

/** ?cancelled=1: back from the provider's page without paying. */
const checkoutUrl: UrlBinding<typeof checkoutMachine, { cancelled?: string }> = {
  codec: createSearchCodec(z.looseObject({ cancelled: z.optional(z.string()) }), { fields: ['cancelled'] }),
};

/** The "add to cart" of a product page: an actor of the page's view, bound to the member's toasts. */
function WithCartAdd({ env, children }: { env: PageEnv; children: (cartAdd: CartAddActor) => ReactNode }) {
  const cartAdd = useActorRef(cartAddMachine.provide({ actions: formActions(env.session) }));
  return children(cartAdd);
}

const place = (item?: string) => guarded(PERMISSIONS.shopProducts, 'shop', item);

export const shopRoutes: MemberRoute[] = [
  page(
    '/shopping/products',
    {
      id: 'shop.products',
      machine: productsListMachine,
      input: ({ url }) => ({ filters: url }),
      url: productsUrl,
      persist: SESSION,
      view: ({ actor, url, setUrl, env }) => (
        <WithCartAdd env={env}>{(cartAdd) => <ProductsView actor={actor} cartAdd={cartAdd} filters={url} onFilters={setUrl} />}</WithCartAdd>
      ),
    },
    place('products'),
  ),
  page(
    '/shopping/products/:id',
    {
      id: 'shop.product',
      machine: productDetailMachine,
      input: ({ params }) => ({ params: productId(params.id) }),
      ...LOADED,
      view: ({ actor, env }) => <WithCartAdd env={env}>{(cartAdd) => <ProductDetailView actor={actor} cartAdd={cartAdd} />}</WithCartAdd>,
    },
    { permission: PERMISSIONS.shopProducts },
  ),
  page(
    '/shopping/cart',
    {
      id: 'shop.cart',
      machine: cartMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      // The cart lives on the server and follows the member: loaded on every visit.
      persist: { kind: 'memory', reason: 'the cart lives on the server and loads on every visit' },
      view: CartView,
    },
    place('cart'),
  ),
  page(
    '/shopping/checkout',
    {
      id: 'shop.checkout',
      machine: checkoutMachine,
      provide: (m, env) =>
        m.provide({
          actions: {
            ...formActions(env.session),
            redirect: (_: unknown, { url }: { url: string }) => {
              if (url) window.location.assign(url);
            },
          },
        }),
      input: ({ url }) => ({ cancelled: url.cancelled === '1' }),
      url: checkoutUrl,
      // The wallet password is typed here: the flow is kept in memory only.
      persist: { kind: 'memory', reason: 'the wallet password is typed in this flow' },
      view: CheckoutView,
    },
    place('checkout'),
  ),
  page(
    '/payment/stripe/success',
    {
      id: 'shop.cardPayment',
      machine: cardPaymentResultMachine,
      input: ({ url }) => ({ params: url.session_id ?? '', autoStart: Boolean(url.session_id) }),
      url: cardReturnUrl,
      ...LOADED,
      view: CardPaymentView,
    },
    { permission: PERMISSIONS.shop },
  ),
];
