import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { colourSchemeManager, COLOUR_SCHEME_COOKIE } from '../../src/lib/colour-scheme';
import { MemberShellView } from '../../src/views/member/member-shell.view';
import { renderUi, setViewportWidth } from '../support/render-ui';

afterEach(() => {
  localStorage.clear();
  document.cookie = `${COLOUR_SCHEME_COOKIE}=; path=/; max-age=0`;
  document.documentElement.removeAttribute('data-mantine-color-scheme');
  setViewportWidth(1024);
});

const languages = [
  { code: 'en', name: 'English', native_name: 'English' },
  { code: 'es', name: 'Spanish', native_name: 'Español' },
];
const user = { first_name: 'Ana', last_name: '  Pérez  ', avatar: null, username: 'ana' };

function shell(overrides: Partial<Parameters<typeof MemberShellView>[0]> = {}) {
  return (
    <MemberShellView
      user={user}
      company={{ name: 'Acme Network', logo: null, logo_small: null }}
      languages={languages}
      currentLanguage="en"
      onLanguage={() => {}}
      onLogout={() => {}}
      {...overrides}
    >
      <h1>Dashboard</h1>
    </MemberShellView>
  );
}

describe('MemberShellView', () => {
  it('header shows the company name, the member avatar and full name (last name trimmed); content in main', () => {
    renderUi(shell());
    const header = screen.getByRole('banner');
    expect(within(header).getByText('Acme Network')).toBeInTheDocument();
    const member = within(header).getByRole('group', { name: 'Account of Ana Pérez' });
    expect(within(member).getByText('Ana Pérez')).toBeInTheDocument();
    expect(within(member).getByText('AP')).toBeInTheDocument();
    expect(within(screen.getByRole('main')).getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });

  it('shows the avatar picture when the member has one and the app name without a company', () => {
    renderUi(shell({ user: { ...user, last_name: null, avatar: '/storage/ana.png' }, company: null }));
    const header = screen.getByRole('banner');
    expect(within(header).getByText('Upline')).toBeInTheDocument();
    expect(within(header).getByRole('img', { name: 'Ana' })).toHaveAttribute('src', '/storage/ana.png');
  });

  it('the company\'s full logo (a wordmark) stands for its name from small tablets up; phones show its mark whole, never squeezed', () => {
    setViewportWidth(360);
    renderUi(shell({ company: { name: 'Acme Network', logo: '/storage/acme-wordmark.svg', logo_small: '/storage/acme-a.png' } }));
    const header = screen.getByRole('banner');
    const [full, mark] = within(header).getAllByRole('img', { name: 'Acme Network' });
    expect(full).toHaveAttribute('src', '/storage/acme-wordmark.svg');
    expect(full.className).toMatch(/visible-from-xs/);
    expect(full.style.width).toBe('auto');
    expect(mark).toHaveAttribute('src', '/storage/acme-a.png');
    expect(mark.className).toMatch(/hidden-from-xs/);
    expect(mark.style.width).toMatch(/\b2rem\b/); // 32 px, as tall as it is wide
    expect(mark.style.flexShrink).toBe('0');
  });

  it('a company with only a wordmark shows it on phones too, at its own width', () => {
    setViewportWidth(360);
    renderUi(shell({ company: { name: 'Acme Network', logo: '/storage/acme-wordmark.svg', logo_small: null } }));
    const mark = within(screen.getByRole('banner')).getAllByRole('img', { name: 'Acme Network' })[1];
    expect(mark).toHaveAttribute('src', '/storage/acme-wordmark.svg');
    expect(mark.style.width).toBe('auto');
  });

  it('language switch and Logout call back', async () => {
    const onLanguage = vi.fn();
    const onLogout = vi.fn();
    renderUi(shell({ onLanguage, onLogout }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Español');
    expect(onLanguage).toHaveBeenCalledWith('es');
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('while logging out the Logout button is disabled and loading is announced', () => {
    renderUi(shell({ busy: true }));
    expect(screen.getByRole('button', { name: 'Logout' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
  });

  it('at 360 px every header control is still there (the name hides behind the avatar)', () => {
    setViewportWidth(360);
    renderUi(shell());
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(within(header).getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    expect(within(header).getByRole('button', { name: 'Switch to dark mode' })).toBeInTheDocument();
    expect(within(header).getByText('Ana Pérez')).toHaveClass('mantine-visible-from-xs');
  });

  it('renders in dark mode and the member can switch back to light', async () => {
    localStorage.setItem('mantine-color-scheme-value', 'dark');
    renderUi(shell(), { colorSchemeManager: colourSchemeManager });
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(localStorage.getItem('mantine-color-scheme-value')).toBe('light');
  });

  it('renders in Spanish', () => {
    renderUi(shell({ currentLanguage: 'es' }), { lng: 'es' });
    expect(screen.getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
  });
});
