/**
 * The member menu (spec §2 member area, §6 menu visibility and bottom bar) as a pure function of the
 * feature switches, the member and the summary flags. The sidebar renders every entry; narrow
 * screens show the bottom bar (the first 5 or 6 entries flagged `bottom`).
 *
 * Labels are i18n keys of the `common` namespace (`common:menu.<id>`); icons are names the shell maps
 * to its icon components.
 */
import type { Modules, User } from '../schemas/common.schema';

/** The short feature names the menu rules use (spec §3). */
export interface MenuSwitches {
  store: boolean;
  crm: boolean;
  packages: boolean;
  internalStore: boolean;
  roi: boolean;
  kyc: boolean;
  supportMessage: boolean;
  stories: boolean;
  events: boolean;
}

export type MenuModules = Pick<Modules, 'store' | 'crm' | 'package' | 'internal_store' | 'roi' | 'kyc' | 'support_message' | 'stories' | 'events'>;

/** loaded_modules.modules → the menu's switches. */
export function menuSwitches(m: MenuModules): MenuSwitches {
  return {
    store: m.store,
    crm: m.crm,
    packages: m.package,
    internalStore: m.internal_store,
    roi: m.roi,
    kyc: m.kyc,
    supportMessage: m.support_message,
    stories: m.stories,
    events: m.events,
  };
}

export type MenuUser = Pick<User, 'role_id' | 'account_type'>;

export interface MenuFlags {
  /** Unread notifications (notifications_count.total_count): the badge of the notifications entry. */
  notificationCount?: number;
}

export type MenuIcon =
  | 'home'
  | 'network'
  | 'referral'
  | 'wallet'
  | 'orders'
  | 'investments'
  | 'crm'
  | 'kyc'
  | 'mail'
  | 'stories'
  | 'events'
  | 'myOrders'
  | 'notifications'
  | 'account'
  | 'faqs'
  | 'support'
  | 'item';

export interface MenuEntry {
  id: string;
  /** i18n key, e.g. 'common:menu.home'. */
  labelKey: string;
  /** Where the entry leads. */
  link: string;
  icon: MenuIcon;
  /** May appear in the bottom bar on narrow screens. */
  bottom?: boolean;
  /** Count shown on the entry (the notifications entry: unread total), only when above zero. */
  badge?: number;
  /** Path prefixes that belong to this entry (it is highlighted on any of them). */
  match: string[];
  children?: MenuEntry[];
}

export const ROLE_AFFILIATE = 3;

const label = (id: string) => `common:menu.${id}`;

function entry(id: string, link: string, icon: MenuIcon, extra: Partial<Omit<MenuEntry, 'id' | 'link' | 'icon' | 'labelKey'>> = {}): MenuEntry {
  return { id, labelKey: label(id), link, icon, match: extra.match ?? [link], ...extra };
}

const child = (id: string, link: string): MenuEntry => entry(id, link, 'item');

/**
 * The menu, in sidebar order (spec §6):
 * - Network only for role Affiliate (3), and never for merchant accounts; merchants also lose referral.
 * - An orders/investments entry when packages or internalStore is on and store and crm are off
 *   (labelled investments when roi is on, orders otherwise).
 * - CRM needs crm, KYC kyc, the mailbox supportMessage, stories stories, events events.
 * - Always: home, wallet, account, my orders, notifications, FAQs, support.
 */
