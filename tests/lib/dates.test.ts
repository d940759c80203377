/** Dates on screen (spec §9): PHP-style patterns through dayjs, English and Spanish, weeks from Monday. */
import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import {
  DEFAULT_DATE_FORMAT,
  datePattern,
  endOfWeek,
  formatDate,
  formatDay,
  isoWeek,
  phpToDayjs,
  startOfWeek,
  weekdayNames,
} from '../../src/lib/dates';
import { DATE_FORMATS } from '../../src/schemas/preferences.schema';

// Monday 5 January 2026, 14:03:09.045 in the local zone (tests do not depend on the machine's zone).
const d = new Date(2026, 0, 5, 14, 3, 9, 45);
const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');
const offsetOf = (date: Date, colon: boolean) => {
  const m = -date.getTimezoneOffset();
  return `${m < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(m) / 60))}${colon ? ':' : ''}${pad(Math.abs(m) % 60)}`;
};

describe('default and named formats', () => {
  it('defaults to short month, day, year and 12-hour time with AM/PM', () => {
    expect(formatDate(d)).toBe('Jan 5, 2026 2:03 PM');
    expect(formatDate(d, null)).toBe('Jan 5, 2026 2:03 PM');
    expect(formatDate(d, '')).toBe(formatDate(d, DEFAULT_DATE_FORMAT));
    expect(formatDate(new Date(2026, 10, 21, 0, 7), undefined)).toBe('Nov 21, 2026 12:07 AM');
  });

  it("'l, d M Y H:i' shows the full weekday name and 24-hour time", () => {
    expect(formatDate(d, 'l, d M Y H:i')).toBe('Monday, 05 Jan 2026 14:03');
    expect(formatDate(d, 'l, d M Y H:i', { language: 'es' })).toBe('lunes, 05 ene 2026 14:03');
  });

  it('the company default of the seeded server', () => {
    expect(formatDate(d, 'M d, Y h:i A')).toBe('Jan 05, 2026 02:03 PM');
  });

  it('uses Spanish month and day names when the language is es', () => {
    expect(formatDate(d, 'j F Y', { language: 'es' })).toBe('5 enero 2026');
    expect(formatDate(d, 'D, j M', { language: 'es-ES' })).toBe('lun., 5 ene');
    expect(formatDate(new Date(2026, 7, 9), 'l j \\d\\e F', { language: 'es' })).toBe('domingo 9 de agosto');
    expect(formatDate(d, 'j F Y', { language: 'fr' })).toBe('5 January 2026');
  });

  it('every offered date format renders, in both languages', () => {
    for (const f of DATE_FORMATS) {
      for (const language of ['en', 'es']) {
        const out = formatDate(d, f, { language });
        expect(out).toMatch(/2026|26/);
        expect(out).toMatch(/14|2/);
      }
    }
  });
});

describe('every PHP format character', () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const cases: Array<[string, string, string?]> = [
    ['d', '05'],
    ['D', 'Mon', 'lun.'],
    ['j', '5'],
    ['l', 'Monday', 'lunes'],
    ['N', '1'],
    ['S', 'th', ''],
    ['w', '1'],
    ['z', '4'],
    ['W', '02'],
    ['F', 'January', 'enero'],
    ['m', '01'],
    ['M', 'Jan', 'ene'],
    ['n', '1'],
    ['t', '31'],
    ['L', '0'],
    ['o', '2026'],
    ['Y', '2026'],
    ['y', '26'],
    ['a', 'pm'],
    ['A', 'PM'],
    ['g', '2'],
    ['G', '14'],
    ['h', '02'],
    ['H', '14'],
    ['i', '03'],
    ['s', '09'],
    ['u', '045000'],
    ['v', '045'],
    ['e', zone],
    ['P', offsetOf(d, true)],
    ['O', offsetOf(d, false)],
    ['Z', String(-d.getTimezoneOffset() * 60)],
    ['U', String(Math.floor(d.getTime() / 1000))],
    ['c', `2026-01-05T14:03:09${offsetOf(d, true)}`],
    ['r', `Mon, 05 Jan 2026 14:03:09 ${offsetOf(d, false)}`, `Mon, 05 Jan 2026 14:03:09 ${offsetOf(d, false)}`],
  ];
  it.each(cases)('%s → %s (es: %s)', (ch, en, es) => {
    expect(formatDate(d, ch)).toBe(en);
    expect(formatDate(d, ch, { language: 'es' })).toBe(es ?? en);
  });

  it('T is the zone abbreviation', () => {
    const t = formatDate(d, 'T', { timeZone: 'UTC' });
    expect(t).toBe('UTC');
    expect(formatDate(d, 'e', { timeZone: 'Europe/Madrid' })).toBe('Europe/Madrid');
  });

  it('English ordinal suffixes', () => {
    const suffix = (day: number) => formatDate(new Date(2026, 2, day), 'jS');
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 24, 31].map(suffix)).toEqual([
      '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '24th', '31st',
    ]);
  });

  it('ISO weeks and week-numbering years at year boundaries, leap years, days in month, day of year', () => {
    expect(formatDate(new Date(2027, 0, 1), 'W o')).toBe('53 2026'); // a Friday: week 53 of 2026
    expect(formatDate(new Date(2025, 11, 29), 'W o Y')).toBe('01 2026 2025'); // a Monday: week 1 of 2026
    expect(isoWeek(new Date(2026, 0, 4))).toEqual({ week: 1, year: 2026 }); // Sunday ends week 1
    expect(formatDate(new Date(2024, 1, 10), 'L t')).toBe('1 29');
    expect(formatDate(new Date(2100, 1, 10), 'L t')).toBe('0 28');
    expect(formatDate(new Date(2024, 11, 31), 'z')).toBe('365');
    expect(formatDate(new Date(2026, 0, 11), 'N w')).toBe('7 0'); // Sunday
  });

  it('midnight and noon in 12-hour time', () => {
    expect(formatDate(new Date(2026, 0, 5, 0, 0), 'g:i a')).toBe('12:00 am');
    expect(formatDate(new Date(2026, 0, 5, 12, 30), 'h:i A')).toBe('12:30 PM');
  });
});

