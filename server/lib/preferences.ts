/**
 * The member's preferences: language, currency and date format. Codes must be ones the company offers
 * (matched without regard to case), the date format one of DATE_FORMATS.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { members, type MemberRow } from '../db/schema';
import { isAllowedDateFormat, type PreferencesRequest } from '../../src/schemas/preferences.schema';
import { validationError, type FieldMap } from './errors';
import type { SettingsService } from './settings';

/** Change what the request names (at least one of the three) and answer the updated member. */
export async function updatePreferences(db: Db, settings: SettingsService, memberId: number, request: PreferencesRequest): Promise<MemberRow> {
  const { language, currency, date_format: dateFormat } = request;
  const errors: FieldMap = {};
  if (language === undefined && currency === undefined && dateFormat === undefined) {
    throw validationError({ _body: ['validation:required'] });
  }
  const refs = await settings.reference();
  const lang = language === undefined ? undefined : refs.languages.find((l) => l.code.toLowerCase() === language.toLowerCase());
  const cur = currency === undefined ? undefined : refs.currencies.find((c) => c.code.toUpperCase() === currency.toUpperCase());
  if (language !== undefined && !lang) errors.language = ['validation:invalidChoice'];
  if (currency !== undefined && !cur) errors.currency = ['validation:invalidChoice'];
  if (dateFormat !== undefined && !isAllowedDateFormat(dateFormat)) errors.date_format = ['validation:invalidChoice'];
  if (Object.keys(errors).length) throw validationError(errors);

  const [updated] = await db
    .update(members)
    .set({
      ...(lang ? { languageCode: lang.code } : {}),
      ...(cur ? { currencyCode: cur.code } : {}),
      ...(dateFormat !== undefined ? { dateFormat } : {}),
    })
    .where(eq(members.id, memberId))
    .returning();
  return updated;
}
