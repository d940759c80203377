/**
 * The member's preferences: language, currency and date format. Codes must be ones the company offers
 * (matched without regard to case), the date format one of DATE_FORMATS.
 */
import { eq } from 'drizzle-orm';
import { recordAudit } from './audit';
import type { Db } from '../db/client';
import { members, type MemberRow } from '../db/schema';
import { isAllowedDateFormat, type PreferencesRequest } from '../../src/schemas/preferences.schema';
import { validationError, type FieldMap } from './errors';
import type { SettingsService } from './settings';

/** Change what the request names (at least one of the three), with an audit row of what changed, and answer the updated member. */
export async function updatePreferences(db: Db, settings: SettingsService, memberId: number, request: PreferencesRequest, ip: string | null = null): Promise<MemberRow> {
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

  const next = {
    ...(lang ? { languageCode: lang.code } : {}),
    ...(cur ? { currencyCode: cur.code } : {}),
    ...(dateFormat !== undefined ? { dateFormat } : {}),
  };
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(members).where(eq(members.id, memberId)).for('update');
    const [updated] = await tx.update(members).set(next).where(eq(members.id, memberId)).returning();
    const changed = Object.fromEntries(
      (
        [
          ['language', before.languageCode, updated.languageCode],
          ['currency', before.currencyCode, updated.currencyCode],
          ['date_format', before.dateFormat, updated.dateFormat],
        ] as const
      )
        .filter(([, was, now]) => was !== now)
        .map(([key, was, now]) => [key, { from: was, to: now }]),
    );
    if (Object.keys(changed).length) await recordAudit(tx, memberId, 'preferences.changed', changed, ip);
    return updated;
  });
}
