/**
 * The one way a member page runs (docs/ARCHITECTURE.md, "Member pages"): `MemberRoutes` renders the
 * route table inside the member shell, checks each entry's permission (the forbidden view), and
 * `MemberPage` creates and owns the page's actor — restored from and saved to sessionStorage when the
 * entry says so, refreshed when restored, fed the URL's input whenever the query string changes —
 * and renders the entry's view with that actor.
 */
import { useActorRef } from '@xstate/react';
import { createContext, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { matchRoute, Redirect, Route, Switch, useLocation, useSearch, type Parser } from 'wouter';
import { allows, type Access } from '../../lib/menu';
import { ComingSoonView } from '../../views/member/coming-soon.view';
import { ForbiddenView } from '../../views/member/forbidden.view';
import { NotFoundView } from '../../views/public/not-found.view';
import { PageLoader } from '../../views/components/page-loader';
import { NO_QUERY, type MemberRoute, type PageEnv, type PageRoute, type PageSpec, type RouteParams, type StaticRoute, type UrlBinding } from './member-route';
import { isReplaying, restoredPageSnapshot, savePageSnapshot } from './page-actor';
import { supportTrail } from '../../lib/support-trail';

export const MEMBER_HOME = '/home/dashboard';

/** What the member area gives its pages: who the member is (for the guards) and the page environment. */
export interface MemberPageContext {
  access: Access;
  env: PageEnv;
}

const PageContext = createContext<MemberPageContext | null>(null);
export const MemberPageProvider = PageContext.Provider;

/** The route's named parameters, in path order: `orders.detail` + `{ id: '381' }` → `orders.detail:381`. */
function storageKey(id: string, path: string, params: RouteParams): string {
  const names = [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]);
  return [id, ...names.flatMap((n) => (params[n] ? [params[n]] : []))].join(':');
}

type Spec<L extends AnyStateMachine, I> = PageSpec<L, I> & { url: UrlBinding<L, I> };

/** A page of the member area: one actor per opened page, owned by this component. */
export function MemberPage<L extends AnyStateMachine, I>({ spec, params, pageKey, env, routePath = '' }: { spec: Spec<L, I>; params: RouteParams; pageKey: string; env: PageEnv; routePath?: string }) {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const { codec, follow, history = 'push' } = spec.url;
  const value = useMemo(() => codec.parse(search), [codec, search]);
  const query = codec.format(value);

  const [start] = useState(() => {
    const logic = spec.provide ? spec.provide(spec.machine, env) : spec.machine;
    const input = spec.input?.({ url: value, params });
    const snapshot = spec.persist.kind === 'session' || isReplaying() ? restoredPageSnapshot(pageKey, logic, input) : undefined;
    return { logic, input, snapshot };
  });
  const actor = useActorRef(start.logic, { input: start.input, snapshot: start.snapshot, inspect: supportTrail.inspect });

  // Where the page is open (its URL under the app), as the member last saw it: a support snapshot reopens it there.
  const url = useRef('');
  url.current = `/member${location === '/' ? '' : location}${search ? `?${search}` : ''}`;

  // Open pages, and pages left in this tab, are part of a support snapshot (src/lib/support-snapshot.ts).
  useEffect(
    () => supportTrail.openPage({ key: pageKey, id: spec.id, path: routePath, url: () => url.current, machine: spec.machine.id, steps: spec.persist.kind === 'session', actor }),
    [actor, pageKey, spec.id, spec.machine.id, routePath, spec.persist.kind],
  );

  // Saved state: every snapshot of a session-persisted page is written under its key.
  useEffect(() => {
    if (spec.persist.kind !== 'session') return;
    const sub = actor.subscribe(() => savePageSnapshot(pageKey, actor.getPersistedSnapshot(), { path: routePath, machine: spec.machine.id, url: url.current }));
    return () => sub.unsubscribe();
  }, [actor, pageKey, spec.persist.kind, routePath, spec.machine.id]);

  // A page restored from this tab's saved state shows it at once and fetches it again; a replayed one
  // (the support replay) shows the member's state as it was and fetches nothing.
  useEffect(() => {
    const refresh = spec.refresh;
    if (start.snapshot && refresh && !isReplaying() && (actor.getSnapshot() as AnyMachineSnapshot).can(refresh)) actor.send(refresh);
  }, [actor, start.snapshot, spec.refresh]);

  // The URL is the source of the page's input: a changed query string (the view, Back, a pasted link)
  // is sent to the actor when it differs from what the actor shows.
  useEffect(() => {
    if (!follow) return;
    const wanted = codec.parse(query);
    const shown = follow.current(actor.getSnapshot());
    const same = codec.equals ? codec.equals(shown, wanted) : codec.format(shown) === query;
    if (!same) actor.send(follow.event(wanted));
  }, [actor, codec, follow, query]);

  const setUrl = (next: I) => navigate(location + codec.format(next), { replace: history === 'replace' });
  const View = spec.view;
  return <View actor={actor} url={value} setUrl={setUrl} env={env} />;
}

