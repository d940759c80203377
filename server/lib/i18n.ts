/**
 * The app's translations on the server (public/locales, the files the browser reads), for what the server
 * itself writes in a member's language (the invoice PDF). One i18next instance per language, made once.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type Resource, type TFunction } from 'i18next';
import { SUPPORTED_LANGUAGES, type SupportedLanguage } from '../../src/i18n/languages';

/** public/locales of the source tree. */
export const SOURCE_LOCALES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'public', 'locales');

/** Every namespace of every supported language in `dir` (a language folder that is missing is left empty). */
export function readTranslations(dir: string): Resource {
  const out: Resource = {};
  for (const lng of SUPPORTED_LANGUAGES) {
    out[lng] = {};
    const folder = path.join(dir, lng);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)) {
      if (file.endsWith('.json')) out[lng][file.slice(0, -5)] = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
    }
  }
  return out;
}

/** A supported language for a member's language code (their own, else English). */
export function memberLanguage(code: string | null | undefined): SupportedLanguage {
  const base = (code ?? '').toLowerCase().split(/[-_]/)[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(base) ? (base as SupportedLanguage) : ('en' as SupportedLanguage);
}

let resources: Resource | null = null;
const instances = new Map<string, Promise<TFunction>>();

/** The translate function of `language` (English for what Spanish lacks). */
export function translator(language: SupportedLanguage): Promise<TFunction> {
  let t = instances.get(language);
  if (!t) {
    resources ??= readTranslations(SOURCE_LOCALES);
    const instance = i18next.createInstance();
    t = instance.init({ resources, lng: language, fallbackLng: 'en', interpolation: { escapeValue: false }, initAsync: false, showSupportNotice: false } as never).then(() => instance.t);
    instances.set(language, t);
  }
  return t;
}
