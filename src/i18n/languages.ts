import type { Language } from '../schemas/common.schema';

/** Languages the app ships translation files for (spec §1, §7). English is the default and fallback. */
export const SUPPORTED_LANGUAGES = ['en', 'es'] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];
export const FALLBACK_LANGUAGE: SupportedLanguage = 'en';

/** Used by the public pages' language switch before module data (and its language list) is known. */
export const APP_LANGUAGES: Language[] = [
  { id: 1, name: 'English', code: 'en', native_name: 'English' },
  { id: 2, name: 'Spanish', code: 'es', native_name: 'Español' },
];

/** Namespaces of spec §7, one JSON file per language and namespace under /locales. */
export const NAMESPACES = [
  'account',
  'auth',
  'common',
  'dashboard',
  'mail',
  'payout',
  'promotion',
  'referral',
  'network',
  'support',
  'validation',
  'wallet',
  'store',
  'crm',
] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Loaded with the first page; everything else loads when a view asks for it. */
export const PRELOADED_NAMESPACES: Namespace[] = ['common', 'auth', 'validation'];

export function isSupportedLanguage(code: string | null | undefined): code is SupportedLanguage {
  return !!code && (SUPPORTED_LANGUAGES as readonly string[]).includes(code);
}

/**
 * The language the app settles on for these candidates, most wanted first (what i18next does with
 * `load: 'languageOnly'` and `nonExplicitSupportedLngs`): the first whose language part ("es" of "es-MX") is
 * supported, else the fallback. The page head and the server predict the app's choice with it.
 */
export function pickSupportedLanguage(candidates: Iterable<string | null | undefined>): SupportedLanguage {
  for (const candidate of candidates) {
    const code = candidate?.split('-')[0].toLowerCase();
    if (isSupportedLanguage(code)) return code;
  }
  return FALLBACK_LANGUAGE;
}
