/** Boot: styles, the root session actor (created once; its boot call starts at once), translations, React. */
import './theme/css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Root } from './app/app';
import { FONTS_LATER_ATTRIBUTE, SERVER_KEY_ATTRIBUTE, SERVER_OFF_ATTRIBUTE, captureEarlyInput, pageKey, pageReady, whenSettled, type EarlyInput } from './app/server-page';
import { prepareSession, startSession } from './app/session-actor';
import { colourSchemeManager, DEFAULT_COLOUR_SCHEME } from './lib/colour-scheme';
import { currentLanguage, initI18n } from './i18n/i18n';

// The app's page only (the support replay's entry shares this first chunk: replay.html has no #root).
const isAppPage = typeof document !== 'undefined' && document.getElementById('root') !== null;

/**
 * The web fonts the server-rendered page held back load once the app is in control of it: dropping the attribute
 * restyles and lays out the whole page in the new fonts, work that would otherwise come between the scripts'
 * arrival and the app taking the form over (on a slow phone, a tenth of a second or more). A page the app renders
 * afresh takes them at once.
 */
const fontsNow = () => document.documentElement.removeAttribute(FONTS_LATER_ATTRIBUTE);

// Views suspend until their translations are there; the session does not wait for them.
const translations = isAppPage ? initI18n() : Promise.resolve(undefined);

/**
 * The first render waits for the first page's translations (asked for by the page head, usually there by
 * now) for up to a second: rendering before them would show the loader and then, once they arrive, hold
 * the page back for React's 300 ms fallback throttle. A saved flow state may hold a flow loaded on first
 * use: that code comes first too.
 */
const FIRST_RENDER_WAITS_FOR_TRANSLATIONS_MS = 1000;
/** How long a server-rendered page waits for the session to settle before it is rendered afresh. */
const HYDRATION_WAITS_FOR_SESSION_MS = 1000;

const translationsOrTimeout = Promise.race([
  translations.catch(() => undefined),
  new Promise((resolve) => setTimeout(resolve, FIRST_RENDER_WAITS_FOR_TRANSLATIONS_MS)),
]);

if (isAppPage) void Promise.all([prepareSession(), translationsOrTimeout]).then(async () => {
  const { actor } = startSession();
  const container = document.getElementById('root')!;
  const html = document.documentElement;
  let early: EarlyInput[] = [];
  const tree = (
    <StrictMode>
      <Root
        actor={actor}
        onReady={() => {
          pageReady(early);
          fontsNow();
        }}
      />
    </StrictMode>
  );
  // The sign-in page may come with the server's markup (server/page-render.ts): take it over when this
  // browser's session settles on the state the server rendered, else render afresh over it.
  const serverKey = container.getAttribute(SERVER_KEY_ATTRIBUTE);
  if (serverKey !== null && !html.hasAttribute(SERVER_OFF_ATTRIBUTE)) {
    await whenSettled(actor, HYDRATION_WAITS_FOR_SESSION_MS);
    const scheme = colourSchemeManager.get(DEFAULT_COLOUR_SCHEME);
    if (pageKey(actor.getSnapshot(), currentLanguage(), scheme) === serverKey) {
      early = captureEarlyInput(container);
      hydrateRoot(container, tree);
      return;
    }
  }
  fontsNow();
  if (serverKey !== null) container.replaceChildren();
  container.removeAttribute(SERVER_KEY_ATTRIBUTE);
  html.removeAttribute(SERVER_OFF_ATTRIBUTE);
  createRoot(container).render(tree);
});
