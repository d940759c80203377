/**
 * Network calls of spec §7 (genealogy, table view, max levels, downline report): query parameters and
 * the `data` of the answers (spec §3: Genealogy response, Tree node, Table view response, Downline
 * report page, Report member, Recent joining).
 *
 * Levels: every node's `level` counts from the signed-in member (0 = the member, 1 = the members
 * placed directly below, …), so a node keeps its level however the tree is entered.
 */
import * as z from 'zod/mini';
import { downlineReportQuery, positiveIntParam, textParam, usernameParam, type QueryParams } from './list-query.schema';
import { idSchema, planSchema, decimalString } from './common.schema';
import { idText } from './values.schema';

const count = z.number().check(z.int(), z.nonnegative());
const level = z.number().check(z.int(), z.nonnegative());
/** ISO 8601 instant in UTC ('2026-01-31T09:15:00.000Z'). */
const instant = z.string();
const statusSchema = z.union([z.literal(0), z.literal(1)]);

/** Binary plans place members left or right; matrix and unilevel plans only have a slot index. */
export const legSchema = z.enum(['L', 'R']);
export type Leg = z.infer<typeof legSchema>;

/** Who a member of the network is and where they stand: the same in the tree and in the reports. */
const memberFacts = {
  username: z.string(),
  avatar: z.nullable(z.string()),
  pv: decimalString,
  tv: decimalString,
  cv: decimalString,
  created_at: instant,
  rank_id: z.nullable(idSchema),
  rank_name: z.nullable(z.string()),
  rank_icon: z.nullable(z.string()),
};

/** A member of the placement tree as the genealogy shows it (spec §3 "Tree node"). */
export const treeNodeSchema = z.object({
  id: idSchema,
  parent_id: z.nullable(idSchema),
  /** 'L' / 'R' on the binary plan, null on matrix and unilevel. An empty binary slot is a missing position. */
  position: z.nullable(legSchema),
  /** 0-based place under the parent (binary: L = 0, R = 1; matrix: 0 … max_width - 1). */
  slot: z.nullable(z.number().check(z.int(), z.nonnegative())),
  status: statusSchema,
  ...memberFacts,
  package_name: z.nullable(z.string()),
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  level,
  total_earnings: decimalString,
  /** Everyone placed below this member, at any depth. */
  downlines_count: count,
  total_left: decimalString,
  total_right: decimalString,
  carry_left: decimalString,
  carry_right: decimalString,
  left_downline_count: count,
  right_downline_count: count,
  /** Members placed directly below (may exceed the children an answer carries at its last level). */
  child_count: count,
});
export type TreeNode = z.infer<typeof treeNodeSchema>;

/** The nested form of a tree node: also `name` (full name), `package_id` and its `children`. */
export interface NestedTreeNode extends TreeNode {
  name: string;
  package_id: number | null;
  children: NestedTreeNode[];
}
export const nestedTreeNodeSchema: z.ZodMiniType<NestedTreeNode> = z.object({
  ...treeNodeSchema.shape,
  name: z.string(),
  package_id: z.nullable(idSchema),
  get children() {
    return z.array(nestedTreeNodeSchema);
  },
});

/** GET /api/network/genealogy[/{id}] (spec §3 "Genealogy response"). */
export const genealogySchema = z.object({
  /** Flat form: the root and every node below it down to max_levels, parents before children. Empty when nested. */
  affiliates: z.array(treeNodeSchema),
  /** Nested form (is_nested=1): the root with its children; null otherwise. */
  genealogy: z.nullable(nestedTreeNodeSchema),
  /** A username was asked for and found in the member's downline (false: the answer shows the usual root). */
  search_valid: z.boolean(),
  /** New members may be signed up into an empty slot of the tree (binary and matrix plans). */
  signup_from_tree: z.boolean(),
  /** Username of the root's placement parent, to go one level up; null at the member's own root. */
  parent_username: z.nullable(z.string()),
  /** Levels below the root an answer carries; deeper nodes are loaded by asking for their id. */
  max_levels: z.number().check(z.int(), z.positive()),
  /** Children a member can have: 2 (binary), the matrix width, or null (unilevel: no limit). */
  max_width: z.nullable(z.number().check(z.int(), z.positive())),
  root_affiliate_id: idSchema,
  /** Not named by the spec: the plan the tree is drawn for. */
  compensation_plan: planSchema,
  /**
   * Not named by the spec: members within max_levels whose children the answer carries only in part (a wide
   * unilevel level, or the answer's size limit reached). Every child placed before `from` (0-based) is in
   * the answer; the rest come page by page from `genealogy/{id}?children_from=…`.
   */
  more_children: z.array(z.object({ id: idSchema, from: z.number().check(z.int(), z.nonnegative()) })),
});
export type Genealogy = z.infer<typeof genealogySchema>;

