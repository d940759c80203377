/**
 * The whole app below the providers: route sync, the boot screens (loading, connection error,
 * server error with retry), and the routes once the session knows who is there.
 */
import { MantineProvider } from '@mantine/core';
import { Suspense } from 'react';
import { usePathname } from 'wouter/use-browser-location';
import { colourSchemeManager } from '../lib/colour-scheme';
import { theme } from '../theme/theme';
import { AppRoutes } from '../routes';
import { ErrorView } from '../views/components/error-view';
import { PageLoader } from '../views/components/page-loader';
import { RouterErrorBoundary } from '../views/components/router-error';
import { Toasts } from '../views/components/toasts';
import { RouteSync } from './route-sync';
import { sessionStatus, SessionProvider, useSessionActor, useSessionSelector } from './session-context';
import type { SessionActor } from './session-actor';

export function App() {
  const actor = useSessionActor();
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
  const path = usePathname();
  return <RouterErrorBoundary resetKey={path}>{children}</RouterErrorBoundary>;
}

export function Root({ actor }: { actor: SessionActor }) {
  return (
    <MantineProvider theme={theme} colorSchemeManager={colourSchemeManager} defaultColorScheme="light">
      <SessionProvider actor={actor}>
        <Toasts />
        <ErrorBoundary>
          <Suspense fallback={<PageLoader fullScreen />}>
            <App />
          </Suspense>
        </ErrorBoundary>
      </SessionProvider>
    </MantineProvider>
  );
}
