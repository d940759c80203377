/**
 * Rendering views in tests: the app theme, Mantine in test mode (no transitions, no portals), and
 * real translations from public/locales through initI18nForTests. Also the few browser APIs jsdom
 * lacks that Mantine relies on.
 */
import { MantineProvider, type MantineColorScheme, type MantineColorSchemeManager } from '@mantine/core';
import { render, screen, waitFor, within, type RenderOptions } from '@testing-library/react';
import type { Resource, i18n as I18n } from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { initI18nForTests, readLocaleFiles } from '../../src/i18n/i18n';
import { theme } from '../../src/theme/theme';
import { readableColours } from '../../src/theme/readable-colours-resolved';

/** Evaluates (min-width|max-width: N(em|px)) against window.innerWidth (16 px per em). */
function matches(query: string): boolean {
  const width = window.innerWidth;
  const parts = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)(em|px|rem)\)/g)];
  if (!parts.length) return false;
  return parts.every(([, kind, value, unit]) => {
    const px = Number(value) * (unit === 'px' ? 1 : 16);
    return kind === 'min' ? width >= px : width <= px;
  });
}

if (typeof window !== 'undefined') {
  window.matchMedia = (query: string) =>
    ({
      matches: matches(query),
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
  Element.prototype.scrollIntoView ??= function scrollIntoView() {};
}

/** Sets the jsdom viewport width used by media queries. */
export function setViewportWidth(px: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: px });
}

/** The rows of a list's table on a wide screen, without its header row (the one of column headers). */
export function tableRows(root: HTMLElement = document.body): HTMLElement[] {
  return within(root)
    .queryAllByRole('row')
    .filter((row) => within(row).queryAllByRole('columnheader').length === 0);
}

/** Waits for a list's table to show rows, then gives them (tableRows). */
export async function findTableRows(root: HTMLElement = document.body): Promise<HTMLElement[]> {
  await waitFor(() => expect(tableRows(root).length).toBeGreaterThan(0));
  return tableRows(root);
}

/** The titles of a table's column headers, in order. */
export const columnHeaders = (table: HTMLElement = screen.getByRole('table')) => within(table).getAllByRole('columnheader').map((h) => h.textContent);

let cached: Resource | null = null;
export function localeResources(): Resource {
  cached ??= readLocaleFiles();
  return cached;
}

export interface RenderUiOptions extends Omit<RenderOptions, 'wrapper'> {
  lng?: string;
  /** Extra or replacement translations, merged over the real files per language and namespace. */
  resources?: Resource;
  colorScheme?: MantineColorScheme;
  colorSchemeManager?: MantineColorSchemeManager;
  i18n?: I18n;
}

function merge(base: Resource, extra: Resource | undefined): Resource {
  if (!extra) return base;
  const out: Resource = structuredClone(base);
  for (const [lng, namespaces] of Object.entries(extra)) {
    out[lng] ??= {};
    for (const [ns, keys] of Object.entries(namespaces)) {
      out[lng][ns] = { ...(out[lng][ns] as object), ...(keys as object) };
    }
  }
  return out;
}

export function Providers({
  children,
  i18n,
  colorScheme = 'light',
  colorSchemeManager,
}: {
  children: ReactNode;
  i18n: I18n;
  colorScheme?: MantineColorScheme;
  colorSchemeManager?: MantineColorSchemeManager;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} cssVariablesResolver={readableColours} env="test" defaultColorScheme={colorScheme} colorSchemeManager={colorSchemeManager}>
        {children}
      </MantineProvider>
    </I18nextProvider>
  );
}

export function renderUi(ui: ReactElement, options: RenderUiOptions = {}) {
  const { lng = 'en', resources, colorScheme, colorSchemeManager, i18n: given, ...rest } = options;
  const i18n = given ?? initI18nForTests(merge(localeResources(), resources), { lng });
  const result = render(ui, {
    ...rest,
    wrapper: ({ children }) => (
      <Providers i18n={i18n} colorScheme={colorScheme} colorSchemeManager={colorSchemeManager}>
        {children}
      </Providers>
    ),
  });
  return { ...result, i18n };
}