/** A row of the tabular tree (spec §3 "Table view response"). */
export const tableNodeSchema = z.object({
  id: idSchema,
  parent_id: z.nullable(idSchema),
  status: statusSchema,
  username: z.string(),
  avatar: z.nullable(z.string()),
  created_at: instant,
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  level,
  total_earnings: decimalString,
  downlines_count: count,
  /** Not named by the spec: members placed directly below, so a row knows whether it can expand. */
  child_count: count,
});
export type TableNode = z.infer<typeof tableNodeSchema>;

export interface NestedTableNode extends TableNode {
  children: NestedTableNode[];
}
export const nestedTableNodeSchema: z.ZodMiniType<NestedTableNode> = z.object({
  ...tableNodeSchema.shape,
  get children() {
    return z.array(nestedTableNodeSchema);
  },
});

/** GET /api/network/table_view[/{id}]: the root and its first levels, nested. */
export const tableViewSchema = z.object({
  genealogy: nestedTableNodeSchema,
  search_valid: z.boolean(),
  /** Levels that exist below the root (the deepest member's distance from it; 0 for a member with no downline). */
  max_levels: z.number().check(z.int(), z.nonnegative()),
  /** Not named by the spec: levels below the root this answer carries. */
  levels_loaded: z.number().check(z.int(), z.positive()),
});
export type TableView = z.infer<typeof tableViewSchema>;

/** GET /api/network/table_view_single[/{id}]: one level below the root, as a list (page by page). */
export const tableViewSingleSchema = z.object({
  genealogy: z.array(tableNodeSchema),
  search_valid: z.boolean(),
  max_levels: z.number().check(z.int(), z.nonnegative()),
  /** The level asked for, counted from the root of the answer (1 = its direct children). */
  level: z.number().check(z.int(), z.positive()),
  root_affiliate_id: idSchema,
  next_page_url: z.nullable(z.string()),
});
export type TableViewSingle = z.infer<typeof tableViewSingleSchema>;

/** GET /api/network/max_levels[/{id}]. */
export const maxLevelsSchema = z.object({
  max_levels: z.number().check(z.int(), z.nonnegative()),
});
export type MaxLevels = z.infer<typeof maxLevelsSchema>;

/** spec §3 "Report member". */
export const reportMemberSchema = z.object({
  id: idSchema,
  parent_id: z.nullable(idSchema),
  sponsor_username: z.nullable(z.string()),
  placement_username: z.nullable(z.string()),
  status: statusSchema,
  email: z.nullable(z.string()),
  ...memberFacts,
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  /** Placement levels (placement report) or sponsor generations (sponsor report) below the member. */
  level: z.number().check(z.int(), z.positive()),
  total_earnings: decimalString,
  total_left: decimalString,
  total_right: decimalString,
  carry_left: decimalString,
  carry_right: decimalString,
});
export type ReportMember = z.infer<typeof reportMemberSchema>;

/** GET /api/network/downline_report[/{category}] (spec §3 "Downline report page"): page-number paging. */
export const downlineReportSchema = z.object({
  data: z.array(reportMemberSchema),
  /** The next page with the same filters, or null on the last page. */
  next_page_url: z.nullable(z.string()),
  /** Not named by the spec: the page answered and its size. */
  current_page: z.number().check(z.int(), z.positive()),
  per_page: z.number().check(z.int(), z.positive()),
});
export type DownlineReport = z.infer<typeof downlineReportSchema>;

