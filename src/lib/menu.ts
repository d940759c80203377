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
  /** The company's intro video (spec §3 intro_video): its page under the account settings. */
  introVideo?: boolean;
  /** The company pays a binary plan (its binary tab, history and summary); absent means binary. */
  binary?: boolean;
}

export type MenuModules = Pick<Modules, 'store' | 'crm' | 'package' | 'internal_store' | 'roi' | 'kyc' | 'support_message' | 'stories' | 'events'> &
  Partial<Pick<Modules, 'intro_video' | 'compensation_plan'>>;

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
    introVideo: m.intro_video ?? false,
    binary: (m.compensation_plan ?? 'binary') === 'binary',
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

/** What a rule may look at: the company's feature switches and the member's role and account type. */
export interface Access {
  switches: MenuSwitches;
  user: MenuUser;
}

/**
 * A permission of spec §6, written once: the member route table puts one on each route, the route
 * guard shows `deniedKey` when it does not allow, and the menu leaves out what it does not allow.
 */
export interface Permission {
  allows: (access: Access) => boolean;
  /** i18n key of the text shown on the page to a member it does not allow. */
  deniedKey: string;
}

const DENIED = 'common:shell.forbidden';
const rule = (allows: Permission['allows'], deniedKey = DENIED): Permission => ({ allows, deniedKey });
const both = (a: Permission, b: Permission): Permission => rule((x) => a.allows(x) && b.allows(x), a.deniedKey);

/** Spec §6: the network is for role Affiliate, never for merchant accounts. */
export function canSeeNetwork(user: MenuUser | null | undefined): boolean {
  return !!user && user.role_id === ROLE_AFFILIATE && user.account_type !== 'merchant';
}

/** Spec §6: merchants do not see the referral programme. */
export function canSeeReferral(user: Pick<MenuUser, 'account_type'> | null | undefined): boolean {
  return !!user && user.account_type !== 'merchant';
}

/** Spec §6: the orders/investments menu entry needs packages or internalStore, with store and crm off. */
const ordersEntry = (s: MenuSwitches) => (s.packages || s.internalStore) && !s.store && !s.crm;
const feature = (name: keyof MenuSwitches, deniedKey?: string) => rule(({ switches }) => switches[name] === true, deniedKey);
const either = (a: Permission, b: Permission): Permission => rule((x) => a.allows(x) || b.allows(x), a.deniedKey);
/**
 * The shop's pages depend on their own switches only (the internal store, packages); store and crm hide
 * the orders/investments menu entry, not the pages, which stay reachable from My orders and the Home tabs.
 */
const shop = either(feature('packages'), feature('internalStore'));

export const PERMISSIONS = {
  network: rule(({ user }) => canSeeNetwork(user), 'network:forbidden'),
  referral: rule(({ user }) => canSeeReferral(user), 'referral:forbidden'),
  shop,
  shopProducts: feature('internalStore'),
  shopPackages: feature('packages'),
  crm: feature('crm'),
  kyc: feature('kyc'),
  mailbox: feature('supportMessage'),
  stories: feature('stories'),
  events: feature('events'),
  introVideo: feature('introVideo', 'account:introVideo.unavailable'),
  /** Spec §1: the binary tab, binary history and binary summary exist only in a binary plan. */
  binary: rule(({ switches }) => switches.binary !== false, 'network:plans.binaryOnly'),
  binaryHistory: both(rule(({ user }) => canSeeNetwork(user), 'network:forbidden'), rule(({ switches }) => switches.binary !== false, 'network:plans.binaryOnly')),
} satisfies Record<string, Permission>;

interface MenuSection {
  /** The entry's id (label `common:menu.<id>`, icon); the shop entry is named by the roi switch. */
  id: (s: MenuSwitches) => string;
  icon: (s: MenuSwitches) => MenuIcon;
  bottom?: boolean;
  /** Path prefixes highlighted as this entry besides its routes' own paths. */
  match?: string[];
  /** The entry's own rule besides its routes' permissions (spec §6: the orders/investments entry). */
  shown?: (s: MenuSwitches) => boolean;
}

const named = (id: string, icon: MenuIcon, extra: Omit<MenuSection, 'id' | 'icon'> = {}): MenuSection => ({ id: () => id, icon: () => icon, ...extra });
const investments = (s: MenuSwitches) => (s.roi ? 'investments' : 'orders');

