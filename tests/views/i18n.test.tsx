import { act, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, initI18n, initI18nForTests, readLocaleFiles } from '../../src/i18n/i18n';
import { NAMESPACES, SUPPORTED_LANGUAGES } from '../../src/i18n/languages';

function clearCookies() {
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0].trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
}

function setNavigatorLanguages(langs: string[]) {
  Object.defineProperty(window.navigator, 'languages', { configurable: true, get: () => langs });
  Object.defineProperty(window.navigator, 'language', { configurable: true, get: () => langs[0] });
}

beforeEach(() => {
  localStorage.clear();
  clearCookies();
  window.history.replaceState(null, '', '/login');
  setNavigatorLanguages(['en-US', 'en']);
  document.documentElement.lang = 'en';
});
afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

function Title() {
  const { t } = useTranslation('common');
  return <h1>{t('serverErrorTitle')}</h1>;
}

describe('language detection', () => {
  it('takes the language from the ?lng query parameter and caches it in localStorage and a cookie', () => {
    window.history.replaceState(null, '', '/login?lng=es');
    const i18n = initI18nForTests(undefined, { detect: true });
    expect(i18n.resolvedLanguage).toBe('es');
    expect(localStorage.getItem('i18nextLng')).toBe('es');
    expect(document.cookie).toContain('i18next=es');
    expect(document.documentElement.lang).toBe('es');
    render(<Title />);
    expect(screen.getByRole('heading')).toHaveTextContent('Algo salió mal');
  });

  it('takes a stored choice from the cookie, then from localStorage', () => {
    document.cookie = 'i18next=es; path=/';
    expect(initI18nForTests(undefined, { detect: true }).resolvedLanguage).toBe('es');
    clearCookies();
    localStorage.setItem('i18nextLng', 'es');
    expect(initI18nForTests(undefined, { detect: true }).resolvedLanguage).toBe('es');
  });

  it('the query parameter wins over storage', () => {
    localStorage.setItem('i18nextLng', 'es');
    window.history.replaceState(null, '', '/login?lng=en');
    expect(initI18nForTests(undefined, { detect: true }).resolvedLanguage).toBe('en');
  });

  it('uses the browser language when nothing is stored (es-MX → es)', () => {
    setNavigatorLanguages(['es-MX', 'es']);
    expect(initI18nForTests(undefined, { detect: true }).resolvedLanguage).toBe('es');
  });

  it('falls back to English for unsupported languages', () => {
    window.history.replaceState(null, '', '/login?lng=fr');
    setNavigatorLanguages(['de-DE']);
    const i18n = initI18nForTests(undefined, { detect: true });
    expect(i18n.resolvedLanguage).toBe('en');
    render(<Title />);
    expect(screen.getByRole('heading')).toHaveTextContent('Something went wrong');
  });

  it('changeLanguage switches the text, <html lang> and remembers the choice', async () => {
    initI18nForTests(undefined, { detect: true });
    render(<Title />);
    expect(screen.getByRole('heading')).toHaveTextContent('Something went wrong');
    await act(() => changeLanguage('es'));
    expect(await screen.findByText('Algo salió mal')).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('es');
    expect(localStorage.getItem('i18nextLng')).toBe('es');
    expect(document.cookie).toContain('i18next=es');
  });
});

describe('translation files', () => {
  function keys(obj: unknown, prefix = ''): string[] {
    if (!obj || typeof obj !== 'object') return [prefix];
    return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  }

  it('every namespace exists in every language with the same keys', () => {
    const resources = readLocaleFiles();
    for (const ns of NAMESPACES) {
      const en = keys(resources.en[ns]).sort();
      for (const lng of SUPPORTED_LANGUAGES) {
        expect(keys(resources[lng][ns]).sort(), `${lng}/${ns}.json`).toEqual(en);
      }
    }
    expect(keys(resources.en.common)).toEqual(
      expect.arrayContaining(['serverErrorTitle', 'serverErrorDescription', 'connectionErrorTitle', 'connectionErrorDescription', 'featureUnavailableInDemo', 'optional']),
    );
  });
});

describe('loading over HTTP', () => {
  function json(body: unknown, status = 200) {
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }

  it('loads /locales/{lng}/{ns}.json, retries failed reads with growing delays, loads other namespaces on demand', async () => {
    const files: Record<string, unknown> = {
      '/locales/en/common.json': { retry: 'Retry' },
      '/locales/en/auth.json': { login: 'Log in' },
      '/locales/en/validation.json': { required: 'Required' },
      '/locales/en/wallet.json': { balance: 'Balance' },
    };
    const failuresLeft: Record<string, number> = { '/locales/en/common.json': 2 };
    const calls: Array<{ url: string; at: number }> = [];
    const start = Date.now();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = String(input);
        calls.push({ url, at: Date.now() - start });
        if ((failuresLeft[url] ?? 0) > 0) {
          failuresLeft[url] -= 1;
          return json({ message: 'unavailable' }, 503);
        }
        return url in files ? json(files[url]) : json({}, 404);
      }),
    );

    const i18n = await initI18n(i18next.createInstance());
    expect(i18n.resolvedLanguage).toBe('en');
    expect(i18n.t('retry')).toBe('Retry');
    expect(i18n.t('auth:login')).toBe('Log in');

    const commonReads = calls.filter((c) => c.url === '/locales/en/common.json');
    expect(commonReads).toHaveLength(3);
    // first retry after ≥ 350 ms, the second after a longer wait
    expect(commonReads[1].at - commonReads[0].at).toBeGreaterThanOrEqual(340);
    expect(commonReads[2].at - commonReads[1].at).toBeGreaterThanOrEqual(commonReads[1].at - commonReads[0].at);
    expect(calls.some((c) => c.url.includes('wallet'))).toBe(false);

    await i18n.loadNamespaces('wallet');
    expect(calls.map((c) => c.url)).toContain('/locales/en/wallet.json');
    expect(i18n.t('wallet:balance')).toBe('Balance');
  });
});
