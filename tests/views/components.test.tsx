import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { colourSchemeManager, COLOUR_SCHEME_COOKIE, COLOUR_SCHEME_KEY } from '../../src/lib/colour-scheme';
import { ColourSchemeToggle } from '../../src/views/components/colour-scheme-toggle';
import { EmptyState } from '../../src/views/components/empty-state';
import { ErrorView } from '../../src/views/components/error-view';
import { useFieldError } from '../../src/views/components/field-error';
import { FullPageError } from '../../src/views/components/full-page-error';
import { LanguageSwitch } from '../../src/views/components/language-switch';
import { OverlaySpinner } from '../../src/views/components/overlay-spinner';
import { PageLoader, Spinner } from '../../src/views/components/page-loader';
import { PublicLayout } from '../../src/views/components/public-layout';
import { RouterErrorBoundary } from '../../src/views/components/router-error';
import { renderUi } from '../support/render-ui';

afterEach(() => {
  localStorage.clear();
  document.cookie = `${COLOUR_SCHEME_COOKIE}=; path=/; max-age=0`;
  document.cookie = 'i18next=; path=/; max-age=0';
  document.documentElement.removeAttribute('data-mantine-color-scheme');
});

const languages = [
  { code: 'en', name: 'English', native_name: 'English' },
  { code: 'es', name: 'Spanish', native_name: 'Español' },
];

