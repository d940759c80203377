/**
 * Cursor-paged lists (spec §4): keyset pagination by (created_at, id) with an opaque cursor, the
 * list filters every history/wallet list shares (sort, date_range presets, start/end dates) and
 * `next_page_url` = the same path with the same filters and the next cursor.
 *
 * The parameters are read with the query schemas of src/schemas/list-query.schema.ts (the ones each
 * route declares as its `querystring`): bad input becomes a field map of i18n keys and never reaches SQL.
 */
import { sql, type SQL } from 'drizzle-orm';
import type * as z from 'zod/mini';
import {
  DATE_RANGES,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  isYmd,
  listParam,
  listQuerySchema,
  oneOfParam,
  textValue,
  type ListQuery as ListParams,
  type QueryParams,
  type Sort,
} from '../../src/schemas/list-query.schema';
import { searchString, tolerantValue } from '../../src/lib/search-codec';
import { MAX_ID } from '../../src/schemas/values.schema';
import { issuesToFieldMap, validationError, type FieldMap } from './errors';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Sort };

export const DATE_PRESETS = DATE_RANGES;
export type DatePreset = (typeof DATE_PRESETS)[number];

export interface Cursor {
  /** created_at in epoch milliseconds (list timestamps have millisecond precision). */
  t: number;
  id: number;
  sort: Sort;
}

/** Opaque to clients: base64url of "v1|sort|millis|id". */
export function encodeCursor(c: Cursor): string {
  return Buffer.from(`v1|${c.sort}|${c.t}|${c.id}`, 'utf8').toString('base64url');
}

/** The instants a cursor may name: the calendar days of the list filters (years 1900 … 2999). */
export const CURSOR_MIN_TIME = Date.UTC(1900, 0, 1);
export const CURSOR_MAX_TIME = Date.UTC(3000, 0, 1) - 1;

/** The cursor `s` names, or null when it is none of ours or names a time or id no row can have. */
export function decodeCursor(s: string): Cursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(s)) return null;
  const text = Buffer.from(s, 'base64url').toString('utf8');
  const m = /^v1\|(asc|desc)\|(-?\d{1,15})\|(\d{1,10})$/.exec(text);
  if (!m) return null;
  const t = Number(m[2]);
  const id = Number(m[3]);
  if (t < CURSOR_MIN_TIME || t > CURSOR_MAX_TIME || id > MAX_ID) return null;
  return { sort: m[1] as Sort, t, id };
}

const DAY = 86_400_000;

/** "2025-02-28" → that day at 00:00 UTC; null when it is not a real calendar date (1900–2999). */
export function parseYmd(s: string): Date | null {
  return isYmd(s) ? new Date(`${s}T00:00:00Z`) : null;
}

export const ymd = (d: Date): string => d.toISOString().slice(0, 10);

const utcDay = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** Half-open [from, to) of a preset, in UTC; weeks start on Monday (spec §9). */
export function presetRange(preset: Exclude<DatePreset, 'custom'>, now: Date): { from: Date; to: Date } {
  const today = utcDay(now);
  const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * DAY);
  const y = today.getUTCFullYear();
  const mo = today.getUTCMonth();
  switch (preset) {
    case 'today':
      return { from: today, to: new Date(today.getTime() + DAY) };
    case 'yesterday':
      return { from: new Date(today.getTime() - DAY), to: today };
    case 'this_week':
      return { from: monday, to: new Date(monday.getTime() + 7 * DAY) };
    case 'last_week':
      return { from: new Date(monday.getTime() - 7 * DAY), to: monday };
    case 'this_month':
      return { from: new Date(Date.UTC(y, mo, 1)), to: new Date(Date.UTC(y, mo + 1, 1)) };
    case 'last_month':
      return { from: new Date(Date.UTC(y, mo - 1, 1)), to: new Date(Date.UTC(y, mo, 1)) };
    case 'this_year':
      return { from: new Date(Date.UTC(y, 0, 1)), to: new Date(Date.UTC(y + 1, 0, 1)) };
  }
}

type Raw = Record<string, unknown>;

/** Collects the field map of a failed parse (the keys the schemas name). */
function issuesOf(result: { success: boolean; error?: { issues: unknown[] } }): FieldMap {
  return result.success ? {} : issuesToFieldMap(result.error!.issues as never);
}

