/** The member menu of spec §6 (built from the member route table), every combination of role, account type and the nine feature switches. */
import { describe, expect, it } from 'vitest';
import { activeMenu, allows, bottomBar, bottomBarSize, buildMenu, menuLabelKeys, menuSwitches, PERMISSIONS, type MenuEntry, type MenuSwitches, type MenuUser } from '../../src/lib/menu';
import { MEMBER_ROUTES } from '../../src/app/member/route-table';

const SWITCHES: Array<keyof MenuSwitches> = ['store', 'crm', 'packages', 'internalStore', 'roi', 'kyc', 'supportMessage', 'stories', 'events'];
const ROLES = [1, 2, 3] as const;
const ACCOUNT_TYPES = ['personal', 'merchant'] as const;
const ALWAYS = ['home', 'wallet', 'account', 'myOrders', 'notifications', 'faqs', 'support'];

function allSwitchCombinations(): MenuSwitches[] {
  const out: MenuSwitches[] = [];
  for (let mask = 0; mask < 1 << SWITCHES.length; mask++) {
    out.push(Object.fromEntries(SWITCHES.map((k, i) => [k, (mask & (1 << i)) !== 0])) as unknown as MenuSwitches);
  }
  return out;
}

const ids = (menu: MenuEntry[]) => menu.map((e) => e.id);
const on = (over: Partial<MenuSwitches> = {}): MenuSwitches => ({
  store: false,
  crm: false,
  packages: false,
  internalStore: false,
  roi: false,
  kyc: false,
  supportMessage: false,
  stories: false,
  events: false,
  ...over,
});

describe('every role × account type × switch combination', () => {
  const combos = allSwitchCombinations();
  it('covers 3 roles × 2 account types × 512 switch sets', () => {
    expect(combos).toHaveLength(512);
  });

  for (const role_id of ROLES) {
    for (const account_type of ACCOUNT_TYPES) {
      it(`role ${role_id}, ${account_type}`, () => {
        const user: MenuUser = { role_id, account_type };
        for (const s of combos) {
          const menu = buildMenu(MEMBER_ROUTES, s, user);
          const list = ids(menu);
          const has = (id: string) => list.includes(id);
          const why = JSON.stringify({ role_id, account_type, s });

          for (const id of ALWAYS) expect(has(id), `${id} ${why}`).toBe(true);
          expect(has('network'), why).toBe(role_id === 3 && account_type !== 'merchant');
          expect(has('referral'), why).toBe(account_type !== 'merchant');

          const shop = (s.packages || s.internalStore) && !s.store && !s.crm;
          expect(has('investments'), why).toBe(shop && s.roi);
          expect(has('orders'), why).toBe(shop && !s.roi);

          expect(has('crm'), why).toBe(s.crm);
          expect(has('kyc'), why).toBe(s.kyc);
          expect(has('mailbox'), why).toBe(s.supportMessage);
          expect(has('stories'), why).toBe(s.stories);
          expect(has('events'), why).toBe(s.events);

          // Nothing else, no duplicates (sub-items included), every link inside the member area.
          const known = new Set([...ALWAYS, 'network', 'referral', 'investments', 'orders', 'crm', 'kyc', 'mailbox', 'stories', 'events']);
          expect(list.every((id) => known.has(id)), why).toBe(true);
          const everyId = menu.flatMap((e) => [e.id, ...(e.children ?? []).map((c) => c.id)]);
          expect(new Set(everyId).size).toBe(everyId.length);
          for (const e of menu) {
            expect(e.link.startsWith('/member/')).toBe(true);
            expect(e.labelKey).toBe(`common:menu.${e.id}`);
            for (const c of e.children ?? []) expect(c.link.startsWith('/member/')).toBe(true);
          }

          // Bottom bar: the first 6 bottom items when (crm or packages or internalStore) is on and store is off, else 5.
          const size = (s.crm || s.packages || s.internalStore) && !s.store ? 6 : 5;
          expect(bottomBarSize(s), why).toBe(size);
          const bar = bottomBar(menu, s);
          const flagged = menu.filter((e) => e.bottom);
          expect(bar, why).toEqual(flagged.slice(0, size));
          expect(bar.length).toBe(Math.min(size, flagged.length));
          expect(bar[0].id).toBe('home');
        }
      });
    }
  }
});