describe('ErrorView', () => {
  it('server kind: server image, title, description, retry calls back', async () => {
    const onRetry = vi.fn();
    const { container } = renderUi(<ErrorView kind="server" onRetry={onRetry} />);
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText(/Our server could not complete your request/)).toBeInTheDocument();
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/images/server-error.svg');
    expect(img.style.height).toBe('25vh');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('connection kind: maintenance image and connection texts', () => {
    const { container } = renderUi(<ErrorView kind="connection" onRetry={() => {}} />);
    expect(screen.getByRole('heading', { name: 'No connection' })).toBeInTheDocument();
    expect(screen.getByText(/Check your internet connection/)).toBeInTheDocument();
    expect(container.querySelector('img')!.getAttribute('src')).toBe('/images/maintenance.svg');
  });

  it('compact variant uses a small image; retrying disables the button', () => {
    const { container } = renderUi(<ErrorView kind="server" onRetry={() => {}} compact retrying />);
    expect(container.querySelector('img')!.style.height).not.toBe('25vh');
    expect(screen.getByRole('button', { name: /Retry/ })).toBeDisabled();
  });

  it('renders in Spanish', () => {
    renderUi(<ErrorView kind="connection" onRetry={() => {}} />, { lng: 'es' });
    expect(screen.getByRole('heading', { name: 'Sin conexión' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
  });
});

describe('FullPageError', () => {
  it('shows the given title and description with an uppercase RETRY button', async () => {
    const onRetry = vi.fn();
    renderUi(<FullPageError title="Could not start" description="The app failed to load." onRetry={onRetry} />);
    expect(screen.getByRole('heading', { name: 'Could not start' })).toBeInTheDocument();
    expect(screen.getByText('The app failed to load.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'RETRY' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

describe('spinners', () => {
  it('PageLoader and Spinner are announced as loading', () => {
    renderUi(
      <>
        <PageLoader />
        <Spinner />
      </>,
    );
    expect(screen.getAllByRole('status', { name: 'Loading…' })).toHaveLength(2);
  });

  it('OverlaySpinner announces loading only while visible', () => {
    const { rerender } = renderUi(<OverlaySpinner visible={false} />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    rerender(<OverlaySpinner visible />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
  });
});

describe('EmptyState', () => {
  it('defaults to the generic texts and shows given ones', () => {
    const { rerender } = renderUi(<EmptyState />);
    expect(screen.getByRole('heading', { name: 'Nothing here yet' })).toBeInTheDocument();
    rerender(<EmptyState title="No payouts" description="Request one from your wallet." />);
    expect(screen.getByRole('heading', { name: 'No payouts' })).toBeInTheDocument();
    expect(screen.getByText('Request one from your wallet.')).toBeInTheDocument();
  });
});

describe('PublicLayout', () => {
  const company = { name: 'Acme Network', logo: '/uploads/acme.png' };

  it('shows the company logo above the page and the footer with year, company and rights notice', () => {
    renderUi(
      <PublicLayout company={company}>
        <p>Sign in form</p>
      </PublicLayout>,
    );
    const logo = screen.getByRole('img', { name: 'Acme Network logo' });
    expect(logo).toHaveAttribute('src', '/uploads/acme.png');
    expect(logo.style.maxHeight).toMatch(/50px|3\.125rem/);
    expect(screen.getByText('Sign in form')).toBeInTheDocument();
    const footer = screen.getByRole('contentinfo');
    expect(footer).toHaveTextContent(`© ${new Date().getFullYear()} Acme Network. All rights reserved.`);
    expect(within(screen.getByRole('main')).getByText('Sign in form')).toBeInTheDocument();
  });

  it('without company: no logo, the app name in the footer', () => {
    renderUi(
      <PublicLayout company={null}>
        <p>content</p>
      </PublicLayout>,
    );
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toHaveTextContent(`© ${new Date().getFullYear()} Upline.`);
  });

  it('the language switch in the top bar changes the page language', async () => {
    const { i18n } = renderUi(
      <PublicLayout company={company}>
        <p>content</p>
      </PublicLayout>,
    );
    const banner = screen.getByRole('banner');
    const select = within(banner).getByRole('combobox', { name: 'Language' });
    expect(select).toHaveValue('en');
    await userEvent.selectOptions(select, 'Español');
    expect(i18n.language).toBe('es');
    expect(await screen.findByText(/Todos los derechos reservados/)).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('es');
    expect(within(banner).getByRole('button', { name: /Cambiar a modo oscuro/ })).toBeInTheDocument();
    expect(within(banner).getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
  });
});

describe('LanguageSwitch', () => {
  it('lists languages by native name, shows the current one and reports the chosen code', async () => {
    const onChange = vi.fn();
    renderUi(<LanguageSwitch languages={languages} current="en" onChange={onChange} />);
    const select = screen.getByRole('combobox', { name: 'Language' });
    expect(select).toHaveValue('en');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['English', 'Español']);
    await userEvent.selectOptions(select, 'Español');
    expect(onChange).toHaveBeenCalledWith('es');
  });

  it('a regional current language selects its base language; a single language shows no switch', () => {
    const onChange = vi.fn();
    const { rerender } = renderUi(<LanguageSwitch languages={languages} current="es-MX" onChange={onChange} />);
    expect(screen.getByRole('combobox', { name: 'Language' })).toHaveValue('es');
    rerender(<LanguageSwitch languages={languages.slice(0, 1)} current="en" onChange={onChange} />);
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
  });
});

describe('ColourSchemeToggle', () => {
  it('is light by default, switches to dark and remembers it in localStorage and a one-year cookie', async () => {
    renderUi(<ColourSchemeToggle />, { colorSchemeManager: colourSchemeManager });
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(localStorage.getItem(COLOUR_SCHEME_KEY)).toBe('dark');
    expect(document.cookie).toContain(`${COLOUR_SCHEME_COOKIE}=dark`);
    expect(screen.getByRole('button', { name: 'Switch to light mode' })).toBeInTheDocument();
  });

  it('a remembered dark choice is applied on start, from storage or from the cookie alone', () => {
    localStorage.setItem(COLOUR_SCHEME_KEY, 'dark');
    expect(colourSchemeManager.get('light')).toBe('dark');
    localStorage.clear();
    document.cookie = `${COLOUR_SCHEME_COOKIE}=dark; path=/`;
    expect(colourSchemeManager.get('light')).toBe('dark');
    renderUi(<ColourSchemeToggle />, { colorSchemeManager: colourSchemeManager });
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(screen.getByRole('button', { name: 'Switch to light mode' })).toBeInTheDocument();
  });

  it('"auto" follows the device (light here) and a switch sets the other scheme', async () => {
    localStorage.setItem(COLOUR_SCHEME_KEY, 'auto');
    renderUi(<ColourSchemeToggle />, { colorSchemeManager: colourSchemeManager });
    await userEvent.click(screen.getByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(localStorage.getItem(COLOUR_SCHEME_KEY)).toBe('dark');
  });

  it('the page does not animate into the other scheme: transitions are off for a moment', async () => {
    renderUi(<ColourSchemeToggle />, { colorSchemeManager: colourSchemeManager });
    vi.useFakeTimers();
    try {
      const before = new Set(document.head.querySelectorAll('style[data-mantine-disable-transition]'));
      act(() => screen.getByRole('button', { name: 'Switch to dark mode' }).click());
      const paused = [...document.head.querySelectorAll('style[data-mantine-disable-transition]')].filter((s) => !before.has(s));
      expect(paused).toHaveLength(1);
      expect(paused[0].textContent).toContain('transition: none');
      act(() => void vi.advanceTimersByTime(20));
      expect(paused[0].isConnected).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('RouterErrorBoundary', () => {
  function Boom({ message }: { message: string }): never {
    throw new Error(message);
  }

  it('shows the unexpected-error page with the error text and a reload button', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onReload = vi.fn();
    renderUi(
      <RouterErrorBoundary onReload={onReload}>
        <Boom message="Cannot read properties of undefined (reading 'wallet')" />
      </RouterErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText("Cannot read properties of undefined (reading 'wallet')")).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reload page' }));
    expect(onReload).toHaveBeenCalledOnce();
  });

  it('explains chunk-load failures and recovers when the reset key changes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Harness() {
      const [key, setKey] = useState('/member/wallet');
      return (
        <>
          <button onClick={() => setKey('/member/home')}>go home</button>
          <RouterErrorBoundary resetKey={key}>
            {key === '/member/wallet' ? (
              <Boom message="Failed to fetch dynamically imported module: /assets/wallet.js" />
            ) : (
              <p>Home works</p>
            )}
          </RouterErrorBoundary>
        </>
      );
    }
    renderUi(<Harness />);
    expect(screen.getByText(/A new version of the app may be available/)).toBeInTheDocument();
    await act(async () => screen.getByRole('button', { name: 'go home' }).click());
    expect(screen.getByText('Home works')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Unexpected Application Error!' })).not.toBeInTheDocument();
  });
});

describe('useFieldError', () => {
  function Field({ fields, name }: { fields: Record<string, string | undefined> | null; name: string }) {
    const error = useFieldError(fields);
    return <p data-testid="error">{error(name) ?? 'none'}</p>;
  }
  const resources = {
    en: { validation: { required: 'This field is required', email: 'Enter a valid e-mail address' } },
    es: { validation: { required: 'Este campo es obligatorio' } },
  };

  it('translates namespaced server keys and plain client keys, passes other text through', () => {
    const fields = { email: 'validation:email', username: 'required', phone: 'The phone is taken: try another.' };
    const { rerender } = renderUi(<Field fields={fields} name="email" />, { resources });
    expect(screen.getByTestId('error')).toHaveTextContent('Enter a valid e-mail address');
    rerender(<Field fields={fields} name="username" />);
    expect(screen.getByTestId('error')).toHaveTextContent('This field is required');
    rerender(<Field fields={fields} name="phone" />);
    expect(screen.getByTestId('error')).toHaveTextContent('The phone is taken: try another.');
    rerender(<Field fields={fields} name="password" />);
    expect(screen.getByTestId('error')).toHaveTextContent('none');
    rerender(<Field fields={null} name="email" />);
    expect(screen.getByTestId('error')).toHaveTextContent('none');
  });

  it('uses the active language', () => {
    renderUi(<Field fields={{ first_name: 'validation:required' }} name="first_name" />, { resources, lng: 'es' });
    expect(screen.getByTestId('error')).toHaveTextContent('Este campo es obligatorio');
  });
});

describe('TabbedPage', () => {
  it('titles the page, shows each tab as a link to its URL with the active one selected, and labels the panel', async () => {
    const { memoryLocation } = await import('wouter/memory-location');
    const { Router } = await import('wouter');
    const { TabbedPage } = await import('../../src/views/components/tabbed-page');
    const memory = memoryLocation({ path: '/area/one', record: true });
    renderUi(
      <Router hook={memory.hook}>
        <TabbedPage title="Area" tabs={['one', 'two'] as const} tab="one" label={(k) => `Tab ${k}`} href={(k) => `/area/${k}`}>
          <p>content of one</p>
        </TabbedPage>
      </Router>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Area' })).toBeInTheDocument();
    const one = screen.getByRole('tab', { name: 'Tab one', selected: true });
    const two = screen.getByRole('tab', { name: 'Tab two', selected: false });
    expect(two).toHaveAttribute('href', '/area/two');
    expect(within(screen.getByRole('tabpanel', { name: 'Tab one' })).getByText('content of one')).toBeInTheDocument();
    expect(one).toHaveAttribute('href', '/area/one');
    await userEvent.click(two);
    expect(memory.history).toEqual(['/area/one', '/area/two']);
  });
});
