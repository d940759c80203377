/**
 * Member-owned records (addresses, CRM entities, tickets, mail…): one declaration registers
 *
 *   GET    path              the member's records, cursor-paged (listEndpoint), and `path/export` when CSV columns are given
 *   GET    path/:id          one record
 *   POST   path              create (201)
 *   PUT    path/:id          update
 *   DELETE path/:id          soft delete (deleted_at), answered { id } so the client can offer undo
 *   POST   path/:id/restore  undo a delete
 *
 * The owner check is not part of the declaration, so it cannot be forgotten: every query here selects with
 * `member_id = <the signed-in member>` (and, but for restore, `deleted_at IS NULL`). Another member's id, a
 * deleted record, an id that does not exist and text that is no id all answer the same 404. Bodies are
 * checked by the declared zod schema (422 with a field map, like every other call), then by `check`
 * for rules a schema cannot express.
 */
import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler, preHandlerHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { envelope } from '../../src/schemas/common.schema';
import type { Db } from '../db/client';
import type { MemberRow } from '../db/schema';
import type { AppContext } from './app-context';
import { recordAudit, type AuditAction } from './audit';
import { protectedAction, requireAuth } from './auth';
import { notFound, validationError, type FieldMap } from './errors';
import { listEndpoint, type CsvCell, type Keyed } from './list-endpoint';
import type { ListQuery } from './pagination';

/** The columns every member-owned table has (drizzle property names). */
export interface OwnedColumns {
  id: AnyPgColumn;
  memberId: AnyPgColumn;
  createdAt: AnyPgColumn;
  deletedAt: AnyPgColumn;
  /** Set on every update when the table has it. */
  updatedAt?: AnyPgColumn;
}

export type OwnedTable = PgTable & OwnedColumns;

type RowOf<T extends OwnedTable> = T['$inferSelect'];
type InsertOf<T extends OwnedTable> = T['$inferInsert'];

export interface ResourceDefinition<T extends OwnedTable, Body, Item, Filters = undefined> {
  /** The collection's path, e.g. `/api/addresses`. */
  path: string;
  tags: string[];
  table: T;
  /** The create and update body. */
  body: z.ZodMiniType<Body>;
  /** One record as answered. */
  item: z.ZodMiniType<Item>;
  /** Column values from a body (may read reference data, e.g. a name); owner, id and dates are set here, whatever this returns. */
  values: (body: Body, db: Db) => Partial<InsertOf<T>> | Promise<Partial<InsertOf<T>>>;
  toItem: (row: RowOf<T>) => Item;
  /** Rules beyond the schema (e.g. unique among the member's records): field errors, or nothing when all is well. */
  check?: (db: Db, member: MemberRow, body: Body, id: number | null) => Promise<FieldMap | undefined>;
  /** The list: its query string and, optionally, filters (extra SQL on the table) and a CSV export. */
  list: {
    querystring: z.ZodMiniType;
    filters?: (q: ListQuery) => Filters;
    where?: (filters: Filters) => SQL | undefined;
    /**
     * The page's records read by a statement of the list's own (instead of the table's rows through `toItem`),
     * for a list read often: the same records, in the same order, as `where` would give.
     */
    read?: (db: Db, member: MemberRow, q: ListQuery, filters: Filters, limit: number) => Promise<Array<Keyed<{ item: Item }>>>;
    csv?: { name: string; columns: string[]; line: (item: Item) => CsvCell[] };
  };
  /** Writes are refused in demo mode (spec §6 protected actions). */
  demoBlocked?: boolean;
  /**
   * Records whose changes belong in the member's audit trail (server/lib/audit.ts): each create, update,
   * delete and restore writes its row in the transaction of the change, with the caller's address.
   */
  audit?: {
    actions: Record<'created' | 'updated' | 'deleted' | 'restored', AuditAction>;
    /** What a reviewer reads of the record (never a secret). */
    detail: (row: RowOf<T>) => Record<string, unknown>;
  };
  /**
   * Rows of another table that belong to each record (a meeting's invitees): `save` writes them in the
   * transaction that creates or updates the record (after `check` accepted the body), `load` adds them to
   * records as answered (list, detail, create, update, restore).
   */
  related?: {
    save: (tx: Db, member: MemberRow, id: number, body: Body) => Promise<void>;
    load: (db: Db, member: MemberRow, items: Item[]) => Promise<Item[]>;
  };
}

