/**
 * Host of the toasts shown by src/lib/toast.ts (spec §9): bottom-centre on narrow screens, top-right
 * from the small-tablet breakpoint up, 300–560 px wide. Loaded lazily through ./toasts, with the notifications store.
 */
import { MantineThemeProvider } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Notifications, notifications } from '@mantine/notifications';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { attachToastStore } from '../../lib/toast';
import { breakpoints } from '../../theme/theme';

// What src/lib/toast.ts was asked before this chunk arrived goes to the store now, the rest straight away.
attachToastStore(notifications);

export const TOAST_MIN_WIDTH = 300;
export const TOAST_MAX_WIDTH = 560;

export default function ToastsHost() {
  const { t } = useTranslation('common');
  const wide = useMediaQuery(`(min-width: ${breakpoints.xs})`, false, { getInitialValueInEffect: false });
  const closeLabel = t('close');
  // Close buttons of every toast get a translated accessible name.
  const theme = useMemo(
    () => ({ components: { Notification: { defaultProps: { closeButtonProps: { 'aria-label': closeLabel } } } } }),
    [closeLabel],
  );
  return (
    <MantineThemeProvider theme={theme}>
      <Notifications
        position={wide ? 'top-right' : 'bottom-center'}
        containerWidth={TOAST_MAX_WIDTH}
        limit={5}
        styles={{ root: { minWidth: `min(${TOAST_MIN_WIDTH}px, calc(100% - 2rem))` } }}
      />
    </MantineThemeProvider>
  );
}
