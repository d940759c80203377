/**
 * Building blocks of the API contract that the member area's schemas and the reference server's request
 * checks use, and the sign-in page does not (kept apart from common.schema.ts, which that page loads).
 */
import * as z from 'zod/mini';
import type { Currency } from './common.schema';

/** A lenient amount for display: anything the server sends; non-numeric renders as 0 (spec §5). */
export const looseAmount = z.nullish(z.union([z.string(), z.number()]));

// --- Input rules shared by every request ----------------------------------------------------------

/**
 * Characters no single-line text of a request may carry: C0 controls (NUL, tab, CR, LF…), DEL, C1
 * controls, the Unicode line and paragraph separators, and halves of surrogate pairs. PostgreSQL refuses
 * NUL in text; a line break would let a value out of a mail header or a log line.
 */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** The same for text of several lines, where tab, line feed and CR LF are allowed. */
const CONTROL_CHARACTERS_MULTILINE =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when `value` holds a character text of a request may not carry (see CONTROL_CHARACTERS). */
export const hasControlCharacters = (value: string, multiline = false) => (multiline ? CONTROL_CHARACTERS_MULTILINE : CONTROL_CHARACTERS).test(value);

/** A check refusing control characters, answered by `key`; the checks after it are skipped when it fails. */
export const plainText = (key = 'validation:invalidFormat', multiline = false) =>
  z.refine<string>((value) => !hasControlCharacters(value, multiline), { error: key, abort: true });

/**
 * Text of a request: trimmed, without control characters (validation:invalidFormat), at most `max`
 * characters; `min` ≥ 1 makes it required. `multiline` allows tab and line breaks.
 */
export function text(opts: { max?: number; min?: number; multiline?: boolean } = {}) {
  const { max = 191, min = 0, multiline = false } = opts;
  return z.string().check(z.trim(), plainText('validation:invalidFormat', multiline), ...(min > 0 ? [z.minLength(min)] : []), z.maxLength(max));
}

/** The largest id a database row has (PostgreSQL integer). */
export const MAX_ID = 2_147_483_647;
/** True when `text` is a whole number 1 … MAX_ID written plainly. */
export const isIdText = (text: string) => /^[1-9]\d{0,9}$/.test(text) && Number(text) <= MAX_ID;
/** An id as text (a path or query parameter): 1 … MAX_ID, else `key`. */
export const idText = (key = 'validation:invalidFormat') => z.string({ error: key }).check(z.refine(isIdText, { error: key }));

export const DEFAULT_CURRENCY: Currency = {
  id: 1,
  name: 'US Dollar',
  code: 'USD',
  symbol: '$',
  symbol_position: 'L',
  decimal_place: 2,
  value: '1',
};

/** A cursor-paged answer: the page's `items`, `next_page_url` (null on the last page), and what else the list sends. */
export function cursorPage<T extends z.ZodMiniType, const S extends Record<string, z.ZodMiniType> = Record<never, never>>(item: T, extra?: S) {
  return z.object({ items: z.array(item), next_page_url: z.nullable(z.string()), ...(extra as S) });
}

export const okSchema = z.object({ message: z.string() });