export function buildMenu(s: MenuSwitches, user: MenuUser, flags: MenuFlags = {}): MenuEntry[] {
  const merchant = user.account_type === 'merchant';
  const out: MenuEntry[] = [];

  out.push(entry('home', '/member/home/dashboard', 'home', { bottom: true, match: ['/member/home'] }));

  if (user.role_id === ROLE_AFFILIATE && !merchant) {
    out.push(
      entry('network', '/member/network/genealogy', 'network', {
        bottom: true,
        match: ['/member/network', '/member/downlines', '/member/pv-history', '/member/binary-history', '/member/signup'],
        children: [
          child('genealogy', '/member/network/genealogy'),
          child('tabular', '/member/network/tabular'),
          child('downline', '/member/network/downline'),
          child('downlines', '/member/downlines'),
          child('pvHistory', '/member/pv-history'),
          child('binaryHistory', '/member/binary-history'),
          child('memberSignup', '/member/signup'),
        ],
      }),
    );
  }

  if (!merchant) {
    out.push(
      entry('referral', '/member/referral/summary', 'referral', {
        match: ['/member/referral'],
        children: [
          child('referralSummary', '/member/referral/summary'),
          child('recruiter', '/member/referral/recruiter'),
          child('earner', '/member/referral/earner'),
          child('joinings', '/member/referral/joinings'),
        ],
      }),
    );
  }

  out.push(
    entry('wallet', '/member/wallet/statement', 'wallet', {
      bottom: true,
      match: ['/member/wallet'],
      children: [
        child('statement', '/member/wallet/statement'),
        child('earning', '/member/wallet/earning'),
        child('payout', '/member/wallet/payout'),
        child('requestPayout', '/member/wallet/request-payout'),
        child('transactions', '/member/wallet/transactions'),
        child('recentEarnings', '/member/wallet/recent-earnings'),
        child('recentPayouts', '/member/wallet/recent-payouts'),
      ],
    }),
  );

  if ((s.packages || s.internalStore) && !s.store && !s.crm) {
    const id = s.roi ? 'investments' : 'orders';
    const children: MenuEntry[] = [];
    if (s.internalStore) children.push(child('products', '/member/shopping/products'), child('cart', '/member/shopping/cart'), child('checkout', '/member/shopping/checkout'));
    if (s.packages) children.push(child('packagePayment', '/member/packages/payment'));
    children.push(
      child('otcRequestPayment', '/member/otc/request-payment'),
      child('otcMakePayment', '/member/otc/make-payment'),
      child('otcPaymentHistory', '/member/otc/payment-history'),
    );
    out.push(
      entry(id, s.internalStore ? '/member/shopping/products' : '/member/packages/payment', id, {
        bottom: true,
        match: ['/member/shopping', '/member/packages', '/member/payment', '/member/otc'],
        children,
      }),
    );
  }

  if (s.crm) {
    out.push(
      entry('crm', '/member/crm/dashboard', 'crm', {
        bottom: true,
        match: ['/member/crm'],
        children: [
          child('crmDashboard', '/member/crm/dashboard'),
          child('crmAnalytics', '/member/crm/dashboard/analytics'),
          child('leads', '/member/crm/leads'),
          child('contacts', '/member/crm/contacts'),
          child('sales', '/member/crm/sales'),
          child('invoices', '/member/crm/invoices'),
          child('meetings', '/member/crm/meetings'),
          child('calls', '/member/crm/calls'),
        ],
      }),
    );
  }

  if (s.kyc) out.push(entry('kyc', '/member/kyc', 'kyc'));

  if (s.supportMessage) {
    out.push(
      entry('mailbox', '/member/mail/inbox', 'mail', {
        match: ['/member/mail'],
        children: [child('inbox', '/member/mail/inbox'), child('sent', '/member/mail/sent'), child('compose', '/member/mail/compose')],
      }),
    );
  }

  if (s.stories) {
    out.push(
      entry('stories', '/member/story/article', 'stories', {
        match: ['/member/story'],
        children: [child('articles', '/member/story/article'), child('videos', '/member/story/video')],
      }),
    );
  }

  if (s.events) out.push(entry('events', '/member/events', 'events', { match: ['/member/events', '/member/event'] }));

  out.push(entry('myOrders', '/member/orders', 'myOrders'));

  const count = flags.notificationCount ?? 0;
  out.push(entry('notifications', '/member/notifications', 'notifications', { bottom: true, ...(count > 0 ? { badge: Math.floor(count) } : {}) }));

  out.push(
    entry('account', '/member/account', 'account', {
      bottom: true,
      match: ['/member/account'],
      children: [
        child('profile', '/member/account/basic'),
        child('email', '/member/account/email'),
        child('phone', '/member/account/phone'),
        child('bank', '/member/account/bank'),
        child('password', '/member/account/password'),
        child('walletPassword', '/member/account/wallet-password'),
        child('payoutSettings', '/member/account/payout'),
        child('language', '/member/account/language'),
        child('currency', '/member/account/currency'),
        child('dateFormat', '/member/account/date-format'),
        child('notificationSettings', '/member/account/notification'),
        child('introVideo', '/member/account/intro-video'),
        child('addresses', '/member/account/addresses'),
        child('more', '/member/account/more'),
      ],
    }),
  );
  out.push(entry('faqs', '/member/account/faqs', 'faqs'));
  out.push(entry('support', '/member/support', 'support'));
  return out;
}

/** Spec §6: 6 bottom items when (crm or packages or internalStore) is on and store is off, otherwise 5. */
export function bottomBarSize(s: MenuSwitches): 5 | 6 {
  return (s.crm || s.packages || s.internalStore) && !s.store ? 6 : 5;
}

/** The bottom bar: the first 5 or 6 entries flagged `bottom`. */
export function bottomBar(menu: MenuEntry[], s: MenuSwitches): MenuEntry[] {
  return menu.filter((e) => e.bottom).slice(0, bottomBarSize(s));
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The entry (and sub-item) a location belongs to: the longest matching prefix wins, so
 * /member/account/faqs is FAQs, not Account. Null outside the menu.
 */
export function activeMenu(menu: MenuEntry[], path: string): { id: string; childId: string | null } | null {
  const p = path.split(/[?#]/)[0].replace(/\/+$/, '') || '/';
  let best: { id: string; childId: string | null; length: number } | null = null;
  for (const e of menu) {
    for (const prefix of [e.link, ...e.match]) {
      if (under(p, prefix) && (!best || prefix.length > best.length)) best = { id: e.id, childId: null, length: prefix.length };
    }
    for (const c of e.children ?? []) {
      if (under(p, c.link) && (!best || c.link.length >= best.length)) best = { id: e.id, childId: c.id, length: c.link.length };
    }
  }
  return best && { id: best.id, childId: best.childId };
}

/** Every menu id with its label key, for translation files and tests. */
export function menuLabelKeys(menu: MenuEntry[]): string[] {
  return menu.flatMap((e) => [e.labelKey, ...(e.children ?? []).map((c) => c.labelKey)]);
}
