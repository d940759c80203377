/**
 * The router's default error page (spec §2): "Unexpected Application Error!" with the error text and
 * a reload button. `RouterErrorBoundary` catches render errors below it; a changed `resetKey`
 * (usually the location) clears the error so navigating away recovers.
 */
import { Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { Component, lazy, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The "send to support" panel is code of its own (the snapshot, its redaction, its form machine), loaded when
 * the error page is shown: the first page neither carries nor evaluates it. (Fetching it ahead would cost every
 * visit its bytes, and its stylesheet again, for a page few visits see.)
 */
const SupportSnapshotPanel = lazy(() => import('../support/support-snapshot.view').then((m) => ({ default: m.SupportSnapshotPanel })));

/** Renders nothing when the panel's code could not be loaded (offline, or the app's files replaced): the error page itself must still show. */
class PanelBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}

const CHUNK_LOAD = /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Loading (CSS )?chunk \S+ failed/i;

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return CHUNK_LOAD.test(message);
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

export interface RouterErrorPageProps {
  error: unknown;
  onReload?: () => void;
}

export function RouterErrorPage({ error, onReload }: RouterErrorPageProps) {
  // Must render even when translations failed to load: no suspending, English defaults.
  const { t } = useTranslation('common', { useSuspense: false });
  const reload = onReload ?? (() => window.location.reload());
  return (
    <Container size={640} py="xl" px="md">
      <Stack gap="md" role="alert">
        <Title order={1} size="h2">
          {t('unexpectedError', 'Unexpected Application Error!')}
        </Title>
        <Paper withBorder p="sm" bg="var(--mantine-color-default-hover)">
          <Text component="pre" ff="monospace" size="sm" m={0} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {errorText(error)}
          </Text>
        </Paper>
        <Text c="dimmed">
          {isChunkLoadError(error)
            ? t('chunkLoadError', 'A new version of the app may be available. Reload the page to continue.')
            : t('unexpectedErrorHint', 'Reloading the page usually helps. If it keeps happening, please contact support.')}
        </Text>
        <div>
          <Button onClick={reload}>{t('reload', 'Reload page')}</Button>
        </div>
        <PanelBoundary>
          <Suspense fallback={null}>
            <SupportSnapshotPanel reason="error" error={error} />
          </Suspense>
        </PanelBoundary>
      </Stack>
    </Container>
  );
}

export interface RouterErrorBoundaryProps {
  children: ReactNode;
  resetKey?: unknown;
  onReload?: () => void;
}

interface State {
  error: unknown;
  hasError: boolean;
  resetKey: unknown;
}

export class RouterErrorBoundary extends Component<RouterErrorBoundaryProps, State> {
  state: State = { error: null, hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, hasError: true };
  }

  static getDerivedStateFromProps(props: RouterErrorBoundaryProps, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { resetKey: props.resetKey, hasError: false, error: null };
    return null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Unexpected application error', error, info.componentStack);
  }

  render() {
    if (this.state.hasError) return <RouterErrorPage error={this.state.error} onReload={this.props.onReload} />;
    return this.props.children;
  }
}
