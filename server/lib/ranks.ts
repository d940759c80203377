/**
 * Ranks of the compensation plans: one source for what each rank asks for, how a member's figures are
 * worked out and which rank they meet. The Home rank tab (home.ts), the rank promotion after a purchase
 * (packages.ts) and the seed (seed/members.ts, through `bestRank`) all read it.
 *
 * Each plan's ranks ask for their own criteria (src/schemas/home.schema.ts, RANK_CRITERIA):
 * - binary: personally sponsored active members, personal volume, left leg volume, right leg volume;
 * - matrix: filled levels (level k of the member's matrix complete with width^k members), places filled
 *   within the matrix's width and depth, personal volume;
 * - unilevel: personally sponsored active members, personal volume, group volume (personal volume and
 *   the volume of every member of the generations the plan pays).
 *
 * A rank row names its plan (null: every plan) and its criteria, criterion → figure required (migration
 * 0029). A member meets a rank when every figure reaches what it requires; the rank reached is the
 * highest met. "Active" is a member who is not blocked and has verified their signup.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from './ledger';
import type { Plan } from '../../src/schemas/common.schema';
import type { RankCriterion } from '../../src/schemas/home.schema';
import { RANK_CRITERIA } from '../../src/schemas/home.schema';
import { compensationSettings } from './compensation';
import { pathStartsWith } from './genealogy';
import * as money from './money';
import type { Units } from './money';
import { rowsOf } from './ledger';
import type { SettingsService } from './settings';
import { matrixWidth } from './tree';

/** The criteria each plan's ranks ask for, in the order they are shown. */
export const PLAN_CRITERIA: Record<Plan, readonly RankCriterion[]> = {
  binary: ['referral_count', 'pv', 'left_volume', 'right_volume'],
  matrix: ['levels_filled', 'places_filled', 'pv'],
  unilevel: ['referral_count', 'pv', 'group_volume'],
};

export interface RankRequirement {
  key: RankCriterion;
  value: Units;
}

export interface RankDefinition {
  id: number;
  name: string;
  icon: string | null;
  sortOrder: number;
  bonus: string;
  /** What the rank asks for, in the plan's order of criteria. */
  requirements: RankRequirement[];
}

/** The plan's shape the figures depend on. */
export interface PlanShape {
  plan: Plan;
  /** Matrix: children per member. */
  width: number;
  /** Matrix: levels of the matrix (its depth); unilevel: generations the plan pays. */
  levels: number;
}

export async function planShape(settings: SettingsService): Promise<PlanShape> {
  const plan = (await settings.get('modules')).compensation_plan;
  const c = await compensationSettings(settings);
  return {
    plan,
    width: plan === 'matrix' ? await matrixWidth(settings) : 2,
    levels: plan === 'matrix' ? c.matrix_depth : plan === 'unilevel' ? c.unilevel_level_percents.length : 0,
  };
}

const isCriterion = (k: string): k is RankCriterion => (RANK_CRITERIA as readonly string[]).includes(k);

/** A rank row's criteria, the plan's own first in their order, then any other it names; zero ones left out. */
export function requirementsOf(criteria: unknown, plan: Plan): RankRequirement[] {
  const obj = (typeof criteria === 'string' ? JSON.parse(criteria) : criteria ?? {}) as Record<string, unknown>;
  const order = [...PLAN_CRITERIA[plan], ...RANK_CRITERIA.filter((k) => !PLAN_CRITERIA[plan].includes(k))];
  const out: RankRequirement[] = [];
  for (const key of order) {
    const v = obj[key];
    const text = typeof v === 'number' ? String(v) : v;
    if (!isCriterion(key) || !money.isDecimal(text)) continue;
    const value = money.parse(text);
    if (value > 0n) out.push({ key, value });
  }
  return out;
}

interface RankRow {
  id: number;
  name: string;
  icon: string | null;
  sort_order: number;
  bonus: string;
  criteria: unknown;
}

/** The plan's ranks (and those of every plan), lowest first. */
export async function loadRankDefinitions(ex: Executor, plan: Plan): Promise<RankDefinition[]> {
  const rows = await rowsOf<RankRow>(
    ex,
    sql`SELECT id, name, icon, sort_order, bonus::text AS bonus, criteria FROM ranks WHERE plan IS NULL OR plan = ${plan} ORDER BY sort_order, id`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    icon: r.icon,
    sortOrder: Number(r.sort_order),
    bonus: r.bonus,
    requirements: requirementsOf(r.criteria, plan),
  }));
}

/** The same, cached per process until ranks or settings change (company data every Home visit reads). */
export function planRanks(ex: Executor, settings: SettingsService, plan: Plan): Promise<RankDefinition[]> {
  return settings.cached(`ranks:${plan}`, () => loadRankDefinitions(ex, plan));
}

/** Does a member with these figures meet the rank? */
export const meets = (rank: RankDefinition, figures: ReadonlyMap<RankCriterion, Units>): boolean =>
  rank.requirements.every((r) => (figures.get(r.key) ?? 0n) >= r.value);