type ListSchema = z.ZodMiniType<ListParams> & { shape: Record<string, z.ZodMiniType> };

/**
 * Reads a list's query string with listQuerySchema, or with the list's own schema (then `values`
 * carries its own filters too, e.g. `new ListQuery(query, { schema: transactionsQuery(KEYS) }).values.transaction_key`).
 * Every accepted parameter is remembered (normalised) so `urlWith`/`page` repeat exactly the same filters.
 */
export class ListQuery<S extends ListSchema = typeof listQuerySchema> {
  readonly errors: FieldMap = {};
  readonly sort: Sort;
  readonly limit: number;
  readonly cursor: Cursor | null;
  /** Half-open [from, to) or nulls. */
  readonly from: Date | null = null;
  readonly to: Date | null = null;
  /** The parsed parameters (what the schema accepted; the bad ones left out). */
  readonly values: QueryParams<S>;
  private readonly params: Array<[string, string]> = [];

  constructor(
    private readonly raw: Raw,
    opts: { now?: Date; paged?: boolean; schema?: S } = {},
  ) {
    const now = opts.now ?? new Date();
    const paged = opts.paged ?? true;
    const schema: ListSchema = opts.schema ?? listQuerySchema;

    const parsed = schema.safeParse(raw);
    for (const [field, keys] of Object.entries(issuesOf(parsed))) for (const k of keys) this.fail(field, k);
    const v = (parsed.success ? parsed.data : this.tolerant(schema.shape)) as ListParams;
    this.values = v as QueryParams<S>;

    this.sort = v.sort ?? 'desc';
    if (v.sort) this.params.push(['sort', v.sort]);

    let limit = DEFAULT_PAGE_SIZE;
    let cursor: Cursor | null = null;
    if (paged) {
      if (v.limit) {
        limit = Number(v.limit);
        this.params.push(['limit', v.limit]);
      }
      if (v.cursor) {
        cursor = decodeCursor(v.cursor);
        // A cursor continues the walk it was made for: the same sort.
        if (!cursor || cursor.sort !== this.sort) {
          cursor = null;
          this.fail('cursor', 'validation:invalidCursor');
        }
      }
    }
    this.limit = limit;
    this.cursor = cursor;

    const range = this.readRange(v, now);
    if (range) {
      this.from = range.from;
      this.to = range.to;
    }
  }

  /** The parameters `shape` accepts one by one (after a failed parse, so the rest can still be read). */
  private tolerant(shape: Record<string, z.ZodMiniType>): Raw {
    const out: Raw = {};
    for (const [k, field] of Object.entries(shape)) {
      const v = tolerantValue(field, this.raw[k]);
      if (v !== undefined && !this.errors[k]) out[k] = v;
    }
    return out;
  }

  private readRange({ date_range: preset, start_date, end_date }: ListParams, now: Date): { from: Date | null; to: Date | null } | null {
    if (preset && preset !== 'custom') {
      this.params.push(['date_range', preset]);
      return presetRange(preset, now);
    }
    if (preset === 'custom') this.params.push(['date_range', 'custom']);
    if (this.errors.start_date || this.errors.end_date) return null;
    const start = start_date ? parseYmd(start_date) : null;
    const end = end_date ? parseYmd(end_date) : null;
    if (start) this.params.push(['start_date', start_date!]);
    if (end) this.params.push(['end_date', end_date!]);
    if (!start && !end) return null;
    return { from: start, to: end ? new Date(end.getTime() + DAY) : null };
  }

  fail(field: string, key: string) {
    const list = (this.errors[field] ??= []);
    if (!list.includes(key)) list.push(key);
  }

