/**
 * Money and volumes as exact decimals. Amounts travel and are stored as decimal strings
 * (NUMERIC(20,4) in the database); in code they are BigInts scaled by 10^4 ("units").
 * No JavaScript float ever touches an amount.
 */

export const SCALE = 4;
const FACTOR = 10n ** BigInt(SCALE);

/** An exact amount: the decimal value × 10^4. */
export type Units = bigint;

export const ZERO: Units = 0n;

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?$/;

export class MoneyFormatError extends Error {}

/** True when `s` is a plain decimal string ("12", "-3.5", "0.0001"). */
export function isDecimal(s: unknown): s is string {
  return typeof s === 'string' && DECIMAL.test(s);
}

/** Number of digits after the point in a decimal string. */
export function fractionDigits(s: string): number {
  const m = DECIMAL.exec(s);
  return m?.[3]?.length ?? 0;
}

/**
 * Decimal string → units. More than 4 fraction digits are rounded half away from zero
 * (the database does the same for NUMERIC(20,4)).
 */
export function parse(s: string): Units {
  const m = DECIMAL.exec(s.trim());
  if (!m) throw new MoneyFormatError(`not a decimal: ${JSON.stringify(s)}`);
  const [, sign, int, frac = ''] = m;
  let v = BigInt(int) * FACTOR;
  if (frac.length <= SCALE) {
    v += BigInt(frac.padEnd(SCALE, '0') || '0');
  } else {
    v += BigInt(frac.slice(0, SCALE));
    if (Number(frac[SCALE]) >= 5) v += 1n;
  }
  return sign === '-' ? -v : v;
}

/** Units → decimal string with exactly `digits` fraction digits (default 4, like the database). */
export function format(v: Units, digits = SCALE): string {
  const r = digits >= SCALE ? v : roundTo(v, digits);
  const neg = r < 0n;
  const a = neg ? -r : r;
  const int = a / FACTOR;
  let frac = (a % FACTOR).toString().padStart(SCALE, '0');
  frac = digits >= SCALE ? frac.padEnd(digits, '0') : frac.slice(0, digits);
  const body = digits > 0 ? `${int}.${frac}` : `${int}`;
  return neg && r !== 0n ? `-${body}` : body;
}

/** Round to `digits` fraction digits (0..4), half away from zero; the result is still in units. */
export function roundTo(v: Units, digits: number): Units {
  if (digits >= SCALE) return v;
  const step = 10n ** BigInt(SCALE - digits);
  const neg = v < 0n;
  const a = neg ? -v : v;
  const q = a / step;
  const rem = a % step;
  const rounded = (rem * 2n >= step ? q + 1n : q) * step;
  return neg ? -rounded : rounded;
}

export const add = (...vs: Units[]): Units => vs.reduce((s, v) => s + v, 0n);
export const sub = (a: Units, b: Units): Units => a - b;
export const neg = (a: Units): Units => -a;
export const abs = (a: Units): Units => (a < 0n ? -a : a);
export const cmp = (a: Units, b: Units): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0);
export const min = (a: Units, b: Units): Units => (a < b ? a : b);
export const max = (a: Units, b: Units): Units => (a > b ? a : b);
export const sum = (vs: Iterable<Units>): Units => {
  let s = 0n;
  for (const v of vs) s += v;
  return s;
};

/** Whole units of an integer count (e.g. 3 → 3.0000). */
export const fromInt = (n: number | bigint): Units => BigInt(n) * FACTOR;

/**
 * `amount × percent / 100`, percent given as a decimal string ("7.5"), rounded to `digits`
 * fraction digits (default 4) half away from zero.
 */
export function percentOf(amount: Units, percent: string, digits = SCALE): Units {
  const p = parse(percent); // percent × 10^4
  // amount(×10^4) × p(×10^4) / 100 → ×10^8; bring back to ×10^4 with rounding.
  const raw = amount * p; // ×10^8 × 100
  const denom = FACTOR * 100n;
  const neg = raw < 0n;
  const a = neg ? -raw : raw;
  let q = a / denom;
  if ((a % denom) * 2n >= denom) q += 1n;
  return roundTo(neg ? -q : q, digits);
}

/** `amount × n` for an integer n. */
export const times = (amount: Units, n: number | bigint): Units => amount * BigInt(n);

/** How many whole `unit`s fit in `amount` (both positive). */
export function fits(amount: Units, unit: Units): bigint {
  if (unit <= 0n) throw new RangeError('unit must be positive');
  return amount <= 0n ? 0n : amount / unit;
}

/** Normalise a decimal string to 4 fraction digits ("12.5" → "12.5000"). */
/** A decimal string already as `format` writes it (as the database writes NUMERIC(20,4)): kept as it is. */
const CANONICAL = /^-?(?:0|[1-9]\d*)\.\d{4}$/;
export const normalize = (s: string): string => (CANONICAL.test(s) && s !== '-0.0000' ? s : format(parse(s)));

/**
 * Display formatting: thousands separators and the currency symbol on its side
 * (used by CSV exports and messages; the client formats for the screen).
 */
export function display(v: Units, opts: { symbol?: string; position?: 'L' | 'R'; digits?: number } = {}): string {
  const digits = opts.digits ?? 2;
  const s = format(v, digits);
  const neg = s.startsWith('-');
  const [int, frac] = (neg ? s.slice(1) : s).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const body = frac ? `${grouped}.${frac}` : grouped;
  const withSymbol = !opts.symbol ? body : opts.position === 'R' ? `${body} ${opts.symbol}` : `${opts.symbol}${body}`;
  return neg ? `-${withSymbol}` : withSymbol;
}