/** Highest id of a serial column: anything larger cannot name a record. */
const MAX_ID = 2_147_483_647;

/** The record id in the path, or null when the text cannot be one. */
function recordId(raw: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}

const idParams = z.object({ id: z.string() });
const deletedSchema = z.object({ id: z.number() });

/** Register the list, detail, create, update, delete and restore calls of `def`. */
export function resourceEndpoints<T extends OwnedTable, Body, Item, Filters = undefined>(
  base: FastifyInstance,
  ctx: AppContext,
  def: ResourceDefinition<T, Body, Item, Filters>,
) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const t = def.table as OwnedTable;
  const table = def.table as PgTable;
  const { tags } = def;
  // Writes check the session (and demo mode) before the body is read: no session is a 401 whatever the body.
  const write: Array<preHandlerAsyncHookHandler | preHandlerHookHandler> = def.demoBlocked ? [requireAuth, protectedAction(ctx.isDemo)] : [requireAuth];
  const one = { tags, params: idParams, response: { 200: envelope(def.item) } };

  /** The member's own records: the condition every query here starts from. */
  const owned = (member: MemberRow) => eq(t.memberId, member.id);
  const live = (member: MemberRow, id: number) => and(eq(t.id, id), owned(member), isNull(t.deletedAt));

  const idOf = (req: FastifyRequest) => {
    const id = recordId((req.params as { id: string }).id);
    if (id === null) throw notFound();
    return id;
  };
  const found = (rows: unknown[]) => {
    if (!rows.length) throw notFound();
    return def.toItem(rows[0] as RowOf<T>);
  };
  /** The answered records with their related rows. */
  const expand = async (member: MemberRow, items: Item[]) => (def.related ? def.related.load(db, member, items) : items);
  const answer = async (member: MemberRow, rows: unknown[]) => (await expand(member, [found(rows)]))[0];
  type Change = keyof NonNullable<ResourceDefinition<T, Body, Item, Filters>['audit']>['actions'];
  /** The change's audit row, when the records are audited. */
  const audited = async (tx: Db, req: FastifyRequest, change: Change, rows: unknown[]) => {
    if (!def.audit || !rows.length) return;
    await recordAudit(tx, req.member!.id, def.audit.actions[change], def.audit.detail(rows[0] as RowOf<T>), req.ip);
  };
  /** A write of the record, with (when declared) its related rows and its audit row, in one transaction. */
  const writing = async (req: FastifyRequest, change: Change, body: Body | null, write: (tx: Db) => Promise<unknown[]>) => {
    if (!def.related && !def.audit) return write(db);
    return db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const rows = await write(tx);
      if (rows.length && def.related && body !== null) await def.related.save(tx, req.member!, Number((rows[0] as { id: number }).id), body);
      await audited(tx, req, change, rows);
      return rows;
    });
  };
  const checked = async (member: MemberRow, body: Body, id: number | null) => {
    const errors = def.check ? await def.check(db, member, body, id) : undefined;
    if (errors && Object.keys(errors).length) throw validationError(errors);
    return def.values(body, db);
  };

  listEndpoint(app, ctx, {
    path: def.path,
    tags,
    querystring: def.list.querystring,
    response: z.object({ items: z.array(def.item), next_page_url: z.nullable(z.string()) }),
    filters: def.list.filters ?? (() => undefined as Filters),
    rows: async (db, member, q, filters, limit) => {
      if (def.list.read) {
        const read = await def.list.read(db, member, q, filters, limit);
        const expanded = await expand(member, read.map((r) => r.item));
        return read.map((r, i) => ({ ...r, item: expanded[i] }));
      }
      const extra = def.list.where?.(filters);
      const rows = (await db
        .select()
        .from(table)
        .where(
          and(
            owned(member),
            isNull(t.deletedAt),
            q.rangeSql(sql`${t.createdAt}`),
            q.afterCursorSql(sql`${t.createdAt}`, sql`${t.id}`),
            ...(extra ? [extra] : []),
          ),
        )
        .orderBy(q.orderSql(sql`${t.createdAt}`, sql`${t.id}`))
        .limit(limit)) as Array<RowOf<T> & { id: number; createdAt: Date }>;
      const items = await expand(member, rows.map((r) => def.toItem(r)));
      return rows.map((r, i): Keyed<{ item: Item }> => ({ item: items[i], _at: new Date(r.createdAt), _id: Number(r.id) }));
    },
    item: (r) => r.item,
    csv: def.list.csv && { name: def.list.csv.name, columns: def.list.csv.columns, line: (r) => def.list.csv!.line(r.item) },
  });

  app.get(`${def.path}/:id`, { preHandler: requireAuth, schema: one }, async (req) => {
    const rows = await db.select().from(table).where(live(req.member!, idOf(req))).limit(1);
    return ctx.envelope(req, await answer(req.member!, rows)) as never;
  });

  app.post(
    def.path,
    { preValidation: write, schema: { tags, body: def.body, response: { 201: envelope(def.item) } } },
    async (req, reply) => {
      const member = req.member!;
      const values = await checked(member, req.body as Body, null);
      // Timestamps from here have the cursor's precision (milliseconds), so paging never skips a record.
      const now = new Date();
      const rows = await writing(req, 'created', req.body as Body, (tx) =>
        tx
          .insert(table)
          .values({ ...values, memberId: member.id, createdAt: now, ...(t.updatedAt ? { updatedAt: now } : {}) } as never)
          .returning() as Promise<unknown[]>,
      );
      reply.status(201);
      return ctx.envelope(req, await answer(member, rows)) as never;
    },
  );

  /** Before the body is read: someone else's record (or none) answers 404 whatever the body. */
  const exists: preHandlerAsyncHookHandler = async (req) => {
    if (!(await db.select({ id: t.id }).from(table).where(live(req.member!, idOf(req))).limit(1)).length) throw notFound();
  };

  app.put(`${def.path}/:id`, { preValidation: [...write, exists], schema: { ...one, body: def.body } }, async (req) => {
    const member = req.member!;
    const id = idOf(req);
    const values = await checked(member, req.body as Body, id);
    const rows = await writing(req, 'updated', req.body as Body, (tx) =>
      tx
        .update(table)
        .set({ ...values, ...(t.updatedAt ? { updatedAt: new Date() } : {}) } as never)
        .where(live(member, id))
        .returning() as Promise<unknown[]>,
    );
    return ctx.envelope(req, await answer(member, rows)) as never;
  });

  app.delete(`${def.path}/:id`, { preValidation: write, schema: { tags, params: idParams, response: { 200: envelope(deletedSchema) } } }, async (req) => {
    const id = idOf(req);
    const rows = await writing(req, 'deleted', null, (tx) =>
      tx
        .update(table)
        .set({ deletedAt: new Date() } as never)
        .where(live(req.member!, id))
        .returning() as Promise<unknown[]>,
    );
    if (!rows.length) throw notFound();
    return ctx.envelope(req, { id });
  });

  app.post(`${def.path}/:id/restore`, { preValidation: write, schema: one }, async (req) => {
    const rows = await writing(req, 'restored', null, (tx) =>
      tx
        .update(table)
        .set({ deletedAt: null } as never)
        .where(and(eq(t.id, idOf(req)), owned(req.member!), isNotNull(t.deletedAt)))
        .returning() as Promise<unknown[]>,
    );
    return ctx.envelope(req, await answer(req.member!, rows as unknown[])) as never;
  });
}
