/** Full-screen overlay spinner (spec §2), e.g. while logging out from a blocked screen. */
import { LoadingOverlay, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function OverlaySpinner({ visible }: { visible: boolean }) {
  const { t } = useTranslation('common');
  return (
    <>
      <LoadingOverlay visible={visible} pos="fixed" zIndex={1000} overlayProps={{ blur: 1 }} data-testid="overlay-spinner" />
      {visible && (
        <VisuallyHidden role="status" aria-live="polite">
          {t('loading')}
        </VisuallyHidden>
      )}
    </>
  );
}