  /** Parses parameter `name` with `schema` (made only when the parameter is there); its answer goes to the field map. */
  private read<T>(name: string, schema: z.ZodMiniType<T> | (() => z.ZodMiniType<T>)): T | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    const r = (typeof schema === 'function' ? schema() : schema).safeParse(v);
    if (r.success) return r.data;
    for (const [, keys] of Object.entries(issuesOf(r))) for (const k of keys) this.fail(name, k);
    return undefined;
  }

  /** One value of a parameter; a repeated parameter is an error. */
  single(name: string): string | undefined {
    return this.read(name, textValue);
  }

  /** A single text value, trimmed; a non-empty one is remembered for the next page (a search). */
  text(name: string): string | undefined {
    const v = this.single(name)?.trim();
    if (v) this.params.push([name, v]);
    return v || undefined;
  }

  /** A single value that must be one of `allowed` (remembered for the next page). */
  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    if (!allowed.length) return undefined;
    const v = this.read(name, () => oneOfParam(allowed as readonly [T, ...T[]]));
    if (v !== undefined) this.params.push([name, v]);
    return v;
  }

  /** A list (`k=a&k=b`, `k[]=a`, `k[0]=a`) whose values must be in `allowed`; deduplicated. */
  manyOf<T extends string>(name: string, allowed: readonly T[]): T[] {
    if (!allowed.length) return [];
    const out = this.read(name, () => listParam(oneOfParam(allowed as readonly [T, ...T[]]), 'indexed')) ?? [];
    out.forEach((x, i) => this.params.push([`${name}[${i}]`, x]));
    return out;
  }

  /** Throw the 422 validation answer when anything was wrong. */
  check(): this {
    if (Object.keys(this.errors).length) throw validationError(this.errors);
    return this;
  }

  /** The given path with the same filters and `cursor`. */
  urlWith(path: string, cursor: string | null): string {
    return path + searchString(cursor ? [...this.params, ['cursor', cursor]] : this.params);
  }

  /** WHERE fragment for the date range on `col`. */
  rangeSql(col: SQL): SQL {
    const parts: SQL[] = [];
    if (this.from) parts.push(sql`${col} >= ${this.from.toISOString()}::timestamptz`);
    if (this.to) parts.push(sql`${col} < ${this.to.toISOString()}::timestamptz`);
    return parts.length ? sql.join(parts, sql` AND `) : sql`TRUE`;
  }

  /** WHERE fragment continuing after the cursor, for rows ordered by (createdCol, idCol). */
  afterCursorSql(createdCol: SQL, idCol: SQL): SQL {
    const c = this.cursor;
    if (!c) return sql`TRUE`;
    const t = new Date(c.t).toISOString();
    return this.sort === 'desc'
      ? sql`(${createdCol}, ${idCol}) < (${t}::timestamptz, ${c.id})`
      : sql`(${createdCol}, ${idCol}) > (${t}::timestamptz, ${c.id})`;
  }

  orderSql(createdCol: SQL, idCol: SQL): SQL {
    return this.sort === 'desc' ? sql`${createdCol} DESC, ${idCol} DESC` : sql`${createdCol} ASC, ${idCol} ASC`;
  }

  /**
   * Cut a fetched page (queried with LIMIT limit + 1) and build `next_page_url`.
   * `key` gives each row's (created_at, id).
   */
  page<R>(path: string, rows: R[], key: (r: R) => { createdAt: Date; id: number }): { items: R[]; next_page_url: string | null } {
    const more = rows.length > this.limit;
    const items = more ? rows.slice(0, this.limit) : rows;
    if (!more) return { items, next_page_url: null };
    const last = key(items[items.length - 1]);
    return { items, next_page_url: this.urlWith(path, encodeCursor({ t: last.createdAt.getTime(), id: last.id, sort: this.sort })) };
  }
}

/** CSV text: RFC 4180 quoting, and text cells that a spreadsheet would run as a formula are defused. */
export function toCsv(header: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cell = (v: string | number | null | undefined) => {
    if (v === null || v === undefined) return '';
    let s = String(v);
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Answer a CSV download (spec §7: a GET with a file answer). */
export function sendCsv(
  reply: { header(k: string, v: string): unknown; type(t: string): unknown; send(body: string): unknown },
  baseName: string,
  header: string[],
  rows: Array<Array<string | number | null | undefined>>,
  now = new Date(),
) {
  const name = `${baseName}-${ymd(now)}.csv`;
  reply.header('Content-Disposition', `attachment; filename="${name}"`);
  reply.header('Cache-Control', 'no-store');
  reply.type('text/csv; charset=utf-8');
  // A byte-order mark lets spreadsheet programs read the file as UTF-8.
  return reply.send('\uFEFF' + toCsv(header, rows));
}

/** Most rows one export returns. */
export const EXPORT_LIMIT = 10_000;