/** A page entry of the route table; `url` absent means the page takes nothing from the query string. */
export function page<L extends AnyStateMachine>(path: string, spec: PageSpec<L, undefined> & { url?: undefined }, place?: Omit<PageRoute, 'kind' | 'path' | 'persist' | 'render'>): PageRoute;
export function page<L extends AnyStateMachine, I>(path: string, spec: Spec<L, I>, place?: Omit<PageRoute, 'kind' | 'path' | 'persist' | 'render'>): PageRoute;
export function page<L extends AnyStateMachine, I>(path: string, spec: PageSpec<L, I>, place: Omit<PageRoute, 'kind' | 'path' | 'persist' | 'render'> = {}): PageRoute {
  const full = { ...spec, url: spec.url ?? (NO_QUERY_BINDING as UrlBinding<L, I>) };
  return {
    kind: 'page',
    path,
    persist: spec.persist,
    ...place,
    render: (params) => <PageWithEnv spec={full} params={params} path={path} />,
  };
}

const NO_QUERY_BINDING: UrlBinding<AnyStateMachine, undefined> = { codec: NO_QUERY };

function PageWithEnv<L extends AnyStateMachine, I>({ spec, params, path }: { spec: Spec<L, I>; params: RouteParams; path: string }) {
  const { env } = useMemberPageContext();
  const pageKey = storageKey(spec.id, path, params);
  // A new key (another order's detail) is another page: a new actor.
  return <MemberPage key={pageKey} spec={spec} params={params} pageKey={pageKey} env={env} routePath={path} />;
}

function useMemberPageContext(): MemberPageContext {
  const ctx = useContext(PageContext);
  if (!ctx) throw new Error('Member pages render inside <MemberPageProvider>');
  return ctx;
}

function StaticScreen({ route }: { route: StaticRoute }) {
  const { env } = useMemberPageContext();
  return <>{route.render(env)}</>;
}

/** The guard, then what the entry renders. */
function MemberRouteView({ route, params }: { route: MemberRoute; params: RouteParams }) {
  const { access } = useMemberPageContext();
  if (!allows(route, access)) return <ForbiddenView messageKey={route.permission!.deniedKey} />;
  switch (route.kind) {
    case 'redirect':
      return <Redirect to={route.to} replace />;
    case 'comingSoon':
      return <ComingSoonView titleKey={route.titleKey} />;
    case 'page':
      return <>{route.render(params)}</>;
    case 'static':
      return <StaticScreen route={route} />;
  }
}

/** The member routes (paths relative to /member): the table's entries, / → home, anything else not found. */
export function MemberRoutes({ routes }: { routes: readonly MemberRoute[] }) {
  const ctx = useContext(PageContext);
  if (!ctx) return <PageLoader />;
  return (
    <Switch>
      {routes.map((route) => (
        <Route key={route.path} path={route.path}>
          {(params) => <MemberRouteView route={route} params={params} />}
        </Route>
      ))}
      <Route path="/">
        <Redirect to={MEMBER_HOME} replace />
      </Route>
      <Route>
        <NotFoundView homeHref={`~/member${MEMBER_HOME}`} />
      </Route>
    </Switch>
  );
}

/** The entry a path under /member resolves to (wouter's own matching), or null. */
export function resolveMemberRoute(routes: readonly MemberRoute[], parser: Parser, path: string): MemberRoute | null {
  return routes.find((r) => matchRoute(parser, r.path, path)[0]) ?? null;
}
