import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { bottomBar, buildMenu, type MenuSwitches } from '../../src/lib/menu';
import { MEMBER_ROUTES } from '../../src/app/member/route-table';
import { MemberShellView, SIDEBAR_STORAGE_KEY } from '../../src/views/member/member-shell.view';
import { renderUi, setViewportWidth } from '../support/render-ui';

afterEach(() => {
  localStorage.clear();
  setViewportWidth(1024);
});

const off: MenuSwitches = { store: false, crm: false, packages: false, internalStore: false, roi: false, kyc: false, supportMessage: false, stories: false, events: false };
const affiliate = { role_id: 3 as const, account_type: 'personal' as const };

function shell(s: MenuSwitches, user: typeof affiliate | { role_id: 3; account_type: 'merchant' } = affiliate, count = 0, path = '/member/home/dashboard') {
  const menu = buildMenu(MEMBER_ROUTES, s, user, { notificationCount: count });
  return (
    <MemberShellView
      user={{ first_name: 'Ana', last_name: 'Ruiz', avatar: null, username: 'ana' }}
      languages={[]}
      currentLanguage="en"
      onLanguage={() => {}}
      onLogout={() => {}}
      menu={menu}
      bottom={bottomBar(menu, s)}
      path={path}
    >
      <p>content</p>
    </MemberShellView>
  );
}

const sidebarLabels = () =>
  Array.from(screen.getByRole('navigation', { name: 'Main menu' }).querySelectorAll('[data-menu-id]')).map((el) => el.getAttribute('data-menu-id'));

describe('member shell menu', () => {
  it('desktop: affiliate with every switch off sees network, referral and the always-present entries; the active entry is marked', () => {
    setViewportWidth(1280);
    renderUi(shell(off));
    const ids = sidebarLabels();
    expect(ids).toEqual(expect.arrayContaining(['home', 'network', 'referral', 'wallet', 'myOrders', 'notifications', 'account', 'faqs', 'support']));
    expect(ids).not.toContain('crm');
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#member-main');
  });

  it('merchant loses network and referral; crm, kyc and events appear with their switches', () => {
    setViewportWidth(1280);
    renderUi(shell({ ...off, crm: true, kyc: true, events: true }, { role_id: 3, account_type: 'merchant' }));
    const ids = sidebarLabels();
    expect(ids).not.toContain('network');
    expect(ids).not.toContain('referral');
    expect(ids).toEqual(expect.arrayContaining(['crm', 'kyc', 'events']));
  });

  it('menu groups are buttons reached with Tab and opened with Enter or Space; the active group is open', async () => {
    setViewportWidth(1280);
    renderUi(shell(off, affiliate, 0, '/member/wallet/statement'));
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    const wallet = within(nav).getByRole('button', { name: 'Wallet' });
    expect(wallet).toHaveAttribute('aria-expanded', 'true');
    const network = within(nav).getByRole('button', { name: 'Network' });
    expect(network).toHaveAttribute('aria-expanded', 'false');
    const user = userEvent.setup();
    within(nav).getByRole('link', { name: 'Home' }).focus();
    await user.tab();
    expect(network).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(network).toHaveAttribute('aria-expanded', 'true');
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Genealogy' })).toBeVisible());
    await user.keyboard(' ');
    expect(network).toHaveAttribute('aria-expanded', 'false');
  });

  it('the notifications entry shows the unread badge', () => {
    setViewportWidth(1280);
    renderUi(shell(off, affiliate, 7));
    expect(screen.getByLabelText('7 unread')).toHaveTextContent('7');
  });

  it('the sidebar collapses to icons with accessible names and the choice is remembered', async () => {
    setViewportWidth(1280);
    const { unmount } = renderUi(shell(off));
    await userEvent.click(screen.getByRole('button', { name: 'Collapse sidebar' }));
    expect(document.querySelector('[data-sidebar]')).toHaveAttribute('data-sidebar', 'collapsed');
    expect(screen.getByRole('link', { name: 'Wallet' })).toBeInTheDocument();
    expect(localStorage.getItem(SIDEBAR_STORAGE_KEY)).toBe('true');
    unmount();
    renderUi(shell(off));
    expect(document.querySelector('[data-sidebar]')).toHaveAttribute('data-sidebar', 'collapsed');
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toBeInTheDocument();
  });

  it('at 375 px the bottom bar shows the first 5 bottom entries plus More; 6 with packages on and store off', () => {
    setViewportWidth(375);
    const { unmount } = renderUi(shell(off, affiliate, 3));
    const bar = screen.getByRole('navigation', { name: 'Quick menu' });
    const items = within(bar).getAllByRole('link').map((a) => a.getAttribute('data-menu-id'));
    expect(items).toEqual(['home', 'network', 'wallet', 'notifications', 'account']);
    expect(within(bar).getByRole('button', { name: 'More' })).toBeInTheDocument();
    expect(within(bar).getByLabelText('3 unread')).toBeInTheDocument();
    unmount();
    renderUi(shell({ ...off, packages: true }));
    expect(within(screen.getByRole('navigation', { name: 'Quick menu' })).getAllByRole('link')).toHaveLength(6);
  });

  it('at 375 px "More" opens the full menu with the entries the bar leaves out; choosing one closes it', async () => {
    setViewportWidth(375);
    renderUi(shell({ ...off, kyc: true }, affiliate, 0, '/member/account/faqs'));
    const bar = screen.getByRole('navigation', { name: 'Quick menu' });
    const inBar = within(bar).getAllByRole('link').map((a) => a.getAttribute('data-menu-id'));
    expect(inBar).not.toContain('faqs');
    // The current page is only in the full menu, so More carries the highlight.
    const more = within(bar).getByRole('button', { name: 'More' });
    expect(more).toHaveAttribute('aria-current', 'page');
    const burger = screen.getByRole('button', { name: 'Open menu' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(more);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    const full = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(full).getByRole('link', { name: 'FAQs' })).toHaveAttribute('aria-current', 'page');
    expect(within(full).getByRole('link', { name: 'KYC' })).toBeInTheDocument();
    await userEvent.click(within(full).getByRole('link', { name: 'KYC' }));
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});
