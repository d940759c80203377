/**
 * The whole app below the providers: route sync, the boot screens (loading, connection error,
 * server error with retry), and the routes once the session knows who is there.
 */
import { MantineProvider, type MantineColorSchemeManager } from '@mantine/core';
import type { i18n as I18n } from 'i18next';
import { Suspense, useEffect } from 'react';
import { I18nextProvider, getI18n } from 'react-i18next';
import { Router } from 'wouter';
import { colourSchemeManager } from '../lib/colour-scheme';
import { readableColours } from '../theme/readable-colours-resolved';
import { theme } from '../theme/theme';
import { AppRoutes } from '../routes';
import { ErrorView } from '../views/components/error-view';
import { PageLoader } from '../views/components/page-loader';
import { RouterErrorBoundary } from '../views/components/router-error';
import { Toasts } from '../views/components/toasts';
import { usePagePath } from './location';
import { RouteSync } from './route-sync';
import { sessionStatus, SessionProvider, useSessionActor, useSessionSelector } from './session-context';
import type { SessionActor } from './session-actor';

/** `onReady`: called once the app has rendered (or, on a server-rendered page, taken over) the page. */
export function App({ onReady }: { onReady?: () => void }) {
  const actor = useSessionActor();
  useEffect(() => onReady?.(), [onReady]);
  const status = useSessionSelector(sessionStatus);
  const retry = () => actor.send({ type: 'session.retry' });
  return (
    <>
      <RouteSync />
      {status === 'booting' ? (
        <PageLoader fullScreen />
      ) : status === 'bootConnectionError' ? (
        <ErrorView kind="connection" onRetry={retry} />
      ) : status === 'bootServerError' ? (
        <ErrorView kind="server" onRetry={retry} />
      ) : (
        <AppRoutes />
      )}
    </>
  );
}

/** A render error clears when the location changes (navigating away recovers). */
function ErrorBoundary({ children }: { children: React.ReactNode }) {
  const path = usePagePath();
  return <RouterErrorBoundary resetKey={path}>{children}</RouterErrorBoundary>;
}

/** What the server renders a page with: its location, its translations and the colour scheme it knows of. */
export interface ServerRendering {
  path: string;
  /** The raw query string ('?a=b'). */
  search: string;
  i18n: I18n;
  colourSchemeManager: MantineColorSchemeManager;
}

/**
 * The providers and the app. The browser and the server render the same tree (the router and the
 * translations are given explicitly on the server), so the server's markup can be hydrated.
 */
export function Root({ actor, server, onReady }: { actor: SessionActor; server?: ServerRendering; onReady?: () => void }) {
  return (
    <Router ssrPath={server?.path} ssrSearch={server?.search}>
      <I18nextProvider i18n={server?.i18n ?? getI18n()}>
        <MantineProvider theme={theme} cssVariablesResolver={readableColours} colorSchemeManager={server?.colourSchemeManager ?? colourSchemeManager} defaultColorScheme="light">
          <SessionProvider actor={actor}>
            <Toasts />
            <ErrorBoundary>
              <Suspense fallback={<PageLoader fullScreen />}>
                <App onReady={onReady} />
              </Suspense>
            </ErrorBoundary>
          </SessionProvider>
        </MantineProvider>
      </I18nextProvider>
    </Router>
  );
}