describe('examples', () => {
  const affiliate: MenuUser = { role_id: 3, account_type: 'personal' };
  const merchant: MenuUser = { role_id: 3, account_type: 'merchant' };

  it.each([
    ['the seeded company (crm, packages, internal store; no store)', affiliate, on({ crm: true, packages: true, internalStore: true, kyc: true, supportMessage: true, stories: true, events: true }), ['home', 'network', 'wallet', 'crm', 'notifications', 'account']],
    ['packages without crm or store: orders', affiliate, on({ packages: true }), ['home', 'network', 'wallet', 'orders', 'notifications', 'account']],
    ['roi labels the entry investments', affiliate, on({ packages: true, roi: true }), ['home', 'network', 'wallet', 'investments', 'notifications', 'account']],
    ['store on: five items, no orders entry', affiliate, on({ store: true, packages: true, crm: true }), ['home', 'network', 'wallet', 'crm', 'notifications']],
    ['nothing switched on: five items', affiliate, on(), ['home', 'network', 'wallet', 'notifications', 'account']],
    ['a merchant has no network', merchant, on({ crm: true }), ['home', 'wallet', 'crm', 'notifications', 'account']],
    ['a user (role 2) has no network', { role_id: 2, account_type: 'personal' } as MenuUser, on(), ['home', 'wallet', 'notifications', 'account']],
  ])('%s', (_name, user, s, bar) => {
    expect(ids(bottomBar(buildMenu(MEMBER_ROUTES, s, user), s))).toEqual(bar);
  });

  it('merchants see neither referral nor network; personal affiliates see both', () => {
    expect(ids(buildMenu(MEMBER_ROUTES, on(), merchant))).toEqual(['home', 'wallet', 'myOrders', 'notifications', 'account', 'faqs', 'support']);
    expect(ids(buildMenu(MEMBER_ROUTES, on(), affiliate))).toEqual(['home', 'network', 'referral', 'wallet', 'myOrders', 'notifications', 'account', 'faqs', 'support']);
  });

  it('the orders entry leads to the shop when the internal store is on, else to package payment', () => {
    const shop = buildMenu(MEMBER_ROUTES, on({ internalStore: true }), affiliate).find((e) => e.id === 'orders')!;
    expect(shop.link).toBe('/member/shopping/products');
    const pkgs = buildMenu(MEMBER_ROUTES, on({ packages: true }), affiliate).find((e) => e.id === 'orders')!;
    expect(pkgs.link).toBe('/member/packages/payment');
    expect(pkgs.children!.map((c) => c.id)).not.toContain('products');
  });

  it('with crm or store on the orders entry is gone, but the shop pages still open by their own switches', () => {
    const allowed = (path: string, s: ReturnType<typeof on>) => allows(MEMBER_ROUTES.find((r) => r.path === path)!, { switches: s, user: affiliate });
    for (const s of [on({ crm: true, packages: true, internalStore: true }), on({ store: true, packages: true, internalStore: true })]) {
      expect(ids(buildMenu(MEMBER_ROUTES, s, affiliate))).not.toContain('orders');
      for (const path of ['/shopping/products', '/shopping/cart', '/shopping/checkout', '/packages/payment', '/otc/request-payment', '/otc/payment-history', '/payment/stripe/success']) {
        expect(allowed(path, s), path).toBe(true);
      }
    }
    // Each page by its own switch: products need the internal store, package payment the packages switch.
    const packagesOnly = on({ crm: true, packages: true });
    expect(allowed('/shopping/products', packagesOnly)).toBe(false);
    expect(allowed('/packages/payment', packagesOnly)).toBe(true);
    expect(allowed('/otc/request-payment', packagesOnly)).toBe(true);
    const storeOnly = on({ crm: true, internalStore: true });
    expect(allowed('/packages/payment', storeOnly)).toBe(false);
    expect(allowed('/shopping/cart', storeOnly)).toBe(true);
    expect(allowed('/otc/payment-history', on({ crm: true }))).toBe(false);
  });

  it('the notifications entry carries the unread total as its badge', () => {
    const badge = (n?: number) => buildMenu(MEMBER_ROUTES, on(), affiliate, { notificationCount: n }).find((e) => e.id === 'notifications')!.badge;
    expect(badge(7)).toBe(7);
    expect(badge(0)).toBeUndefined();
    expect(badge(undefined)).toBeUndefined();
  });

  it('maps the module flags of loaded_modules to the short switch names', () => {
    expect(
      menuSwitches({ store: true, crm: false, package: true, internal_store: false, roi: true, kyc: false, support_message: true, stories: false, events: true }),
    ).toEqual({ store: true, crm: false, packages: true, internalStore: false, roi: true, kyc: false, supportMessage: true, stories: false, events: true, introVideo: false, binary: true });
    expect(menuSwitches({ store: false, crm: false, package: false, internal_store: false, roi: false, kyc: false, support_message: false, stories: false, events: false, intro_video: true }).introVideo).toBe(true);
  });

  it('binary history and the binary tab only in a binary plan (no plan given: binary)', () => {
    const base = { store: false, crm: false, package: true, internal_store: false, roi: false, kyc: false, support_message: false, stories: false, events: false };
    const networkItems = (plan?: 'binary' | 'matrix' | 'unilevel') =>
      buildMenu(MEMBER_ROUTES, menuSwitches({ ...base, ...(plan ? { compensation_plan: plan } : {}) }), affiliate).find((e) => e.id === 'network')!.children!.map((c) => c.id);
    expect(networkItems()).toContain('binaryHistory');
    expect(networkItems('binary')).toContain('binaryHistory');
    for (const plan of ['matrix', 'unilevel'] as const) {
      expect(networkItems(plan)).not.toContain('binaryHistory');
      expect(networkItems(plan)).toEqual(expect.arrayContaining(['genealogy', 'pvHistory', 'memberSignup']));
      const access = { switches: menuSwitches({ ...base, compensation_plan: plan }), user: affiliate };
      expect(PERMISSIONS.binary.allows(access)).toBe(false);
      expect(PERMISSIONS.binaryHistory.allows(access)).toBe(false);
    }
  });

  it('has a label key per entry and sub-item, none repeated', () => {
    const keys = menuLabelKeys(buildMenu(MEMBER_ROUTES, on({ crm: true, kyc: true, supportMessage: true, stories: true, events: true }), affiliate));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.every((k) => /^common:menu\.[a-zA-Z]+$/.test(k))).toBe(true);
  });
});

