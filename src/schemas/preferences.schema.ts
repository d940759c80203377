/**
 * The member's display preferences: language, currency and date format (PUT /api/user/preferences,
 * answered with the updated User). Language and currency must be codes the company offers
 * (loaded_modules.languages / currencies); the date format one of DATE_FORMATS.
 */
import * as z from 'zod/mini';

/**
 * Date formats a member may choose, as PHP-style patterns (the server's notation; src/lib/dates.ts
 * renders them). The first is the default: short month, day, year, 12-hour time (spec §9).
 */
export const DATE_FORMATS = [
  'M j, Y g:i A',
  'M d, Y h:i A',
  'l, d M Y H:i',
  'D, M j, Y g:i a',
  'F j, Y g:i A',
  'j F Y H:i',
  'd/m/Y H:i',
  'm/d/Y h:i A',
  'd.m.Y H:i',
  'Y-m-d H:i',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

export function isAllowedDateFormat(v: unknown): v is DateFormat {
  return typeof v === 'string' && (DATE_FORMATS as readonly string[]).includes(v);
}

const code = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

export const preferencesRequestSchema = z.strictObject({
  /** A language code of loaded_modules.languages ('en', 'es'). */
  language: z.optional(code(10)),
  /** A currency code of loaded_modules.currencies ('USD', 'EUR', …). */
  currency: z.optional(code(10)),
  /** One of DATE_FORMATS. */
  date_format: z.optional(code(40)),
});
export type PreferencesRequest = z.infer<typeof preferencesRequestSchema>;
