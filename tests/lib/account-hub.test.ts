/** The hub's groups and the phone's "more" list, both read from the member menu built from the route table. */
import { describe, expect, it } from 'vitest';
import { MEMBER_ROUTES } from '../../src/app/member/route-table';
import { hubGroups, moreEntries } from '../../src/lib/account-hub';
import { bottomBar, buildMenu, PERMISSIONS, type MenuSwitches } from '../../src/lib/menu';

const OFF: MenuSwitches = { store: false, crm: false, packages: false, internalStore: false, roi: false, kyc: false, supportMessage: false, stories: false, events: false };
const affiliate = { role_id: 3, account_type: 'personal' } as const;
const menuFor = (over: Partial<MenuSwitches> = {}) => buildMenu(MEMBER_ROUTES, { ...OFF, ...over }, affiliate);

describe('hubGroups', () => {
  it('lists every account setting of the menu once, in its group, and the extra ones', () => {
    const menu = menuFor({ kyc: true, introVideo: true });
    const groups = hubGroups(menu);
    expect(groups.map((g) => g.id)).toEqual(['profile', 'security', 'payouts', 'preferences', 'help']);
    const all = groups.flatMap((g) => g.links.map((l) => l.link));
    expect(new Set(all).size).toBe(all.length);
    const accountItems = menu.find((e) => e.id === 'account')!.children!.filter((c) => c.id !== 'more');
    for (const item of accountItems) expect(all, item.id).toContain(item.link);
    expect(all).toEqual(expect.arrayContaining(['/member/kyc', '/member/account/faqs', '/member/account/two-factor']));
    expect(all).not.toContain('/member/account/more');
  });

  it('follows the switches: no KYC and no intro video when they are off', () => {
    const all = hubGroups(menuFor()).flatMap((g) => g.links.map((l) => l.link));
    expect(all).not.toContain('/member/kyc');
    expect(all).not.toContain('/member/account/intro-video');
    expect(PERMISSIONS.introVideo.allows({ switches: OFF, user: affiliate })).toBe(false);
    expect(PERMISSIONS.introVideo.deniedKey).toBe('account:introVideo.unavailable');
  });

  it('puts a setting it does not know under "other" rather than leaving it out', () => {
    const menu = [{ id: 'account', labelKey: 'common:menu.account', link: '/member/account', icon: 'account' as const, match: [], children: [{ id: 'brandNew', labelKey: 'common:menu.brandNew', link: '/member/account/brand-new', icon: 'item' as const, match: [] }] }];
    expect(hubGroups(menu).find((g) => g.id === 'other')?.links.map((l) => l.id)).toEqual(['brandNew']);
  });
});

describe('moreEntries', () => {
  it('is the menu without the bottom bar, whatever the switches', () => {
    for (const over of [{}, { crm: true }, { store: true, kyc: true, events: true }, { packages: true, supportMessage: true, stories: true }]) {
      const s = { ...OFF, ...over };
      const menu = buildMenu(MEMBER_ROUTES, s, affiliate);
      const bar = bottomBar(menu, s).map((e) => e.id);
      const more = moreEntries(menu, s).map((e) => e.id);
      expect([...bar, ...more].sort()).toEqual(menu.map((e) => e.id).sort());
      expect(more.some((id) => bar.includes(id))).toBe(false);
      expect(more).toEqual(expect.arrayContaining(['faqs', 'support']));
    }
  });
});
