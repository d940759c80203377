/**
 * Dates on screen (spec §9). The server states the member's date format as a PHP-style pattern
 * ('M j, Y g:i A', 'l, d M Y H:i', …); this module maps every PHP format character to dayjs
 * formatting (characters dayjs has no token for are computed and passed as literals), in the
 * member's language (English, or Spanish month and day names). Weeks start on Monday.
 *
 * The Spanish dayjs locale is bundled: it is about 1 KB and this module only loads with the member area.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/es';

/** The default: short month, day, year, 12-hour time with AM/PM ("MMM d, yyyy h:mm a"). */
export const DEFAULT_DATE_FORMAT = 'M j, Y g:i A';
/** Weeks start on Monday (0 = Sunday … 6 = Saturday). */
export const WEEK_START = 1;

export type DateLanguage = 'en' | 'es';
export type DateInput = Date | string | number | null | undefined;

export interface DateFormatOptions {
  /** The member's language code; anything but Spanish formats in English. */
  language?: string | null;
  /** IANA zone named by `e` and `T` (default: the browser's). Times are always shown in the browser's zone. */
  timeZone?: string;
}

export function dateLanguage(language: string | null | undefined): DateLanguage {
  return (language ?? '').toLowerCase().split(/[-_]/)[0] === 'es' ? 'es' : 'en';
}

const EN_DAYS_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const EN_MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(Math.abs(Math.trunc(n))).padStart(width, '0');

/** ISO 8601 week number and week-numbering year of the local date. */
export function isoWeek(date: Date): { week: number; year: number } {
  const t = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return { week: Math.ceil(((t.getTime() - yearStart) / DAY_MS + 1) / 7), year: t.getUTCFullYear() };
}

const dayOfYear = (d: Date) => Math.round((Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) - Date.UTC(d.getFullYear(), 0, 1)) / DAY_MS);
const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (d: Date) => new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();