/** The top-level entries of the menu, in sidebar order (spec §6). */
const SECTIONS = {
  home: named('home', 'home', { bottom: true, match: ['/member/home'] }),
  network: named('network', 'network', {
    bottom: true,
    match: ['/member/network', '/member/downlines', '/member/pv-history', '/member/binary-history', '/member/signup'],
  }),
  referral: named('referral', 'referral', { match: ['/member/referral'] }),
  wallet: named('wallet', 'wallet', { bottom: true, match: ['/member/wallet'] }),
  shop: { id: investments, icon: investments, bottom: true, shown: ordersEntry, match: ['/member/shopping', '/member/packages', '/member/payment', '/member/otc'] },
  crm: named('crm', 'crm', { bottom: true, match: ['/member/crm'] }),
  kyc: named('kyc', 'kyc'),
  mailbox: named('mailbox', 'mail', { match: ['/member/mail'] }),
  stories: named('stories', 'stories', { match: ['/member/story'] }),
  events: named('events', 'events', { match: ['/member/events', '/member/event'] }),
  myOrders: named('myOrders', 'myOrders'),
  notifications: named('notifications', 'notifications', { bottom: true }),
  account: named('account', 'account', { bottom: true, match: ['/member/account'] }),
  faqs: named('faqs', 'faqs'),
  support: named('support', 'support'),
} satisfies Record<string, MenuSection>;
export type MenuSectionId = keyof typeof SECTIONS;
const SECTION_ORDER = Object.keys(SECTIONS) as MenuSectionId[];

/** Where a member route shows in the menu: its section, and its sub-item id (none: the section's own link). */
export interface MenuPlacement {
  section: MenuSectionId;
  item?: string;
}

/** What the menu reads of a member route (src/app/member/route-table.tsx): path under /member, rule, place. */
export interface MenuRoute {
  path: string;
  permission?: Permission;
  menu?: MenuPlacement;
}

export function allows(route: Pick<MenuRoute, 'permission'>, access: Access): boolean {
  return !route.permission || route.permission.allows(access);
}

const label = (id: string) => `common:menu.${id}`;

function entry(id: string, link: string, icon: MenuIcon, extra: Partial<Omit<MenuEntry, 'id' | 'link' | 'icon' | 'labelKey'>> = {}): MenuEntry {
  return { id, labelKey: label(id), link, icon, match: extra.match ?? [link], ...extra };
}

/**
 * The menu, in sidebar order (spec §6), from the member route table: a section is shown when at least
 * one of its routes is allowed, with the allowed routes as sub-items (table order); its link is its own
 * route's, else its first sub-item's. The rules themselves are the routes' permissions (PERMISSIONS):
 * - Network only for role Affiliate (3), and never for merchant accounts; merchants also lose referral.
 * - An orders/investments entry when packages or internalStore is on and store and crm are off
 *   (labelled investments when roi is on, orders otherwise).
 * - CRM needs crm, KYC kyc, the mailbox supportMessage, stories stories, events events.
 * - Always: home, wallet, account, my orders, notifications, FAQs, support.
 */
export function buildMenu(routes: readonly MenuRoute[], s: MenuSwitches, user: MenuUser, flags: MenuFlags = {}): MenuEntry[] {
  const access: Access = { switches: s, user };
  const out: MenuEntry[] = [];
  for (const key of SECTION_ORDER) {
    const section: MenuSection = SECTIONS[key];
    if (section.shown && !section.shown(s)) continue;
    const shown = routes.filter((r) => r.menu?.section === key && allows(r, access));
    if (!shown.length) continue;
    const own = shown.find((r) => !r.menu?.item);
    const children = shown.flatMap((r) => (r.menu?.item ? [entry(r.menu.item, `/member${r.path}`, 'item')] : []));
    const link = own ? `/member${own.path}` : children[0].link;
    const count = key === 'notifications' ? Math.floor(flags.notificationCount ?? 0) : 0;
    out.push(
      entry(section.id(s), link, section.icon(s), {
        ...(section.bottom ? { bottom: true } : {}),
        ...(section.match ? { match: section.match } : {}),
        ...(children.length ? { children } : {}),
        ...(count > 0 ? { badge: count } : {}),
      }),
    );
  }
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
