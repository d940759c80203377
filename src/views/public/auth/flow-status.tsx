/** The load states every flow shares: spinner while loading, error screens with retry. */
import type { ReactNode } from 'react';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';

export type LoadState = 'loading' | 'connectionError' | 'serverError' | 'ready';

/** Where a flow stands in loading its options: its top-level loading / error states, else ready. */
export function loadState(s: { matches(value: 'loading' | 'connectionError' | 'serverError'): boolean }): LoadState {
  if (s.matches('loading')) return 'loading';
  if (s.matches('connectionError')) return 'connectionError';
  if (s.matches('serverError')) return 'serverError';
  return 'ready';
}

/** The sub-state of step `parent` ('editing', 'rateLimited', …) while the flow is in it, else null. */
export function stepOf<P extends string>(s: { matches(value: NoInfer<P>): boolean; value: unknown }, parent: P): string | null {
  return s.matches(parent) ? (s.value as Record<string, string>)[parent] : null;
}

export function LoadStatus({ state, onRetry, children }: { state: LoadState; onRetry: () => void; children: ReactNode }) {
  if (state === 'loading') return <PageLoader />;
  if (state === 'connectionError') return <ErrorView kind="connection" onRetry={onRetry} />;
  if (state === 'serverError') return <ErrorView kind="server" onRetry={onRetry} />;
  return <>{children}</>;
}
