/**
 * Lazily loaded screens (one chunk per area). A chunk that fails to load (spec §8 chunk-load
 * error: offline, or a new version replaced the files) shows the connection-error view with a
 * retry that loads it again; other errors go on to the router's error page.
 */
import { Component, lazy, Suspense, useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { ErrorView } from '../views/components/error-view';
import { PageLoader } from '../views/components/page-loader';
import { isChunkLoadError } from '../views/components/router-error';

interface BoundaryProps {
  onRetry: () => void;
  children: ReactNode;
}

class ChunkErrorBoundary extends Component<BoundaryProps, { error: unknown }> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!isChunkLoadError(error)) throw error;
    return <ErrorView kind="connection" onRetry={this.props.onRetry} />;
  }
}

/**
 * `loaded`, when given, answers the component if its code has already arrived (fetched ahead): it is then
 * rendered at once. (React.lazy would suspend once even then, and a boundary that has shown its fallback
 * holds the content back for React's fallback throttle, about 300 ms.)
 */
export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>, loaded?: () => ComponentType<P> | undefined): (props: P) => ReactNode {
  let first: ReturnType<typeof lazy<ComponentType<P>>> | null = null;
  const make = () =>
    lazy(() =>
      load().then(
        (component) => ({ default: component }),
        (error: unknown) => {
          // Let the next mount try again instead of reusing the failure.
          first = null;
          throw error;
        },
      ),
    );
  function LazyView(props: P) {
    const [attempt, setAttempt] = useState(0);
    const View = useMemo(() => (attempt === 0 ? (loaded?.() ?? (first ??= make())) : make()), [attempt]);
    return (
      <ChunkErrorBoundary key={attempt} onRetry={() => setAttempt((a) => a + 1)}>
        <Suspense fallback={<PageLoader />}>
          <View {...props} />
        </Suspense>
      </ChunkErrorBoundary>
    );
  }
  return LazyView;
}
