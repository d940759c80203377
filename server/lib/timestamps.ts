/**
 * Times as answered: ISO 8601 text in UTC with milliseconds (`Date.prototype.toISOString`).
 *
 * The database drivers hand a `timestamptz` column over as PostgreSQL's own text ("2026-10-02 14:00:00.123+00"
 * in a UTC session), or as a Date. Reading that text into a Date and writing it out again costs more than a
 * list's whole query on the server's side, so the usual shape (a UTC session, years 1000–9999) is rewritten as
 * text; anything else goes through a Date as before. Either way the answer is `new Date(value).toISOString()`.
 */

/** PostgreSQL's ISO output of a timestamptz in a UTC session: date, time, up to six digits of fraction, "+00". */
const PG_UTC = /^([1-9]\d{3}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/** `new Date(value).toISOString()`, without the Date when `value` is PostgreSQL's text of a UTC time. */
export function isoTime(value: string | Date): string {
  if (typeof value === 'string') {
    const m = PG_UTC.exec(value);
    if (m) {
      // Milliseconds as a Date keeps them: the first three digits of the fraction (the rest cut off).
      const f = m[3];
      return `${m[1]}T${m[2]}.${f === undefined ? '000' : f.length >= 3 ? f.slice(0, 3) : f.padEnd(3, '0')}Z`;
    }
  }
  return new Date(value).toISOString();
}