describe('literals', () => {
  it('a backslash escapes the next character', () => {
    expect(formatDate(d, '\\Y\\e\\a\\r: Y')).toBe('Year: 2026');
    expect(formatDate(d, 'Y\\')).toBe('2026\\');
    expect(formatDate(d, '\\\\Y')).toBe('\\2026');
  });

  it('characters with no meaning are copied, brackets included', () => {
    expect(formatDate(d, 'Y [x] ] # @')).toBe('2026 [x] ] # @');
    expect(formatDate(d, 'Y/m/d (q)')).toBe('2026/01/05 (q)');
  });

  it('format characters side by side keep their own meaning', () => {
    expect(formatDate(d, 'nm')).toBe('101');
    expect(formatDate(d, 'wl')).toBe('1Monday');
    expect(formatDate(d, 'jd')).toBe('505');
    expect(formatDate(d, 'YmdHis')).toBe('20260105140309');
  });

  it('maps a pattern to a dayjs format string that dayjs renders the same way', () => {
    expect(phpToDayjs('Y-m-d H:i', d)).toBe('YYYY[-]MM[-]DD[ ]HH[:]mm');
    expect(phpToDayjs('l, d M Y', d)).toBe('dddd[, ]DD[ ]MMM[ ]YYYY');
    const fmt = phpToDayjs('D, j F Y g:i a', d);
    expect(dayjs(d).format(fmt)).toBe(formatDate(d, 'D, j F Y g:i a'));
  });
});

describe('values', () => {
  it('accepts Date, ISO text and milliseconds; anything else gives an empty string', () => {
    const iso = '2026-01-05T14:03:09.045Z';
    expect(formatDate(iso, 'U')).toBe(String(Math.floor(Date.parse(iso) / 1000)));
    expect(formatDate(Date.parse(iso), 'U v')).toBe(`${Math.floor(Date.parse(iso) / 1000)} 045`);
    for (const bad of [null, undefined, '', 'not a date', Number.NaN]) expect(formatDate(bad as never, 'Y')).toBe('');
  });

  it('formats days with the date part of the pattern', () => {
    expect(datePattern('l, d M Y H:i')).toBe('l, d M Y');
    expect(datePattern('M j, Y g:i A')).toBe('M j, Y');
    expect(datePattern('Y-m-d H:i')).toBe('Y-m-d');
    expect(datePattern('d.m.Y H:i')).toBe('d.m.Y');
    expect(datePattern(null)).toBe('M j, Y');
    expect(datePattern('c')).toBe('M j, Y');
    expect(formatDay(d, 'l, d M Y H:i', { language: 'es' })).toBe('lunes, 05 ene 2026');
    expect(formatDay(d)).toBe('Jan 5, 2026');
  });
});

describe('weeks start on Monday', () => {
  it('start and end of the week', () => {
    const sunday = new Date(2026, 0, 11, 18, 0);
    expect(startOfWeek(sunday)).toEqual(new Date(2026, 0, 5));
    expect(startOfWeek(new Date(2026, 0, 5, 9))).toEqual(new Date(2026, 0, 5));
    expect(startOfWeek(new Date(2026, 0, 1))).toEqual(new Date(2025, 11, 29));
    expect(endOfWeek(new Date(2026, 0, 7))).toEqual(new Date(2026, 0, 11, 23, 59, 59, 999));
  });

  it('weekday names in week order', () => {
    expect(weekdayNames('en')).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']);
    expect(weekdayNames('es', 'long')).toEqual(['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo']);
    expect(weekdayNames('en', 'min')).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
  });
});
