/**
 * The sign-in page rendered on the server (built by `vite build --ssr`, used by server/page-render.ts).
 *
 * The server hands over the two answers a guest's browser asks for first (the boot call with the module
 * data, and the sign-in fields), read here exactly as the client reads them (`readAnswer`, the same
 * schemas). The real session machine runs with those answers until nothing is pending, and the real app
 * tree renders that state. The result carries the state's key (src/app/server-page.ts): the browser
 * hydrates the markup only if its own session settles on the same key.
 *
 * Renders nothing (null) when the answers are not usable or the session did not settle on the sign-in
 * page: the server then sends the page without markup, as for any other route.
 */
import type { MantineColorSchemeManager } from '@mantine/core';
import type { Resource } from 'i18next';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createActor, fromPromise } from 'xstate';
import { readAnswer } from './api/client';
import { Root } from './app/app';
import { bindSessionMachine, type SessionBindings } from './app/bindings';
import { isPending, pageKey, SERVER_RENDERED_PATH, whenSettled } from './app/server-page';
import { createStaticI18n } from './i18n/i18n';
import { pickPhoneCode } from './lib/validation';
import { loginMachine } from './machines/login.machine';
import { loginFieldsSchema } from './schemas/auth.schema';
import type { ModuleData } from './schemas/common.schema';
import * as z from 'zod/mini';

export interface LoginPageInput {
  path: string;
  /** The raw query string ('?a=b' or ''). */
  search: string;
  language: string;
  colourScheme: 'light' | 'dark';
  /** Every namespace of `language` (public/locales/<language>/*.json). */
  translations: Resource[string];
  /** Bodies of GET /api/auth/dummy?load_modules=1 and GET /api/auth/login_fields?load_modules=1. */
  bootAnswer: unknown;
  fieldsAnswer: unknown;
}

export interface RenderedPage {
  html: string;
  key: string;
  /** The company logo, for the page head to fetch early. */
  logo: string | null;
}

/** How long the session may take to settle on the server (its calls are answered in memory). */
const SETTLE_MS = 500;

const nothing = () => {};
const serverBindings: SessionBindings = { navigate: nothing, notify: nothing, changeLanguage: nothing, openInNewTab: nothing, prepareMemberPage: nothing, prefetchMemberArea: nothing };

function fixedColourScheme(scheme: 'light' | 'dark'): MantineColorSchemeManager {
  return { get: () => scheme, set: nothing, subscribe: nothing, unsubscribe: nothing, clear: nothing };
}

/** One translations instance per language and set of files (they never change language on the server). */
const instances = new Map<string, { files: Resource[string]; i18n: ReturnType<typeof createStaticI18n> }>();
function translationsFor(language: string, files: Resource[string]) {
  const known = instances.get(language);
  if (known && known.files === files) return known.i18n;
  const i18n = createStaticI18n({ [language]: files }, language);
  instances.set(language, { files, i18n });
  return i18n;
}

export async function renderLoginPage(input: LoginPageInput): Promise<RenderedPage | null> {
  if (input.path !== SERVER_RENDERED_PATH) return null;
  let moduleData: ModuleData | null = null;
  let fields: z.infer<typeof loginFieldsSchema>;
  try {
    readAnswer(z.unknown(), '/api/auth/dummy', input.bootAnswer, (m) => (moduleData = m));
    fields = readAnswer(loginFieldsSchema, '/api/auth/login_fields', input.fieldsAnswer, (m) => (moduleData = m));
  } catch {
    return null;
  }
  if (!moduleData) return null;
  const modules: ModuleData = moduleData;

  // The browser's session reaches the same point through its own calls; here they are answered already.
  const flow = { actions: { navigate: nothing, notify: nothing } };
  const logic = bindSessionMachine(serverBindings).provide({
    actors: {
      boot: fromPromise(async () => ({ user: null, expired: false })),
      login: loginMachine.provide({
        ...flow,
        actors: {
          loadLoginFields: fromPromise(async () => ({ fields, phoneCode: pickPhoneCode(fields.countries, modules.default_country) })),
        },
      }),
    } as never,
  });
  const actor = createActor(logic, { input: { path: input.path, search: input.search, moduleData: modules } });
  actor.start();
  try {
    await whenSettled(actor, SETTLE_MS);
    const snapshot = actor.getSnapshot();
    if (isPending(snapshot) || !snapshot.matches({ unauthenticated: 'login' })) return null;
    const i18n = translationsFor(input.language, input.translations);
    const html = renderToString(
      <StrictMode>
        <Root
          actor={actor}
          server={{ path: input.path, search: input.search, i18n, colourSchemeManager: fixedColourScheme(input.colourScheme) }}
        />
      </StrictMode>,
    );
    return { html, key: pageKey(snapshot, input.language, input.colourScheme), logo: modules.company.logo || null };
  } finally {
    actor.stop();
  }
}
