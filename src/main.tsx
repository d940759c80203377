/** Boot: styles, the root session actor (created once; its boot call starts at once), translations, React. */
import './theme/css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './app/app';
import { prepareSession, startSession } from './app/session-actor';
import { initI18n } from './i18n/i18n';

// Views suspend until their translations are there; the session does not wait for them.
const translations = initI18n();

/**
 * The first render waits for the first page's translations (asked for by the page head, usually there by
 * now) for up to a second: rendering before them would show the loader and then, once they arrive, hold
 * the page back for React's 300 ms fallback throttle. A saved flow state may hold a flow loaded on first
 * use: that code comes first too.
 */
const FIRST_RENDER_WAITS_FOR_TRANSLATIONS_MS = 1000;
const translationsOrTimeout = Promise.race([
  translations.catch(() => undefined),
  new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAITS_FOR_TRANSLATIONS_MS)),
]);
void Promise.all([prepareSession(), translationsOrTimeout]).then(() => {
  const { actor } = startSession();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root actor={actor} />
    </StrictMode>,
  );
});
