/**
 * The shape of one member route (src/app/member/route-table.tsx): where it is, who may open it and
 * where the menu shows it (src/lib/menu.ts reads the same fields), and what it renders — a page with
 * its machine, URL codec, persistence and view; a redirect; the "coming soon" page of a section
 * not built yet; or a static screen without a flow of its own. Pages are created with `page()`
 * (src/app/member/member-page.tsx), which keeps the machine's types between the machine, the URL input
 * and the view.
 */
import type { ReactNode } from 'react';
import type { Actor, AnyStateMachine, EventFromLogic, InputFrom, SnapshotFrom } from 'xstate';
import type { MenuRoute } from '../../lib/menu';
import type { ModuleData, User } from '../../schemas/common.schema';
import type { SessionActor } from '../session-actor';

/** Route parameters (`/orders/:id` → `{ id: '381' }`). */
export type RouteParams = Record<string, string | undefined>;

/** A query string ↔ value pair: `parse` accepts any query (bad values fall back), `format` writes `?…` or ''. */
export interface UrlCodec<I> {
  parse(search: string): I;
  format(value: I): string;
  /** Two values mean the same page (default: the same formatted query). */
  equals?(a: I, b: I): boolean;
}

/** What every page may use besides its actor: the signed-in member, the session, the shell's badge. */
export interface PageEnv {
  user: User;
  moduleData: ModuleData | null;
  session: SessionActor;
  /** Reloads the unread-notifications badge of the menu. */
  refreshBadge(): void;
}

/** Props of a page's view: the page's own actor, typed by its machine, and its URL value. */
export interface PageViewProps<L extends AnyStateMachine, I> {
  actor: Actor<L>;
  /** The page's URL input, parsed from the query string. */
  url: I;
  /** Writes a new URL input to the query string (the actor follows the URL, not the other way round). */
  setUrl(value: I): void;
  env: PageEnv;
}

/** How a page's URL input reaches its actor. */
export interface UrlBinding<L extends AnyStateMachine, I> {
  codec: UrlCodec<I>;
  /**
   * Keeps the actor on the URL: whenever the query string's value differs from `current(snapshot)`
   * (compared by their formatted query), the page sends `event(value)`. Absent: the URL is read once,
   * as the machine's input.
   */
  follow?: {
    current(snapshot: SnapshotFrom<L>): I;
    event(value: I): EventFromLogic<L>;
  };
  /**
   * A change the view writes adds a history entry (default: Back undoes a filter or a search, staying on the
   * page) or replaces the current one (`'replace'`, for changes Back should skip).
   */
  history?: 'replace' | 'push';
}

/**
 * Where a page's actor state lives between visits in this tab: sessionStorage under
 * `upline.page.<id>[:params]` (restored on the next visit, cleared at logout), or memory only.
 */
export type Persistence = { kind: 'session' } | { kind: 'memory'; reason: string };

export const SESSION: Persistence = { kind: 'session' };

/** The page part of a route entry. */
export interface PageSpec<L extends AnyStateMachine, I> {
  /** Names the page's saved state (with the route's parameters): `upline.page.<id>`. */
  id: string;
  machine: L;
  /** Binds the machine's named actions for this member (toasts, the session, the menu badge). */
  provide?: (machine: L, env: PageEnv) => L;
  /** The machine's input from the URL value and the route parameters. */
  input?: (args: { url: I; params: RouteParams }) => InputFrom<L>;
  url?: UrlBinding<L, I>;
  persist: Persistence;
  /** Sent when the page opens on a restored snapshot, so figures saved earlier are fetched again. */
  refresh?: EventFromLogic<L>;
  /** A function component (called as `<View … />`, so it may use hooks). */
  view: (props: PageViewProps<L, I>) => ReactNode;
}

interface RouteBase extends MenuRoute {
  /** Path under /member in wouter's pattern syntax (`/orders/:id`, `/mail/conversation/:id?`). */
  path: string;
}

export interface PageRoute extends RouteBase {
  kind: 'page';
  persist: Persistence;
  /** Renders the page (src/app/member/member-page.tsx) for the matched parameters. */
  render(params: RouteParams): ReactNode;
}

export interface RedirectRoute extends RouteBase {
  kind: 'redirect';
  /** Path under /member. */
  to: string;
}

export interface ComingSoonRoute extends RouteBase {
  kind: 'comingSoon';
  /** i18n key (common namespace) of the section's title. */
  titleKey: string;
}

/**
 * A screen without a flow of its own — nothing to load, nothing to submit, only what the member's env
 * already holds (the menu's "more" list, the company's intro video): no actor, nothing persisted.
 */
export interface StaticRoute extends RouteBase {
  kind: 'static';
  render(env: PageEnv): ReactNode;
}

/** One entry of the member route table. */
export type MemberRoute = PageRoute | RedirectRoute | ComingSoonRoute | StaticRoute;

type Place = Omit<RouteBase, 'path'>;

export function redirect(path: string, to: string, place: Place = {}): RedirectRoute {
  return { kind: 'redirect', path, to, ...place };
}

export function staticPage(path: string, render: (env: PageEnv) => ReactNode, place: Place = {}): StaticRoute {
  return { kind: 'static', path, render, ...place };
}

export function comingSoon(path: string, titleKey: string, place: Place = {}): ComingSoonRoute {
  return { kind: 'comingSoon', path, titleKey, ...place };
}

/** The URL of a page without query input. */
export const NO_QUERY: UrlCodec<undefined> = { parse: () => undefined, format: () => '' };
