/**
 * What a settings form says about its last request: Try again / Dismiss after a lost connection or a
 * server error, and a refusal without field messages (throttled, or refused as a whole). `prefix` names
 * the page's keys: `<prefix>.errors.{connectionError,serverError,rateLimited,refused}`, `<prefix>.retry`,
 * `<prefix>.dismiss`.
 */
import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorView } from './error-view';
import { PageLoader } from './page-loader';
import { RequestError } from './form-card';

export function FormRequestStatus({
  ns,
  prefix,
  state,
  failure,
  fieldErrors,
  onRetry,
  onDismiss,
}: {
  ns: string;
  prefix: string;
  /** The form's state without its OnRefresh suffix. */
  state: string;
  /** What the last failure means (the machine's classification), e.g. 'rateLimited'. */
  failure: string | null;
  fieldErrors: Readonly<Record<string, string>>;
  onRetry: () => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation(ns);
  if (state === 'connectionError' || state === 'serverError')
    return <RequestError title={t(`${prefix}.errors.${state}`)} retryLabel={t(`${prefix}.retry`)} dismissLabel={t(`${prefix}.dismiss`)} onRetry={onRetry} onDismiss={onDismiss} />;
  if (state === 'validationError' && !Object.keys(fieldErrors).length)
    return (
      <Alert color="yellow" role="alert">
        {t(failure === 'rateLimited' ? `${prefix}.errors.rateLimited` : `${prefix}.errors.refused`)}
      </Alert>
    );
  return null;
}

/**
 * A loading form's screen, or null once it is loaded: the error view with retry after a failed load, the
 * page loader while it loads (and while a forced logout takes over).
 */
export function formLoadScreen(state: string, loaded: unknown, onRetry: () => void): ReactNode | null {
  if (state === 'loadConnectionError' || state === 'loadError') return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={onRetry} />;
  if (!loaded || state === 'loading' || state === 'forceLogout') return <PageLoader />;
  return null;
}
