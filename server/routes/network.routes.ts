/** Network calls (spec §7): genealogy, tabular tree, max levels and the downline report. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import {
  downlineCategorySchema,
  downlineReportQuerySchema,
  downlineReportSchema,
  freePlacesQuerySchema,
  freePlacesSchema,
  genealogyQuerySchema,
  genealogySchema,
  maxLevelsSchema,
  nodeIdParamsSchema,
  tableViewQuerySchema,
  tableViewSchema,
  tableViewSingleQuerySchema,
  tableViewSingleSchema,
  type DownlineCategory,
} from '../../src/schemas/network.schema';
import { requireAuth } from '../lib/auth';
import { freePlaces } from '../lib/free-places';
import { fieldError } from '../lib/errors';
import { sendJsonText } from '../lib/response-serializer';
import {
  REPORT_PAGE_SIZE,
  TABLE_VIEW_LEVELS,
  companyPlan,
  decodeCursor,
  downlineReport,
  encodeCursor,
  genealogyTree,
  ownGenealogyTree,
  parentUsername,
  resolveRoot,
  subtreeHeight,
  tableLevel,
  tableTree,
} from '../lib/genealogy';

/** `/api/…?a=1&b=2` with the given query, leaving out empty values. */
function pageUrl(path: string, query: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
  return `${path}?${q.toString()}`;
}

