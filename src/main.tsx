/** Boot: styles, the root session actor (created once; its boot call starts at once), translations, React. */
import './theme/css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Root } from './app/app';
import { prepareSession, startSession } from './app/session-actor';
import { initI18n } from './i18n/i18n';

// Views suspend until their translations are there; the session does not wait for them.
void initI18n();

// A saved flow state may hold a flow loaded on first use: that code comes first (at once otherwise).
void prepareSession().then(() => {
  const { actor } = startSession();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Root actor={actor} />
    </StrictMode>,
  );
});
