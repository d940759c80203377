/**
 * The compensation plans' rules, as pure functions the operator's run (compensation-run.ts) and the seed
 * both use, so seeded earnings and paid earnings follow the same arithmetic.
 *
 * - binary: pairing of the two legs' carried volume (pairing.ts), once per period.
 * - matrix: a level commission on every purchase's personal volume to the placement uplines, level 1 the
 *   placement parent, up to the matrix depth (each level its own percent of the volume).
 * - unilevel: the same on the sponsor chain (level 1 the sponsor), as deep as the level percents go.
 *
 * A level is counted whether or not its member earns: blocked members and the company account (role 1)
 * are skipped without moving the levels above them (no compression).
 */
import type { Plan } from '../../src/schemas/common.schema';
import * as money from './money';
import type { Units } from './money';
import type { PairingConfig } from './pairing';
import type { BinarySettings } from './ledger';
import type { SettingsService } from './settings';
import { matrixWidth } from './tree';

export interface CompensationSettings {
  /** Levels a matrix pays (its depth limit). */
  matrix_depth: number;
  /** Percent of the purchase's volume for placement levels 1, 2, …; only the first matrix_depth count. */
  matrix_level_percents: string[];
  /** Percent of the purchase's volume for sponsor generations 1, 2, … */
  unilevel_level_percents: string[];
}

export const DEFAULT_COMPENSATION_SETTINGS: CompensationSettings = {
  matrix_depth: 5,
  matrix_level_percents: ['10', '8', '6', '4', '2', '1', '1'],
  unilevel_level_percents: ['10', '5', '4', '3', '2', '1', '1'],
};

const percentList = (v: unknown, fallback: string[]) =>
  Array.isArray(v) && v.length <= 50 && v.every((p) => typeof p === 'string' && money.isDecimal(p) && !p.startsWith('-')) ? (v as string[]) : fallback;

/** The company's `compensation` settings row, each field falling back to its default when missing or malformed. */
export async function compensationSettings(settings: SettingsService): Promise<CompensationSettings> {
  const row = ((await settings.all()) as unknown as Record<string, unknown>).compensation as Record<string, unknown> | undefined;
  const d = DEFAULT_COMPENSATION_SETTINGS;
  const depth = Number(row?.matrix_depth);
  return {
    matrix_depth: Number.isInteger(depth) && depth >= 1 && depth <= 20 ? depth : d.matrix_depth,
    matrix_level_percents: percentList(row?.matrix_level_percents, d.matrix_level_percents),
    unilevel_level_percents: percentList(row?.unilevel_level_percents, d.unilevel_level_percents),
  };
}

/** What a plan needs to know besides the volume: matrix width and depth, the level percents. */
export interface PlanRules {
  plan: Plan;
  /** Matrix: children per member. */
  width: number | null;
  /** Percent per level, level 1 first (matrix: cut to its depth; binary: none). */
  levelPercents: string[];
}

export async function planRules(settings: SettingsService): Promise<PlanRules> {
  const plan = (await settings.get('modules')).compensation_plan;
  const c = await compensationSettings(settings);
  return levelRules(plan, c, plan === 'matrix' ? await matrixWidth(settings) : null);
}

export function levelRules(plan: Plan, c: CompensationSettings, width: number | null): PlanRules {
  if (plan === 'matrix') return { plan, width, levelPercents: c.matrix_level_percents.slice(0, c.matrix_depth) };
  if (plan === 'unilevel') return { plan, width: null, levelPercents: c.unilevel_level_percents };
  return { plan, width: null, levelPercents: [] };
}

export function pairingConfig(b: BinarySettings): PairingConfig {
  return {
    pairUnit: money.parse(b.pair_unit),
    pairBonus: money.parse(b.pair_bonus),
    cappingLimit: b.capping_limit === null ? null : money.parse(b.capping_limit),
    pairRatio: b.pair_ratio,
    firstPairRatio: b.first_pair_ratio,
  };
}

/** A purchase's personal volume, as the PV history records it. */
export interface Sale<M = unknown> {
  memberId: number;
  pv: Units;
  at: Date;
  meta?: M;
}

/** A member of the upline as the level rules see it. */
export interface Upline {
  id: number;
  /** Blocked members and the company account earn nothing (their level still counts). */
  earns: boolean;
}

export interface LevelCommission<M = unknown> {
  memberId: number;
  fromMemberId: number;
  level: number;
  gross: Units;
  at: Date;
  meta?: M;
}

/**
 * Level commissions of each sale: `uplineOf(memberId)` lists the uplines nearest first (matrix: placement
 * parents; unilevel: sponsors); level n earns `percents[n-1]` of the volume, rounded to cents.
 */
export function levelCommissions<M>(sales: Sale<M>[], uplineOf: (memberId: number) => Upline[], percents: string[]): LevelCommission<M>[] {
  const out: LevelCommission<M>[] = [];
  for (const s of sales) {
    if (s.pv <= 0n) continue;
    const up = uplineOf(s.memberId);
    for (let i = 0; i < percents.length && i < up.length; i++) {
      if (!up[i].earns) continue;
      const gross = money.percentOf(s.pv, percents[i], 2);
      if (gross > 0n) out.push({ memberId: up[i].id, fromMemberId: s.memberId, level: i + 1, gross, at: s.at, meta: s.meta });
    }
  }
  return out;
}

/** Uplines nearest first from a materialised path ('1.4.9.' of member 9 → [4, 1]). */
export function uplineIds(path: string): number[] {
  return path
    .split('.')
    .filter(Boolean)
    .map(Number)
    .slice(0, -1)
    .reverse();
}

const DAY = 86_400_000;

/** The plan period (a week from Monday 00:00 UTC) a date falls in. */
export function periodOf(d: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY);
  return { start, end: new Date(start.getTime() + 7 * DAY) };
}

export const ymd = (d: Date) => d.toISOString().slice(0, 10);