/** spec §3 "Recent joining". */
export const recentJoiningSchema = z.object({
  id: idSchema,
  first_name: z.string(),
  last_name: z.nullable(z.string()),
  joined_date: instant,
  avatar: z.nullable(z.string()),
});
export type RecentJoining = z.infer<typeof recentJoiningSchema>;

/* ---------- query parameters ---------- */

export const downlineCategorySchema = z.enum(['placement', 'sponsor']);
export type DownlineCategory = z.infer<typeof downlineCategorySchema>;
export const sortSchema = z.enum(['asc', 'desc']);
export type SortOrder = z.infer<typeof sortSchema>;

export const genealogyQuerySchema = z.looseObject({
  username: z.optional(usernameParam),
  is_nested: z.optional(z.enum(['0', '1', 'true', 'false'])),
  /** Not named by the spec: a page of the member's direct children, from this place (0-based) on, in place order. */
  children_from: z.optional(textParam('validation:invalidFormat', z.regex(/^\d{1,7}$/, { error: 'validation:invalidFormat' }))),
});
export type GenealogyQuery = { username?: string; is_nested?: boolean; children_from?: number };

export const tableViewQuerySchema = z.looseObject({ username: z.optional(usernameParam) });
export type TableViewQuery = { username?: string };

export const tableViewSingleQuerySchema = z.looseObject({
  username: z.optional(usernameParam),
  level: z.optional(positiveIntParam),
  page: z.optional(positiveIntParam),
  /** Not named by the spec: id of the last node of the previous page, as carried by next_page_url. */
  after: z.optional(idText()),
});
export type TableViewSingleQuery = { username?: string; level?: number; page?: number; after?: number };

/** page, username, level, sort (and `after`, carried by next_page_url): see downlineReportQuery. */
export const downlineReportQuerySchema = downlineReportQuery;
export type DownlineReportQuery = QueryParams<typeof downlineReportQuerySchema>;

export const downlineCategoryParamsSchema = z.object({ category: downlineCategorySchema });
/** Ids travel as path text; anything that is not a member of the caller's downline is refused alike. */
export const nodeIdParamsSchema = z.object({ id: z.string() });

/**
 * The free places of the member's own tree a recruit may be signed up into (not named by the spec): binary,
 * each empty left or right slot (upper levels first); matrix, each free place in spill-over order (breadth
 * first, the place automatic placement takes first) within the matrix's width and depth; unilevel, none
 * (recruits go directly under their sponsor). `placement` narrows the list to places under that member of
 * the tree; `after` (from next_after) continues after a place.
 */
export const freePlacesQuerySchema = z.looseObject({
  placement: z.optional(usernameParam),
  after: z.optional(z.string().check(z.regex(/^[1-9]\d{0,9}\.\d{1,2}$/))),
  limit: z.optional(positiveIntParam),
});
export type FreePlacesQuery = { placement?: string; after?: string; limit?: number };

export const freePlaceSchema = z.object({
  /** The member the recruit would be placed under. */
  placement: z.string(),
  placement_name: z.string(),
  /** Binary: the leg; matrix: null. */
  position: z.nullable(legSchema),
  /** 1-based place under the placement member (binary: L = 1, R = 2). */
  slot: z.number().check(z.int(), z.positive()),
  /** The recruit's level below the signed-in member. */
  level: z.number().check(z.int(), z.positive()),
});
export type FreePlace = z.infer<typeof freePlaceSchema>;

export const freePlacesSchema = z.object({
  compensation_plan: planSchema,
  places: z.array(freePlaceSchema),
  /** Levels a matrix reaches below the member (matrix only). */
  max_depth: z.nullable(level),
  max_width: z.nullable(count),
  /** `after` of the next page; null on the last one. */
  next_after: z.nullable(z.string()),
});
export type FreePlaces = z.infer<typeof freePlacesSchema>;
