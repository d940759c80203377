/**
 * Package payment and over-the-counter payment routes (spec §2): /packages/payment, /otc/request-payment,
 * /otc/make-payment, /otc/payment-history.
 */
import { navigate } from 'wouter/use-browser-location';
import { PERMISSIONS } from '../../../lib/menu';
import { packagePaymentMachine } from '../../../machines/shop/package-payment.machine';
import { otcHistoryDownload, otcHistoryListMachine, otcMakePaymentMachine, otcRequestPaymentMachine, type OtcRequestParams } from '../../../machines/shop/otc.machine';
import { lazyView } from '../../lazy-view';
import { formActions } from '../member-forms';
import { page } from '../member-page';
import { FILES_MEMORY, filteredList, guarded } from '../route-parts';
import { SESSION, type MemberRoute, type UrlCodec } from '../member-route';

const views = () => import('../../../views/shop/otc.view');
const PackagePaymentView = lazyView(() => import('../../../views/shop/package-payment.view').then((m) => m.PackagePaymentView));
const OtcRequestPaymentView = lazyView(() => views().then((m) => m.OtcRequestPaymentView));
const OtcMakePaymentView = lazyView(() => views().then((m) => m.OtcMakePaymentView));
const OtcHistoryView = lazyView(() => views().then((m) => m.OtcHistoryView));

/** ?purpose=package&ref_id=12: what the request-payment page is asked to pay (read once, as the form's input). */
const otcRequestCodec: UrlCodec<OtcRequestParams> = {
  parse: (search) => {
    const q = new URLSearchParams(search);
    return { purpose: q.get('purpose') ?? undefined, ref_id: q.get('ref_id') ?? undefined };
  },
  format: (v) => new URLSearchParams(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')).toString(),
};
/** ?id=: the request make-payment opens on. */
const otcPaymentCodec: UrlCodec<{ id?: string }> = {
  parse: (search) => ({ id: new URLSearchParams(search).get('id') ?? undefined }),
  format: (v) => (v.id ? `id=${encodeURIComponent(v.id)}` : ''),
};

export const packagesRoutes: MemberRoute[] = [
  page(
    '/packages/payment',
    {
      id: 'packages.payment',
      machine: packagePaymentMachine,
      provide: (m, env) =>
        m.provide({
          actions: {
            redirect: (_, { url }) => window.location.assign(url),
            openOtc: (_, { purchaseId }) => navigate(`/member/otc/request-payment?purpose=package&ref_id=${purchaseId}`),
            endSession: () => env.session.send({ type: 'session.forceLogout' }),
          },
        }),
      persist: { kind: 'memory', reason: 'a payment in progress is answered again by the server; a reload shows the packages afresh' },
      view: PackagePaymentView,
    },
    guarded(PERMISSIONS.shopPackages, 'shop', 'packagePayment'),
  ),
  page(
    '/otc/request-payment',
    {
      id: 'otc.requestPayment',
      machine: otcRequestPaymentMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      input: ({ url }) => ({ params: url }),
      url: { codec: otcRequestCodec },
      persist: SESSION,
      view: OtcRequestPaymentView,
    },
    guarded(PERMISSIONS.shop, 'shop', 'otcRequestPayment'),
  ),
  page(
    '/otc/make-payment',
    {
      id: 'otc.makePayment',
      machine: otcMakePaymentMachine,
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      input: ({ url }) => ({ params: url }),
      url: { codec: otcPaymentCodec },
      persist: FILES_MEMORY,
      view: OtcMakePaymentView,
    },
    guarded(PERMISSIONS.shop, 'shop', 'otcMakePayment'),
  ),
  page('/otc/payment-history', { id: 'otc.paymentHistory', machine: otcHistoryListMachine, ...filteredList(OtcHistoryView, otcHistoryDownload) }, guarded(PERMISSIONS.shop, 'shop', 'otcPaymentHistory')),
];