describe('every member area of spec §2 belongs to a menu entry', () => {
  const affiliate: MenuUser = { role_id: 3, account_type: 'personal' };
  const withCrm = buildMenu(MEMBER_ROUTES, on({ crm: true, kyc: true, supportMessage: true, stories: true, events: true, introVideo: true }), affiliate);
  const withShop = buildMenu(MEMBER_ROUTES, on({ packages: true, internalStore: true, kyc: true }), affiliate);

  const AREAS: Array<[string, string, string | null]> = [
    ['/member/home', 'home', null],
    ['/member/home/dashboard', 'home', null],
    ['/member/home/binary', 'home', null],
    ['/member/home/package', 'home', null],
    ['/member/home/rank', 'home', null],
    ['/member/downlines', 'network', 'downlines'],
    ['/member/pv-history', 'network', 'pvHistory'],
    ['/member/binary-history', 'network', 'binaryHistory'],
    ['/member/network', 'network', null],
    ['/member/network/genealogy', 'network', 'genealogy'],
    ['/member/network/tabular', 'network', 'tabular'],
    ['/member/network/downline', 'network', 'downline'],
    ['/member/signup', 'network', 'memberSignup'],
    ['/member/signup/otp', 'network', 'memberSignup'],
    ['/member/referral', 'referral', null],
    ['/member/referral/summary', 'referral', 'referralSummary'],
    ['/member/referral/recruiter', 'referral', 'recruiter'],
    ['/member/referral/earner', 'referral', 'earner'],
    ['/member/referral/joinings', 'referral', 'joinings'],
    ['/member/wallet', 'wallet', null],
    ['/member/wallet/statement', 'wallet', 'statement'],
    ['/member/wallet/earning', 'wallet', 'earning'],
    ['/member/wallet/payout', 'wallet', 'payout'],
    ['/member/wallet/request-payout', 'wallet', 'requestPayout'],
    ['/member/wallet/transactions', 'wallet', 'transactions'],
    ['/member/wallet/recent-earnings', 'wallet', 'recentEarnings'],
    ['/member/wallet/recent-payouts', 'wallet', 'recentPayouts'],
    ['/member/account', 'account', null],
    ['/member/account/basic', 'account', 'profile'],
    ['/member/account/email/otp', 'account', 'email'],
    ['/member/account/phone/otp', 'account', 'phone'],
    ['/member/account/bank', 'account', 'bank'],
    ['/member/account/password', 'account', 'password'],
    ['/member/account/wallet-password', 'account', 'walletPassword'],
    ['/member/account/payout', 'account', 'payoutSettings'],
    ['/member/account/language', 'account', 'language'],
    ['/member/account/currency', 'account', 'currency'],
    ['/member/account/date-format', 'account', 'dateFormat'],
    ['/member/account/notification/push', 'account', 'notificationSettings'],
    ['/member/account/notification/email', 'account', 'notificationSettings'],
    ['/member/account/intro-video', 'account', 'introVideo'],
    ['/member/account/more', 'account', 'more'],
    ['/member/account/addresses/new', 'account', 'addresses'],
    ['/member/account/addresses/12', 'account', 'addresses'],
    ['/member/account/faqs', 'faqs', null],
    ['/member/kyc', 'kyc', null],
    ['/member/notifications', 'notifications', null],
    ['/member/orders', 'myOrders', null],
    ['/member/orders/381', 'myOrders', null],
    ['/member/support', 'support', null],
  ];
  const CRM_AREAS: Array<[string, string, string | null]> = [
    ['/member/crm', 'crm', null],
    ['/member/crm/index', 'crm', null],
    ['/member/crm/dashboard', 'crm', 'crmDashboard'],
    ['/member/crm/dashboard/analytics', 'crm', 'crmAnalytics'],
    ['/member/crm/leads/new', 'crm', 'leads'],
    ['/member/crm/leads/edit', 'crm', 'leads'],
    ['/member/crm/leads/7', 'crm', 'leads'],
    ['/member/crm/contacts', 'crm', 'contacts'],
    ['/member/crm/sales/new', 'crm', 'sales'],
    ['/member/crm/invoices/3', 'crm', 'invoices'],
    ['/member/crm/meetings/new', 'crm', 'meetings'],
    ['/member/crm/calls/new', 'crm', 'calls'],
    ['/member/mail', 'mailbox', null],
    ['/member/mail/inbox', 'mailbox', 'inbox'],
    ['/member/mail/sent', 'mailbox', 'sent'],
    ['/member/mail/sent-item', 'mailbox', null],
    ['/member/mail/compose', 'mailbox', 'compose'],
    ['/member/mail/conversation', 'mailbox', null],
    ['/member/story', 'stories', null],
    ['/member/story/article', 'stories', 'articles'],
    ['/member/story/article/4', 'stories', 'articles'],
    ['/member/story/video/2', 'stories', 'videos'],
    ['/member/events', 'events', null],
    ['/member/event/5', 'events', null],
  ];
  const SHOP_AREAS: Array<[string, string, string | null]> = [
    ['/member/packages/payment', 'orders', 'packagePayment'],
    ['/member/shopping/products', 'orders', 'products'],
    ['/member/shopping/products/9', 'orders', 'products'],
    ['/member/shopping/cart', 'orders', 'cart'],
    ['/member/shopping/checkout', 'orders', 'checkout'],
    ['/member/payment/stripe/success', 'orders', null],
    ['/member/otc/request-payment', 'orders', 'otcRequestPayment'],
    ['/member/otc/make-payment', 'orders', 'otcMakePayment'],
    ['/member/otc/payment-history', 'orders', 'otcPaymentHistory'],
  ];

  it.each([...AREAS, ...CRM_AREAS])('%s → %s / %s', (path, id, childId) => {
    expect(activeMenu(withCrm, path)).toEqual({ id, childId });
  });

  it.each(SHOP_AREAS)('%s → %s / %s', (path, id, childId) => {
    expect(activeMenu(withShop, path)).toEqual({ id, childId });
  });

  it('ignores query strings and trailing slashes; public paths belong to no entry', () => {
    expect(activeMenu(withCrm, '/member/wallet/statement/?cursor=abc')).toEqual({ id: 'wallet', childId: 'statement' });
    expect(activeMenu(withCrm, '/member/eventsx')).toBeNull();
    expect(activeMenu(withCrm, '/login')).toBeNull();
  });
});
