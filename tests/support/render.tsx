/**
 * Rendering the app (or part of it) on a session actor in tests: the providers of render-ui.tsx
 * (theme, Mantine test mode, real translations) plus the session provider, at a given URL of
 * jsdom's browser location (which the app's router and RouteSync read).
 *
 *   const h = sessionHarness({ path: '/account-blocked', navigate: browserNavigate, boot: … });
 *   renderApp({ actor: h.actor, path: '/account-blocked' });
 *   await screen.findByText('Your account is blocked');
 */
import { Suspense, type ReactElement } from 'react';
import { App } from '../../src/app/app';
import { SessionProvider } from '../../src/app/session-context';
import type { SessionActor } from '../../src/app/session-actor';
import { PageLoader } from '../../src/views/components/page-loader';
import { renderUi, type RenderUiOptions } from './render-ui';

export interface RenderWithSessionOptions extends RenderUiOptions {
  actor: unknown;
  /** Where jsdom's location is before rendering, e.g. '/login?redirect=%2Fmember'. */
  path?: string;
}

export function renderWithSession(ui: ReactElement, { actor, path, ...options }: RenderWithSessionOptions) {
  if (path) window.history.replaceState(null, '', path);
  return renderUi(
    <SessionProvider actor={actor as SessionActor}>
      <Suspense fallback={<PageLoader />}>{ui}</Suspense>
    </SessionProvider>,
    options,
  );
}

/** The whole app below the providers: route sync, boot screens and every route. */
export function renderApp(options: RenderWithSessionOptions) {
  return renderWithSession(<App />, options);
}
