/**
 * The company's compensation plan in the seeded settings: `modules.compensation_plan`, the matrix width,
 * and the level percents and matrix depth the compensation run pays (server/lib/compensation.ts).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Plan } from '../../src/schemas/common.schema';
import { DEFAULT_COMPENSATION_SETTINGS } from '../lib/compensation';
import { DEFAULT_MATRIX_WIDTH } from '../lib/tree';

export interface SeedPlan {
  plan: Plan;
  /** Children per member of a matrix (3 or 5 in the demo companies). */
  width: number;
}

export const seedPlanOf = (plan: Plan | undefined, width?: number): SeedPlan => ({
  plan: plan ?? 'binary',
  width: plan === 'matrix' && width && Number.isInteger(width) && width >= 2 && width <= 20 ? width : DEFAULT_MATRIX_WIDTH,
});

export async function seedPlanSettings(db: Db, p: SeedPlan): Promise<void> {
  await db.execute(sql`UPDATE settings SET value = jsonb_set(value, '{compensation_plan}', to_jsonb(${p.plan}::text)) WHERE key = 'modules'`);
  await db.execute(sql`INSERT INTO settings (key, value) VALUES ('matrix_width', ${JSON.stringify(p.width)}::jsonb)
                       ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
  await db.execute(sql`INSERT INTO settings (key, value) VALUES ('compensation', ${JSON.stringify(DEFAULT_COMPENSATION_SETTINGS)}::jsonb)
                       ON CONFLICT (key) DO NOTHING`);
}
