/** Boot of the support replay (replay.html, its own entry outside the member bundle): styles, translations, React. */
import '../theme/css';
import { MantineProvider } from '@mantine/core';
import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { getI18n } from 'react-i18next';
import { initI18n } from '../i18n/i18n';
import { theme } from '../theme/theme';
import { PageLoader } from '../views/components/page-loader';

// The replay itself is a chunk of its own, loaded by this entry only.
const ReplayApp = lazy(() => import('./replay-app').then((m) => ({ default: m.ReplayApp })));

// The entries' first code shares the app's first chunk: this one starts only on the replay's page.
const container = typeof document !== 'undefined' ? document.getElementById('replay') : null;
if (container) void initI18n().finally(() => {
  createRoot(container).render(
    <StrictMode>
      <I18nextProvider i18n={getI18n()}>
        <MantineProvider theme={theme} defaultColorScheme="light">
          <Suspense fallback={<PageLoader fullScreen />}>
            <ReplayApp />
          </Suspense>
        </MantineProvider>
      </I18nextProvider>
    </StrictMode>,
  );
});
