/**
 * What the account hub (/member/account) and the "more" page (/member/account/more) list, derived from the
 * member menu (src/lib/menu.ts `buildMenu`, itself read from the route table): one list of account settings,
 * so a setting added to the table (with its `menu('account', item)`) appears in the sidebar, the hub and on
 * phones alike, and one that a switch hides (KYC, the intro video) is hidden everywhere.
 */
import { bottomBar, type MenuEntry, type MenuSwitches } from './menu';

export const HUB_GROUPS = ['profile', 'security', 'payouts', 'preferences', 'help', 'other'] as const;
export type HubGroupId = (typeof HUB_GROUPS)[number];

export interface HubLink {
  id: string;
  /** i18n key with its namespace (`common:menu.password`). */
  labelKey: string;
  /** Full path (`/member/account/password`). */
  link: string;
}

export interface HubGroup {
  id: HubGroupId;
  links: HubLink[];
}

/** Where each setting of the menu sits on the hub; a setting not named here is listed under "other". */
const GROUP_OF: Record<string, HubGroupId> = {
  profile: 'profile',
  email: 'profile',
  phone: 'profile',
  addresses: 'profile',
  kyc: 'profile',
  password: 'security',
  walletPassword: 'security',
  twoFactor: 'security',
  bank: 'payouts',
  payoutSettings: 'payouts',
  language: 'preferences',
  currency: 'preferences',
  dateFormat: 'preferences',
  notificationSettings: 'preferences',
  introVideo: 'help',
  faqs: 'help',
};

/** Menu sections whose own entry is an account setting besides the account section's items. */
const SECTIONS_ON_HUB = ['kyc', 'faqs'];
/** Account items that are not settings: the phone's list of the rest of the menu. */
const NOT_ON_HUB = new Set(['more']);

/** Settings the hub links although the menu does not list them (their pages are reached from here). */
export const HUB_EXTRA_LINKS: readonly HubLink[] = [{ id: 'twoFactor', labelKey: 'account:hub.links.twoFactor', link: '/member/account/two-factor' }];

/** The hub's groups, in HUB_GROUPS order, empty ones left out; each link once (by path). */
export function hubGroups(menu: readonly MenuEntry[]): HubGroup[] {
  const account = menu.find((e) => e.id === 'account');
  const links: HubLink[] = [
    ...(account?.children ?? []).filter((c) => !NOT_ON_HUB.has(c.id)),
    ...menu.filter((e) => SECTIONS_ON_HUB.includes(e.id)),
    ...HUB_EXTRA_LINKS,
  ].map(({ id, labelKey, link }) => ({ id, labelKey, link }));
  const seen = new Set<string>();
  const unique = links.filter((l) => !seen.has(l.link) && seen.add(l.link));
  return HUB_GROUPS.map((id) => ({ id, links: unique.filter((l) => (GROUP_OF[l.id] ?? 'other') === id) })).filter((g) => g.links.length);
}

/** The menu entries the phone's bottom bar leaves out (spec §6: the first 5 or 6 bottom entries are shown). */
export function moreEntries(menu: MenuEntry[], switches: MenuSwitches): MenuEntry[] {
  const shown = new Set(bottomBar(menu, switches).map((e) => e.id));
  return menu.filter((e) => !shown.has(e.id));
}