/** UTC offset of the local date: "+0200" (colon false) or "+02:00". */
function offset(d: Date, colon: boolean): string {
  const minutes = -d.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}${colon ? ':' : ''}${pad(Math.abs(minutes) % 60)}`;
}

function englishSuffix(day: number): string {
  if (day % 100 >= 11 && day % 100 <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][day % 10] ?? 'th';
}

function zoneName(timeZone: string | undefined): string {
  try {
    return timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  } catch {
    return 'UTC';
  }
}

function zoneAbbreviation(d: Date, timeZone: string | undefined): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short', timeZone }).formatToParts(d).find((p) => p.type === 'timeZoneName');
    return part?.value ?? offset(d, true);
  } catch {
    return offset(d, true);
  }
}

/** PHP characters that map straight onto a dayjs token. */
const DIRECT: Record<string, string> = {
  d: 'DD',
  D: 'ddd',
  j: 'D',
  l: 'dddd',
  w: 'd',
  F: 'MMMM',
  m: 'MM',
  M: 'MMM',
  n: 'M',
  Y: 'YYYY',
  y: 'YY',
  a: 'a',
  A: 'A',
  g: 'h',
  G: 'H',
  h: 'hh',
  H: 'HH',
  i: 'mm',
  s: 'ss',
  v: 'SSS',
  O: 'ZZ',
  P: 'Z',
};

/** PHP characters whose value is computed for the date (dayjs core has no token for them). */
function computed(ch: string, d: Date, language: DateLanguage, options: DateFormatOptions): string | null {
  switch (ch) {
    case 'N':
      return String(d.getDay() || 7);
    case 'S':
      // PHP's suffix is English; Spanish writes the day without one.
      return language === 'en' ? englishSuffix(d.getDate()) : '';
    case 'z':
      return String(dayOfYear(d));
    case 'W':
      return pad(isoWeek(d).week);
    case 't':
      return String(daysInMonth(d));
    case 'L':
      return isLeapYear(d.getFullYear()) ? '1' : '0';
    case 'o':
      return String(isoWeek(d).year);
    case 'u':
      return pad(d.getMilliseconds() * 1000, 6);
    case 'e':
      return zoneName(options.timeZone);
    case 'T':
      return zoneAbbreviation(d, options.timeZone);
    case 'Z':
      return String(-d.getTimezoneOffset() * 60);
    case 'U':
      return String(Math.floor(d.getTime() / 1000));
    case 'r':
      // RFC 2822 is always English.
      return `${EN_DAYS_SHORT[d.getDay()]}, ${pad(d.getDate())} ${EN_MONTHS_SHORT[d.getMonth()]} ${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${offset(d, false)}`;
    default:
      return null;
  }
}

type Piece = { token: string } | { literal: string };

/**
 * The dayjs format string that renders `pattern` (PHP date() notation) for `date`: format
 * characters become dayjs tokens, computed values and every other character become bracketed
 * literals, a backslash escapes the next character.
 */
export function phpToDayjs(pattern: string, date: Date, options: DateFormatOptions = {}): string {
  const language = dateLanguage(options.language);
  const pieces: Piece[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      i++;
      pieces.push({ literal: i < pattern.length ? pattern[i] : '\\' });
      continue;
    }
    if (ch === 'c') {
      pieces.push({ token: 'YYYY-MM-DD' }, { literal: 'T' }, { token: 'HH:mm:ssZ' });
      continue;
    }
    if (DIRECT[ch]) {
      pieces.push({ token: DIRECT[ch] });
      continue;
    }
    const value = computed(ch, date, language, options);
    pieces.push({ literal: value ?? ch });
  }
  let out = '';
  let literal = '';
  const flush = () => {
    // dayjs copies [..] verbatim; ']' cannot sit inside brackets but is no token either.
    out += literal
      .split(']')
      .map((part) => (part ? `[${part}]` : ''))
      .join(']');
    literal = '';
  };
  for (const p of pieces) {
    if ('literal' in p) {
      literal += p.literal;
      continue;
    }
    flush();
    // Two tokens of one letter side by side would read as one ('M' + 'MM' is 'MMM'): write the second as its value.
    if (out && out[out.length - 1] === p.token[0]) literal += dayjs(date).locale(language).format(p.token);
    else out += p.token;
  }
  flush();
  return out;
}

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * A date in the member's format and language; '' when the value is missing or not a date.
 * `pattern` is the PHP-style pattern of loaded_modules.date_format (DEFAULT_DATE_FORMAT when empty).
 */
export function formatDate(value: DateInput, pattern?: string | null, options: DateFormatOptions = {}): string {
  const d = toDate(value);
  if (!d) return '';
  const fmt = phpToDayjs(pattern || DEFAULT_DATE_FORMAT, d, options);
  // dayjs reads an empty format as "its default": a pattern that renders nothing stays empty.
  return fmt ? dayjs(d).locale(dateLanguage(options.language)).format(fmt) : '';
}

/** PHP characters that show a time of day (or a zone). */
const TIME_CHARS = new Set(['a', 'A', 'B', 'g', 'G', 'h', 'H', 'i', 's', 'u', 'v', 'e', 'I', 'O', 'P', 'p', 'T', 'Z']);

/**
 * The date part of a pattern, for values that are days (birthdays, joining dates): everything from
 * the first time character on is dropped, with the separators before it. 'l, d M Y H:i' → 'l, d M Y'.
 */
export function datePattern(pattern?: string | null): string {
  const p = pattern || DEFAULT_DATE_FORMAT;
  if (/^[crU]$/.test(p)) return 'M j, Y';
  let cut = p.length;
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    if (TIME_CHARS.has(p[i])) {
      cut = i;
      break;
    }
  }
  const head = p.slice(0, cut).replace(/[\s,;:@T-]+$/, '');
  return head || 'M j, Y';
}

/** The date only, in the member's format and language. */
export function formatDay(value: DateInput, pattern?: string | null, options: DateFormatOptions = {}): string {
  return formatDate(value, datePattern(pattern), options);
}

/** Monday 00:00 (local) of the week of `value`. */
export function startOfWeek(value: Date): Date {
  const d = new Date(value.getFullYear(), value.getMonth(), value.getDate());
  d.setDate(d.getDate() - ((d.getDay() - WEEK_START + 7) % 7));
  return d;
}

/** Sunday 23:59:59.999 (local) of the week of `value`. */
export function endOfWeek(value: Date): Date {
  const s = startOfWeek(value);
  return new Date(s.getFullYear(), s.getMonth(), s.getDate() + 6, 23, 59, 59, 999);
}

/** Weekday names in week order (Monday first), in the language. */
export function weekdayNames(language?: string | null, width: 'long' | 'short' | 'min' = 'short'): string[] {
  const token = width === 'long' ? 'dddd' : width === 'short' ? 'ddd' : 'dd';
  // 1 January 2024 was a Monday.
  return Array.from({ length: 7 }, (_, i) => dayjs(new Date(2024, 0, 1 + i)).locale(dateLanguage(language)).format(token));
}

/** The member's time zone, as the browser knows it (UTC when it cannot say). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
