/**
 * Member lists (spec §4): one declaration registers a cursor-paged list and, when it names CSV columns, the
 * matching export at `path/export` — the same filters, every row up to EXPORT_LIMIT, as a file (throttled per
 * member across all lists: LIMITS.exportsPerMember).
 *
 * Both calls are for a signed-in member and read through `rows(db, member, …)`, where `member` is the one
 * the bearer token names: a list cannot be declared without that parameter and cannot be opened without
 * a session, so no list can show another member's rows.
 *
 * Paging is keyset paging by (created_at, id): `rows` returns rows in the query's order after its cursor,
 * each with its paging keys (`_at`, `_id`), and this module cuts the page and builds `next_page_url`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type * as z from 'zod/mini';
import { envelope } from '../../src/schemas/common.schema';
import type { AppContext } from './app-context';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import { requireAuth } from './auth';
import { EXPORT_LIMIT, ListQuery, sendCsv } from './pagination';
import { LIMITS, perMember, throttle } from './rate-limit';
import { isoTime } from './timestamps';

/** A list row with its paging keys: created_at (a Date, or its ISO text) and id. */
export type Keyed<T> = T & { _at: Date | string; _id: number };

/** A list row as it is answered: without its paging keys. */
export function unkeyed<T extends { _at: Date | string; _id: number }>(row: T): Omit<T, '_at' | '_id'> {
  const { _at, _id, ...rest } = row;
  void _at;
  void _id;
  return rest;
}

/**
 * A row read for a list: `id`, then `fields`, then `created_at` as answered (ISO text), with the paging keys
 * taken from the same id and time (the ISO text: only the last row of a page is read back as a Date).
 */
export function keyedRow<T extends object>(id: number | string, createdAt: Date | string, fields: T): Keyed<{ id: number } & T & { created_at: string }> {
  const at = isoTime(createdAt);
  return { id: Number(id), ...fields, created_at: at, _at: at, _id: Number(id) };
}

export type CsvCell = string | number | null | undefined;

export interface ListDefinition<Row extends Keyed<object>, Filters, Item, Extra extends object> {
  /** The list's path; the export is `path/export`. */
  path: string;
  tags: string[];
  /** The query string: paging (cursor, limit), sort, dates and the list's own filters. */
  querystring: z.ZodMiniType;
  /** One page's answer (inside the envelope): `items`, `next_page_url` and `extra`. */
  response: z.ZodMiniType;
  /** The list's own filters read from the query (wrong values are recorded on `q`, answered 422 together). */
  filters?: (q: ListQuery) => Filters;
  /** The member's rows matching `q` and `filters`, in `q`'s order after its cursor, at most `limit`. */
  rows: (db: Db, member: MemberRow, q: ListQuery, filters: Filters, limit: number) => Promise<Row[]>;
  /** One row as a page item (default: the row without its paging keys). */
  item?: (row: Row) => Item;
  /** What every page carries after `items` and `next_page_url` (labels, filter choices). */
  extra?: Extra;
  /** The CSV export: file name stem, header row and one line per row. */
  csv?: { name: string; columns: string[]; line: (row: Row) => CsvCell[] };
}

/** Register the paged list (and its CSV export) of `def` on `app`. */
export function listEndpoint<Row extends Keyed<object>, Filters, Item = Omit<Row, '_at' | '_id'>, Extra extends object = object>(
  base: FastifyInstance,
  ctx: AppContext,
  def: ListDefinition<Row, Filters, Item, Extra>,
) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const toItem = def.item ?? ((row: Row) => unkeyed(row) as Item);

  /** The member's rows for this request's query (checked), at most `limit` of them. */
  const read = async (req: FastifyRequest, q: ListQuery, limit: (q: ListQuery) => number) => {
    const filters = def.filters ? def.filters(q) : (undefined as Filters);
    q.check();
    return def.rows(db, req.member!, q, filters, limit(q));
  };

  app.get(
    def.path,
    { preHandler: requireAuth, schema: { tags: def.tags, querystring: def.querystring, response: { 200: envelope(def.response) } } },
    async (req) => {
      const q = new ListQuery(req.query as Record<string, unknown>);
      // One row more than a page tells whether there is a next page.
      const rows = await read(req, q, (checked) => checked.limit + 1);
      const page = q.page(def.path, rows, (r) => ({ createdAt: new Date(r._at), id: r._id }));
      return ctx.envelope(req, { items: page.items.map(toItem), next_page_url: page.next_page_url, ...def.extra }) as never;
    },
  );

  const csv = def.csv;
  if (!csv) return;
  app.get(
    `${def.path}/export`,
    { preHandler: requireAuth, config: throttle([LIMITS.exportsPerMember, perMember]), schema: { tags: def.tags, querystring: def.querystring, produces: ['text/csv'] } },
    async (req, reply) => {
      const q = new ListQuery(req.query as Record<string, unknown>, { paged: false });
      const rows = await read(req, q, () => EXPORT_LIMIT);
      return sendCsv(reply, csv.name, csv.columns, rows.map(csv.line));
    },
  );
}
