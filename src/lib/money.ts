/**
 * Money on screen (spec §3 Currency, §5): an amount (a decimal string from the API) converted with
 * the currency's rate and written US-English style with exactly `decimal_place` fraction digits and
 * the symbol on its side. The arithmetic is exact (BigInt on the decimal digits): no float ever
 * touches an amount. A missing or non-numeric amount counts as 0.
 */
import { NUMERIC_TEXT, type Currency } from '../schemas/common.schema';
import { DEFAULT_CURRENCY } from '../schemas/values.schema';

/** An exact decimal: `units / 10^scale`. */
interface Decimal {
  units: bigint;
  scale: number;
}

const MAX_FRACTION_DIGITS = 8;

/** Spec §5: an optionally signed decimal with digits before or after the point. */
export function isNumericText(value: unknown): boolean {
  return typeof value === 'string' && NUMERIC_TEXT.test(value.trim());
}

function fromText(text: string): Decimal | null {
  const t = text.trim();
  if (!NUMERIC_TEXT.test(t)) return null;
  const neg = t.startsWith('-');
  const body = t.replace(/^[+-]/, '');
  const [int = '', frac = ''] = body.split('.');
  const units = BigInt((int || '0') + frac);
  return { units: neg ? -units : units, scale: frac.length };
}

/** A JavaScript number as the decimal it prints as ("0.1" stays 0.1, "1e+21" is expanded). */
function fromNumber(n: number): Decimal | null {
  if (!Number.isFinite(n)) return null;
  const [mantissa, expText] = String(n).split('e');
  const d = fromText(mantissa);
  if (!d) return null;
  const exp = Number(expText ?? 0);
  if (exp >= 0) {
    const shift = Math.min(exp, d.scale);
    return { units: d.units * 10n ** BigInt(exp - shift), scale: d.scale - shift };
  }
  return { units: d.units, scale: d.scale - exp };
}

/** Any value → exact decimal, or null when it is missing or not numeric. */
function toDecimal(value: unknown): Decimal | null {
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value === 'bigint') return { units: value, scale: 0 };
  if (typeof value === 'string') return fromText(value);
  return null;
}

const ZERO: Decimal = { units: 0n, scale: 0 };
const pow10 = (n: number) => 10n ** BigInt(n);

/** `d` rounded half away from zero to `places` fraction digits, as units of 10^-places. */
function roundTo(d: Decimal, places: number): bigint {
  if (d.scale <= places) return d.units * pow10(places - d.scale);
  const step = pow10(d.scale - places);
  const neg = d.units < 0n;
  const a = neg ? -d.units : d.units;
  let q = a / step;
  if ((a % step) * 2n >= step) q += 1n;
  return neg ? -q : q;
}

/** `d` cut (towards zero) to at most `places` fraction digits. */
function truncateTo(d: Decimal, places: number): Decimal {
  if (d.scale <= places) return d;
  return { units: d.units / pow10(d.scale - places), scale: places };
}

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Units of 10^-places → "1234.50" / "-0.5"; zero never carries a minus sign. */
function plain(units: bigint, places: number, grouped: boolean): string {
  const neg = units < 0n;
  const a = (neg ? -units : units).toString().padStart(places + 1, '0');
  const int = a.slice(0, a.length - places) || '0';
  const frac = a.slice(a.length - places);
  const body = (grouped ? groupThousands(int) : int) + (places > 0 ? `.${frac}` : '');
  return neg && units !== 0n ? `-${body}` : body;
}

const clampPlaces = (n: unknown, fallback: number) =>
  typeof n === 'number' && Number.isInteger(n) && n >= 0 ? Math.min(n, MAX_FRACTION_DIGITS) : fallback;

/** `amount × rate` exactly, as a plain decimal string (full precision). Non-numeric amounts count as 0; a bad rate as 1. */
export function convertAmount(amount: unknown, rate: unknown = '1'): string {
  const a = toDecimal(amount) ?? ZERO;
  const r = toDecimal(rate) ?? { units: 1n, scale: 0 };
  return plain(a.units * r.units, a.scale + r.scale, false);
}

export interface MoneyOptions {
  /** Fraction digits; the currency's decimal_place by default. */
  decimals?: number;
  /** Leave the symbol out (e.g. inside an input that shows it as a prefix). */
  withoutSymbol?: boolean;
  /** The amount is already in the display currency: do not apply the rate. */
  converted?: boolean;
}

/**
 * An amount in the member's currency: `"1234.5"` with USD → `"$1,234.50"`, with a right-hand symbol
 * `"1,234.50 kr"`, negatives `"-$5.00"`. Rounded half away from zero to exactly `decimal_place` digits.
 */
export function formatMoney(amount: unknown, currency: Currency | null | undefined = DEFAULT_CURRENCY, options: MoneyOptions = {}): string {
  const c = currency ?? DEFAULT_CURRENCY;
  const places = clampPlaces(options.decimals, clampPlaces(c.decimal_place, DEFAULT_CURRENCY.decimal_place));
  const a = toDecimal(amount) ?? ZERO;
  const r = options.converted ? { units: 1n, scale: 0 } : (toDecimal(c.value) ?? { units: 1n, scale: 0 });
  const units = roundTo({ units: a.units * r.units, scale: a.scale + r.scale }, places);
  const body = plain(units < 0n ? -units : units, places, true);
  const neg = units < 0n;
  if (options.withoutSymbol || !c.symbol) return neg ? `-${body}` : body;
  const withSymbol = c.symbol_position === 'R' ? `${body} ${c.symbol}` : `${c.symbol}${body}`;
  return neg ? `-${withSymbol}` : withSymbol;
}

/** A number (volume, count) US-English style with exactly `decimals` fraction digits; non-numeric → 0. */
export function formatDecimal(value: unknown, decimals = 0): string {
  const places = clampPlaces(decimals, 0);
  return plain(roundTo(toDecimal(value) ?? ZERO, places), places, true);
}

/**
 * A decimal string cut (not rounded) to at most `decimals` fraction digits: "12.3456" → "12.34",
 * "12.3" → "12.3", "12" → "12". Non-numeric → "0".
 */
export function truncateDecimal(value: unknown, decimals: number): string {
  const places = clampPlaces(decimals, 0);
  const d = truncateTo(toDecimal(value) ?? ZERO, places);
  return plain(d.units, d.scale, false);
}
