/**
 * The parts member route entries are made of: menu placement, permissions, persistence choices, list
 * pages with their filters in the URL, tabbed pages. The route table and every area's route file
 * (src/app/member/routes/*.routes.tsx) build their entries from these.
 */
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { filtersFromSearch, filtersToSearch, sameFilters, type ListFilterState } from '../../lib/list-filters';
import { type MenuPlacement, type MenuSectionId, type Permission } from '../../lib/menu';
import { showToast } from '../../lib/toast';
import type { ListViewProps } from '../../views/wallet/wallet-lists.view';
import { SESSION, type PageEnv, type Persistence } from './member-route';

/**
 * The tree pages keep their actors in memory only: a loaded tree can hold tens of thousands of members,
 * more than is worth writing to sessionStorage on every change; a reload loads the tree again.
 */
export const TREE_MEMORY: Persistence = { kind: 'memory', reason: 'a loaded tree can hold tens of thousands of members' };
export const FILES_MEMORY: Persistence = { kind: 'memory', reason: 'the files a member chose cannot be saved in the tab' };

export const menu = (section: MenuSectionId, item?: string): { menu: MenuPlacement } => ({ menu: item ? { section, item } : { section } });
export const guarded = (permission: Permission, section: MenuSectionId, item?: string) => ({ permission, ...menu(section, item) });

/** Currency and date pattern of the network and referral views. */
export function formats(env: PageEnv) {
  return { currency: env.moduleData?.default_currency ?? null, datePattern: env.moduleData?.date_format ?? null };
}

// ── Lists with their filters in the URL ─────────────────────────────────────────────────────────────

/** The list filters of src/lib/list-filters.ts as a list page's URL input, followed by `list.setFilters`. */
export const LIST_FILTERS_URL = {
  codec: { parse: filtersFromSearch, format: filtersToSearch, equals: sameFilters },
  follow: {
    current: (s: { context: { filters: ListFilterState } }) => s.context.filters,
    event: (filters: ListFilterState) => ({ type: 'list.setFilters' as const, filters }),
  },
};

/**
 * An endless list page (with its entry's `machine`): filters from the URL as the list's input and
 * followed after, the view's filter bar writing the URL, the CSV download of the filtered rows, saved
 * in this tab.
 */
export function filteredList<A, E extends object = object>(
  View: (props: ListViewProps<A> & E) => ReactNode,
  download: (filters: ListFilterState) => Promise<unknown>,
  /** Further props of the view, from the member's environment (e.g. which shop pages the company has). */
  extra?: (env: PageEnv) => E,
) {
  return {
    input: ({ url }: { url: ListFilterState }) => ({ filters: url }),
    url: LIST_FILTERS_URL,
    persist: SESSION,
    view: ({ actor, url, setUrl, env }: { actor: A; url: ListFilterState; setUrl: (f: ListFilterState) => void; env: PageEnv }) => (
      <View
        {...((extra?.(env) ?? {}) as E)}
        actor={actor}
        onFilters={setUrl}
        onDownload={() => {
          download(url).catch((e: unknown) =>
            showToast({
              kind: 'error',
              // 429: the member's exports are throttled (a few per ten minutes).
              message: i18next.t((e as { status?: number } | null)?.status === 429 ? 'validation:throttle.exportsWait' : 'wallet:filters.downloadFailed'),
            }),
          );
        }}
      />
    ),
  };
}

/** A page that loads its figures: saved in this tab and fetched again when restored. */
export const LOADED = { persist: SESSION, refresh: { type: 'load.refresh' } } as const;

// ── Tabbed pages ────────────────────────────────────────────────────────────────────────────────────

export type Formats = ReturnType<typeof formats>;

/** A tab's view inside its page's tabs (home, wallet, network, referral), given the member's formats. */
export function tabView<A, T extends string>(
  Tabs: (props: { tab: T; children: ReactNode }) => ReactNode,
  tab: T,
  View: (props: { actor: A; env: PageEnv } & Formats) => ReactNode,
) {
  return ({ actor, env }: { actor: A; env: PageEnv }) => (
    <Tabs tab={tab}>
      <View actor={actor} env={env} {...formats(env)} />
    </Tabs>
  );
}

