/**
 * Checks for the two network answers that can carry tens of thousands of members: the flat genealogy
 * (`affiliates`) and the nested table view (`genealogy` with its `children`).
 *
 * They accept exactly what treeNodeSchema / tableNodeSchema of src/schemas/network.schema.ts accept
 * (tests/api/network-answers.test.ts holds them to it field by field), but check each member with one
 * plain function instead of a schema walk per field, which is an order of magnitude cheaper on a 50 000
 * member answer. The rest of each answer goes through its schema as usual. Members are passed on as
 * they came (no copy): fields the schema does not name are not stripped. A table view answer gives its
 * members as a MemberTable (put in one after their check).
 */
import * as z from 'zod/mini';
import { MemberTable } from './network-members';
import {
  genealogySchema,
  tableViewSchema,
  type NestedTableNode,
  type TableNode,
  type TreeNode,
} from '../schemas/network.schema';

const DECIMAL = /^-?\d+(\.\d+)?$/;
type Obj = Record<string, unknown>;

const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isDecimal = (v: unknown) => typeof v === 'string' && DECIMAL.test(v);
const isText = (v: unknown) => typeof v === 'string';
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const orNull = (ok: (v: unknown) => boolean) => (v: unknown) => v === null || ok(v);
const isStatus = (v: unknown) => v === 0 || v === 1;

type Field = [name: string, ok: (v: unknown) => boolean];

const TABLE_FIELDS: Field[] = [
  ['id', isCount],
  ['parent_id', orNull(isCount)],
  ['status', isStatus],
  ['username', isText],
  ['avatar', orNull(isText)],
  ['created_at', isText],
  ['first_name', isText],
  ['last_name', orNull(isText)],
  ['level', isCount],
  ['total_earnings', isDecimal],
  ['downlines_count', isCount],
  ['child_count', isCount],
];

const TREE_FIELDS: Field[] = [
  ...TABLE_FIELDS,
  ['position', (v) => v === null || v === 'L' || v === 'R'],
  ['slot', orNull(isCount)],
  ['pv', isDecimal],
  ['tv', isDecimal],
  ['cv', isDecimal],
  ['rank_id', orNull(isCount)],
  ['rank_name', orNull(isText)],
  ['rank_icon', orNull(isText)],
  ['package_name', orNull(isText)],
  ['total_left', isDecimal],
  ['total_right', isDecimal],
  ['carry_left', isDecimal],
  ['carry_right', isDecimal],
  ['left_downline_count', isCount],
  ['right_downline_count', isCount],
];

/** The first field of `v` that the fields' checks refuse, '' when none (or '(node)' if not an object). */
function badField(v: unknown, fields: Field[]): string {
  if (!isObject(v)) return '(node)';
  for (const [name, ok] of fields) if (!ok(v[name])) return name;
  return '';
}

/** The first refused field of a tree node ('' when it is a valid TreeNode). */
export const treeNodeIssue = (v: unknown) => badField(v, TREE_FIELDS);
/** The first refused field of a table node, children not included ('' when valid). */
export const tableNodeIssue = (v: unknown) => badField(v, TABLE_FIELDS);

/*
 * The same checks written out field by field, for the hot loop over tens of thousands of members: plain
 * property reads (one shape, fast) instead of a lookup by name per field. They must accept exactly what
 * the field lists above accept (tested).
 */
const int = (v: unknown): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const intOrNull = (v: unknown): boolean => v === null || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0);
const dec = (v: unknown): boolean => typeof v === 'string' && DECIMAL.test(v);
const textOrNull = (v: unknown): boolean => v === null || typeof v === 'string';

function isTableNode(n: unknown): boolean {
  if (typeof n !== 'object' || n === null || Array.isArray(n)) return false;
  const o = n as TableNode;
  return (
    int(o.id) &&
    intOrNull(o.parent_id) &&
    (o.status === 0 || o.status === 1) &&
    typeof o.username === 'string' &&
    textOrNull(o.avatar) &&
    typeof o.created_at === 'string' &&
    typeof o.first_name === 'string' &&
    textOrNull(o.last_name) &&
    int(o.level) &&
    dec(o.total_earnings) &&
    int(o.downlines_count) &&
    int(o.child_count)
  );
}

function isTreeNode(n: unknown): boolean {
  if (!isTableNode(n)) return false;
  const o = n as TreeNode;
  return (
    (o.position === null || o.position === 'L' || o.position === 'R') &&
    intOrNull(o.slot) &&
    dec(o.pv) &&
    dec(o.tv) &&
    dec(o.cv) &&
    intOrNull(o.rank_id) &&
    textOrNull(o.rank_name) &&
    textOrNull(o.rank_icon) &&
    textOrNull(o.package_name) &&
    dec(o.total_left) &&
    dec(o.total_right) &&
    dec(o.carry_left) &&
    dec(o.carry_right) &&
    int(o.left_downline_count) &&
    int(o.right_downline_count)
  );
}

/** Whole-node checks as the answer schemas use them (exported for the tests that hold them to the schemas). */
export const memberChecks = { isTreeNode, isTableNode };

/** `affiliates`: an array of valid tree nodes. */
const affiliatesSchema = z.custom<TreeNode[]>((v) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!isTreeNode(v[i])) return false;
  return true;
}, 'invalid tree node');

/** Whether v is a valid nested table node and everything below it (iterative: a tree may be deep). */
function isNestedTable(v: unknown): v is NestedTableNode {
  const stack: unknown[] = [v];
  while (stack.length) {
    const n = stack.pop();
    if (!isTableNode(n)) return false;
    const kids = (n as Obj).children;
    if (!Array.isArray(kids)) return false;
    for (let i = 0; i < kids.length; i++) stack.push(kids[i]);
  }
  return true;
}

/** The table view's members: a valid nested node, put in a MemberTable. */
const tableMembersSchema = z.pipe(
  z.custom<NestedTableNode>((v) => isNestedTable(v), 'invalid table node'),
  z.transform((v: NestedTableNode) => MemberTable.fromNested(v)),
);

/** GET /api/network/genealogy[/{id}] answer, members checked in one pass. */
export const genealogyAnswerSchema = z.object({ ...genealogySchema.shape, affiliates: affiliatesSchema });
export type GenealogyAnswer = z.infer<typeof genealogyAnswerSchema>;

/** GET /api/network/table_view[/{id}] answer, members checked in one pass and given as a MemberTable. */
export const tableViewAnswerSchema = z.object({ ...tableViewSchema.shape, genealogy: tableMembersSchema });
export type TableViewAnswer = z.infer<typeof tableViewAnswerSchema>;