/** The highest rank the figures meet, or null. */
export function bestRank(ranks: readonly RankDefinition[], figures: ReadonlyMap<RankCriterion, Units>): RankDefinition | null {
  let best: RankDefinition | null = null;
  for (const r of ranks) if (meets(r, figures) && (!best || r.sortOrder > best.sortOrder)) best = r;
  return best;
}

/** One level of a member's placement tree below them: how many members, and their personal volume. */
export interface LevelFigure {
  level: number;
  members: number;
  volume: Units;
}

export interface MemberRankFigures {
  /** Every criterion's figure (those the plan does not use are worked out too where they are cheap). */
  values: Map<RankCriterion, Units>;
  /** Matrix: levels 1 … depth; unilevel: generations 1 … paid; binary: none. */
  levels: LevelFigure[];
}

/** Complete levels from level 1 down: level k is complete with width^k members. */
export function levelsFilled(levels: readonly LevelFigure[], width: number, depth: number): number {
  let filled = 0;
  for (let k = 1; k <= depth; k++) {
    const l = levels.find((x) => x.level === k);
    if (!l || l.members < width ** k) break;
    filled = k;
  }
  return filled;
}

/** The figures of one member from their maintained columns, active sponsored count and levels (the pure part, the seed's too). */
export function figuresFrom(
  shape: PlanShape,
  m: { pv: Units; tv: Units; left: Units; right: Units; activeReferrals: number },
  levels: LevelFigure[],
): MemberRankFigures {
  const values = new Map<RankCriterion, Units>([
    ['referral_count', money.fromInt(m.activeReferrals)],
    ['pv', m.pv],
    ['tv', m.tv],
    ['left_volume', m.left],
    ['right_volume', m.right],
  ]);
  const within = levels.filter((l) => l.level >= 1 && l.level <= shape.levels);
  if (shape.plan === 'matrix') {
    values.set('levels_filled', money.fromInt(levelsFilled(within, shape.width, shape.levels)));
    values.set('places_filled', money.fromInt(within.reduce((s, l) => s + l.members, 0)));
  }
  if (shape.plan === 'unilevel') values.set('group_volume', money.add(m.pv, ...within.map((l) => l.volume)));
  return { values, levels: within };
}

interface FigureRow {
  id: number;
  path: string;
  depth: number;
  sponsor_path: string;
  sponsor_depth: number;
  pv: string;
  tv: string;
  total_left: string;
  total_right: string;
  active: number | string;
}

/**
 * The rank figures of members, from their maintained columns, their active personally sponsored members
 * and (matrix, unilevel) their tree's levels within the plan's depth — each an index range of
 * (depth, path).
 */
export async function rankFigures(ex: Executor, shape: PlanShape, memberIds: number[]): Promise<Map<number, MemberRankFigures>> {
  const out = new Map<number, MemberRankFigures>();
  if (!memberIds.length) return out;
  const rows = await rowsOf<FigureRow>(
    ex,
    sql`SELECT m.id, m.path, m.depth, m.sponsor_path, m.sponsor_depth, m.pv::text AS pv, m.tv::text AS tv, m.total_left::text AS total_left, m.total_right::text AS total_right,
               (SELECT count(*) FROM members s WHERE s.sponsor_id = m.id AND s.status = 1 AND s.verified) AS active
        FROM members m WHERE m.id IN (${sql.join(memberIds.map((i) => sql`${i}`), sql`, `)})`,
  );
  for (const r of rows) {
    let levels: LevelFigure[] = [];
    if (shape.plan !== 'binary' && shape.levels > 0) {
      // Matrix: placement levels; unilevel: sponsor generations (the chains the level commissions pay).
      const byLevel =
        shape.plan === 'matrix'
          ? await rowsOf<{ level: number; members: number | string; volume: string }>(
              ex,
              sql`SELECT depth - ${Number(r.depth)} AS level, count(*) AS members, sum(pv)::text AS volume FROM members
                  WHERE depth BETWEEN ${Number(r.depth) + 1} AND ${Number(r.depth) + shape.levels} AND ${pathStartsWith(sql`path`, r.path)}
                  GROUP BY depth ORDER BY depth`,
            )
          : await rowsOf<{ level: number; members: number | string; volume: string }>(
              ex,
              sql`SELECT sponsor_depth - ${Number(r.sponsor_depth)} AS level, count(*) AS members, sum(pv)::text AS volume FROM members
                  WHERE sponsor_depth BETWEEN ${Number(r.sponsor_depth) + 1} AND ${Number(r.sponsor_depth) + shape.levels}
                    AND ${pathStartsWith(sql`sponsor_path`, r.sponsor_path)}
                  GROUP BY sponsor_depth ORDER BY sponsor_depth`,
            );
      levels = byLevel.map((l) => ({ level: Number(l.level), members: Number(l.members), volume: money.parse(l.volume ?? '0') }));
    }
    out.set(
      Number(r.id),
      figuresFrom(
        shape,
        { pv: money.parse(r.pv), tv: money.parse(r.tv), left: money.parse(r.total_left), right: money.parse(r.total_right), activeReferrals: Number(r.active) },
        levels,
      ),
    );
  }
  return out;
}
