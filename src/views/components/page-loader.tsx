/** Spinners (spec §2): an inline one and a centred page loader, both announced to screen readers. */
import { Loader, type LoaderProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PlainCenter } from './plain-boxes';

export function Spinner(props: LoaderProps) {
  const { t } = useTranslation('common', { useSuspense: false });
  return <Loader size="sm" role="status" aria-label={t('loading', 'Loading…')} {...props} />;
}

export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  const { t } = useTranslation('common', { useSuspense: false });
  return (
    <PlainCenter mih={fullScreen ? '100dvh' : '50vh'} role="status" aria-live="polite" aria-label={t('loading', 'Loading…')}>
      <Loader aria-hidden="true" />
    </PlainCenter>
  );
}