export async function networkRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['network'];

  const planInfo = () => companyPlan(ctx.settings);

  const me = (req: FastifyRequest) => req.member!;

  /**
   * Register `base` and `base/:param` with one handler: the spec's optional path segment
   * (`/api/network/genealogy[/{id}]`) as two routes, so the OpenAPI document names both plainly.
   */
  function withOptional<Q extends z.ZodMiniType, R extends z.ZodMiniType>(
    base: string,
    param: 'id' | 'category',
    paramSchema: z.ZodMiniType<string>,
    querystring: Q,
    response: R,
    handler: (
      req: FastifyRequest<{ Querystring: z.infer<Q> }>,
      param: string | undefined,
      reply: FastifyReply,
    ) => Promise<{ data: z.infer<R> } | string>,
  ) {
    const schema = { tags, querystring, response: { 200: envelope(response) } };
    app.get(base, { preHandler: requireAuth, schema }, (req, reply) => handler(req as never, undefined, reply) as never);
    app.get(
      `${base}/:${param}`,
      { preHandler: requireAuth, schema: { ...schema, params: z.object({ [param]: paramSchema }) } },
      (req, reply) => handler(req as never, (req.params as Record<string, string>)[param], reply) as never,
    );
  }

  // The tree comes as JSON text (each node written by the database), and so does the answer around it.
  const genealogyAnswer = envelope(genealogySchema);
  withOptional('/api/network/genealogy', 'id', nodeIdParamsSchema.shape.id, genealogyQuerySchema, genealogySchema, async (req, id, reply) => {
    const caller = me(req);
    const { root, searchValid } = await resolveRoot(ctx.database, caller, { id, username: req.query.username });
    const plan = await planInfo();
    const nested = req.query.is_nested === '1' || req.query.is_nested === 'true';
    const from = req.query.children_from === undefined ? undefined : Number(req.query.children_from);
    // The tree the member opens on is kept (ownGenealogyTree); any other is read.
    const own = root.id === caller.id && from === undefined;
    const [tree, parent] = await Promise.all([
      own ? ownGenealogyTree(ctx.database, ctx.settings, caller, plan, nested) : genealogyTree(ctx.database, ctx.settings, caller.depth, root, plan, nested, from),
      parentUsername(ctx.database, caller, root),
    ]);
    const rest = JSON.stringify({
      search_valid: searchValid,
      signup_from_tree: plan.signupFromTree,
      parent_username: parent,
      max_levels: tree.maxLevels,
      max_width: plan.maxWidth,
      root_affiliate_id: root.id,
      compensation_plan: plan.plan,
      more_children: tree.moreChildren,
    });
    const data = `{"affiliates":${tree.affiliatesJson},"genealogy":${tree.genealogyJson},${rest.slice(1)}`;
    const answer = await ctx.envelope(req, null);
    if (answer.loaded_modules) return { ...answer, data: JSON.parse(data) as z.infer<typeof genealogySchema> };
    return sendJsonText(reply, genealogyAnswer, `{"data":${data}}`);
  });

  withOptional('/api/network/table_view', 'id', nodeIdParamsSchema.shape.id, tableViewQuerySchema, tableViewSchema, async (req, id) => {
    const caller = me(req);
    const { root, searchValid } = await resolveRoot(ctx.database, caller, { id, username: req.query.username });
    const plan = await planInfo();
    const [genealogy, maxLevels] = await Promise.all([
      tableTree(ctx.database, caller, root, plan.plan),
      subtreeHeight(ctx.database, root),
    ]);
    return ctx.envelope(req, { genealogy, search_valid: searchValid, max_levels: maxLevels, levels_loaded: TABLE_VIEW_LEVELS });
  });

  withOptional(
    '/api/network/table_view_single',
    'id',
    nodeIdParamsSchema.shape.id,
    tableViewSingleQuerySchema,
    tableViewSingleSchema,
    async (req, id) => {
      const caller = me(req);
      const { root, searchValid } = await resolveRoot(ctx.database, caller, { id, username: req.query.username });
      const level = req.query.level ? Number(req.query.level) : 1;
      const page = req.query.page ? Number(req.query.page) : 1;
      const afterId = req.query.after === undefined ? undefined : Number(req.query.after);
      const [list, maxLevels] = await Promise.all([
        tableLevel(ctx.database, caller, root, level, page, afterId),
        subtreeHeight(ctx.database, root),
      ]);
      if (!list) throw fieldError('after', 'validation:invalidFormat');
      const { nodes, hasMore } = list;
      const path = id !== undefined ? `/api/network/table_view_single/${root.id}` : '/api/network/table_view_single';
      return ctx.envelope(req, {
        genealogy: nodes,
        search_valid: searchValid,
        max_levels: maxLevels,
        level,
        root_affiliate_id: root.id,
        next_page_url: hasMore
          ? pageUrl(path, { username: req.query.username, level, page: page + 1, after: nodes[nodes.length - 1].id })
          : null,
      });
    },
  );

  app.get(
    '/api/network/free_places',
    { preHandler: requireAuth, schema: { tags, querystring: freePlacesQuerySchema, response: { 200: envelope(freePlacesSchema) } } },
    async (req) =>
      ctx.envelope(
        req,
        await freePlaces(ctx, me(req), {
          placement: req.query.placement,
          after: req.query.after,
          limit: req.query.limit ? Number(req.query.limit) : undefined,
        }),
      ),
  );

  withOptional('/api/network/max_levels', 'id', nodeIdParamsSchema.shape.id, z.looseObject({}), maxLevelsSchema, async (req, id) => {
    const { root } = await resolveRoot(ctx.database, me(req), { id });
    return ctx.envelope(req, { max_levels: await subtreeHeight(ctx.database, root) });
  });

  // The rows come as JSON text (written from the database's rows), and so does the answer around them.
  const downlineReportAnswer = envelope(downlineReportSchema);
  withOptional(
    '/api/network/downline_report',
    'category',
    downlineCategorySchema,
    downlineReportQuerySchema,
    downlineReportSchema,
    async (req, param, reply) => {
      const category = (param ?? 'placement') as DownlineCategory;
      const page = req.query.page ? Number(req.query.page) : 1;
      const level = req.query.level ? Number(req.query.level) : undefined;
      const sort = req.query.sort ?? 'desc';
      const username = req.query.username;
      const after = req.query.after === undefined ? undefined : decodeCursor(req.query.after);
      if (after === null) throw fieldError('after', 'validation:invalidFormat');
      const { rowsJson, hasMore, last } = await downlineReport(ctx.database, me(req), { category, page, level, username, sort, after });
      const nextPageUrl =
        hasMore && last ? pageUrl(`/api/network/downline_report/${category}`, { page: page + 1, username, level, sort, after: encodeCursor(last) }) : null;
      const data = `{"data":${rowsJson},"next_page_url":${JSON.stringify(nextPageUrl)},"current_page":${page},"per_page":${REPORT_PAGE_SIZE}}`;
      const answer = await ctx.envelope(req, null);
      if (answer.loaded_modules) return { ...answer, data: JSON.parse(data) as z.infer<typeof downlineReportSchema> };
      return sendJsonText(reply, downlineReportAnswer, `{"data":${data}}`);
    },
  );

}
