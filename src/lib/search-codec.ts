/**
 * Query strings ⇄ typed values, driven by the query schemas of src/schemas/list-query.schema.ts.
 *
 * - `readQuery` reads a query string the way the reference server does: repeated and bracketed keys
 *   (`a=1&a=2`, `a[]=1`, `a[0]=1&a[1]=2`) become a list, anything else stays text.
 * - `writeQuery` turns a typed value back into parameters, each list spelled the way its schema asks
 *   (arrayStyles: repeat, indexed or brackets), leaving out empty values and the defaults.
 * - `createSearchCodec` pairs them for a page URL: `parse` is tolerant (a hand-edited link still opens
 *   the page: unknown or malformed values are dropped one by one, a list keeps its good values) and
 *   `format` writes only what differs from the defaults.
 */
import type * as z from 'zod/mini';
import { arrayStyles, type ArrayStyle, type QueryParams } from '../schemas/list-query.schema';

export type RawQuery = Record<string, string | string[]>;
/** A query as the API client takes it (src/api/client.ts `Query`). */
export type QueryRecord = Record<string, string | string[]>;

/** Most parameters read from one query string, and most values one list keeps. */
const MAX_PARAMS = 200;
const MAX_VALUES = 100;

/** `a=1&a=2`, `a[]=1`, `a[0]=1&a[1]=2` → `{ a: ['1', '2'] }`; a leading `?` is ignored. */
export function readQuery(search: string): RawQuery {
  const out: RawQuery = {};
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  let n = 0;
  for (const [rawKey, value] of params) {
    if (++n > MAX_PARAMS) break;
    const m = /^([^[\]]+)\[(\d{0,3})\]$/.exec(rawKey);
    const key = m ? m[1] : rawKey;
    const prev = out[key];
    if (!m && prev === undefined) {
      out[key] = value;
      continue;
    }
    const list = Array.isArray(prev) ? prev : prev === undefined ? [] : [prev];
    if (list.length < MAX_VALUES) list.push(value);
    out[key] = list;
  }
  return out;
}

type Shape = Record<string, z.ZodMiniType>;
interface ObjectSchema {
  shape: Shape;
}

/** The schema under z.optional(…), where the registry of list spellings finds it. */
function unwrap(field: z.ZodMiniType): z.ZodMiniType {
  const def = field._zod.def as { type: string; innerType?: z.ZodMiniType };
  return def.type === 'optional' && def.innerType ? unwrap(def.innerType) : field;
}

const styleOf = (field: z.ZodMiniType): ArrayStyle | undefined => arrayStyles.get(unwrap(field))?.style;

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The value of one parameter if `field` accepts it; a list keeps the values it accepts one by one, a
 * repeated single parameter its first good value; undefined when nothing is left.
 */
export function tolerantValue(field: z.ZodMiniType, raw: unknown): unknown {
  if (raw === undefined) return undefined;
  const whole = field.safeParse(raw);
  if (whole.success) return whole.data;
  const items = Array.isArray(raw) ? raw : [raw];
  if (styleOf(field)) {
    const good = items.filter((x) => field.safeParse(x).success);
    const list = good.length ? field.safeParse(good) : null;
    return list?.success ? list.data : undefined;
  }
  for (const x of items) {
    const one = field.safeParse(x);
    if (one.success) return one.data;
  }
  return undefined;
}

/** The parameters of `value` that `schema` declares, lists spelled as their schema asks; no empty values, no defaults. */
export function writeQuery<S extends ObjectSchema>(schema: S, value: Record<string, unknown>, defaults: Record<string, unknown> = {}): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [key, field] of Object.entries(schema.shape)) {
    const v = value[key];
    if (isEmpty(v) || (key in defaults && same(v, defaults[key]))) continue;
    if (Array.isArray(v)) {
      const style = styleOf(field) ?? 'repeat';
      v.forEach((x, i) => out.push([style === 'indexed' ? `${key}[${i}]` : style === 'brackets' ? `${key}[]` : key, String(x)]));
    } else {
      out.push([key, String(v)]);
    }
  }
  return out;
}

/** The same as a query record for the API client (a repeated key holds a list). */
export function queryRecord<S extends ObjectSchema>(schema: S, value: Record<string, unknown>): QueryRecord {
  const out: QueryRecord = {};
  for (const [k, v] of writeQuery(schema, value)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** `?a=1&b=2`, or '' when there is nothing to write; brackets stay readable. */
export function searchString(params: Array<[string, string]>): string {
  const q = new URLSearchParams(params).toString().replace(/%5B/g, '[').replace(/%5D/g, ']');
  return q ? `?${q}` : '';
}

export interface SearchCodecOptions<T> {
  /** Values a URL need not name (not written; filled in when absent). */
  defaults?: Partial<T>;
  /** Older parameter names still read (old name → parameter), so earlier links keep working. */
  aliases?: Record<string, string>;
  /** Parameters of the schema the URL carries (default: all of them). */
  fields?: ReadonlyArray<keyof T & string>;
  /** Repairs across parameters after reading and before writing (the schema's rules, applied leniently). */
  normalize?: (value: T) => T;
}

export interface SearchCodec<T> {
  parse(search: string): T;
  format(value: T): string;
}

export function createSearchCodec<S extends ObjectSchema & z.ZodMiniType>(schema: S, opts: SearchCodecOptions<Partial<QueryParams<S>>> = {}): SearchCodec<Partial<QueryParams<S>>> {
  type T = Partial<QueryParams<S>>;
  const names = opts.fields ?? Object.keys(schema.shape);
  const shape: Shape = Object.fromEntries(names.map((n) => [n, schema.shape[n]]));
  const view = { shape };
  const defaults = (opts.defaults ?? {}) as Record<string, unknown>;
  const normalize = opts.normalize ?? ((v: T) => v);
  return {
    parse(search) {
      const raw = readQuery(search);
      for (const [old, name] of Object.entries(opts.aliases ?? {})) if (raw[name] === undefined && raw[old] !== undefined) raw[name] = raw[old];
      const out: Record<string, unknown> = { ...defaults };
      for (const [key, field] of Object.entries(shape)) {
        const v = tolerantValue(field, raw[key]);
        if (v !== undefined) out[key] = v;
      }
      return normalize(out as T);
    },
    format(value) {
      return searchString(writeQuery(view, normalize(value) as Record<string, unknown>, defaults));
    },
  };
}
