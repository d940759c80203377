/**
 * Every package and every rank of the company, read once per process and kept until packages or ranks change
 * (SettingsService.cached: their tables announce changes like the settings do, migration 0022).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from './ledger';
import type { SettingsService } from './settings';

export interface PackageDbRow {
  id: number;
  name: string;
  status: boolean;
  sku: string;
  sort_order: number;
  price: string;
  bv: string;
  expiry_days: number | null;
  image: string | null;
  description: string | null;
  max_levels: number | null;
  direct_bonus: string;
  roi_bonus: string;
}

/** Every package (company-wide: cached until packages change). */
export function packageRows(db: Db, settings: SettingsService): Promise<PackageDbRow[]> {
  return settings.cached('packages', () =>
    rowsOf<PackageDbRow>(
      db,
      sql`SELECT id, name, status, sku, sort_order, price::text AS price, bv::text AS bv, expiry_days, image, description, max_levels,
                 direct_bonus::text AS direct_bonus, roi_bonus::text AS roi_bonus
          FROM packages ORDER BY sort_order, id`,
    ),
  );
}

export interface RankDbRow {
  id: number;
  name: string;
  icon: string | null;
  sort_order: number;
  bonus: string;
}

/** Every rank (company-wide: cached until ranks change). */
export function rankRows(db: Db, settings: SettingsService): Promise<RankDbRow[]> {
  return settings.cached('ranks', () =>
    rowsOf<RankDbRow>(
      db,
      sql`SELECT id, name, icon, sort_order, bonus::text AS bonus FROM ranks ORDER BY sort_order, id`,
    ),
  );
}
