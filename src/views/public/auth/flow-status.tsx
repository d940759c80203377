/** The load states every flow shares: spinner while loading, error screens with retry. */
import type { ReactNode } from 'react';
import { ErrorView } from '../../components/error-view';
import { PageLoader } from '../../components/page-loader';

export function LoadStatus({
  state,
  onRetry,
  children,
}: {
  state: 'loading' | 'connectionError' | 'serverError' | 'ready';
  onRetry: () => void;
  children: ReactNode;
}) {
  if (state === 'loading') return <PageLoader />;
  if (state === 'connectionError') return <ErrorView kind="connection" onRetry={onRetry} />;
  if (state === 'serverError') return <ErrorView kind="server" onRetry={onRetry} />;
  return <>{children}</>;
}
