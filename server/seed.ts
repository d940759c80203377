/**
 * The demo company, seeded on first start: settings and reference data, then the members' genealogy,
 * then each area's data (SEEDERS). Everything derives from a seeded PRNG and a fixed base date, so two
 * databases seeded with the same size hold the same data.
 */
import { sql } from 'drizzle-orm';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import { hashPassword } from './lib/crypto';
import { seedReference } from './seed/reference';
import { NAMED_MEMBERS, seedMembers, type SeededMembers } from './seed/members';
import { Rng } from './seed/prng';
import { walletSeeder } from './seed/wallet.seed';
import { homeSeeder } from './seed/home.seed';
import { addressesSeeder } from './seed/addresses.seed';
import { faqsSeeder } from './seed/faqs.seed';
import { payoutMethodsSeeder } from './seed/payout-methods.seed';
import { kycSeeder } from './seed/kyc.seed';
import { shopSeeder } from './seed/shop.seed';
import { otcSeeder } from './seed/otc.seed';
import { seedPlanOf, seedPlanSettings } from './seed/plan.seed';
import { mailSeeder } from './seed/mail.seed';
import { supportSeeder } from './seed/support.seed';
import { crmSeeder } from './seed/crm.seed';
import { crmSalesSeeder } from './seed/crm-sales.seed';

export interface SeedContext {
  db: Db;
  config: Config;
  members: SeededMembers;
  rankIds: number[];
  packageIds: number[];
  /** A PRNG of the area's own (seeded by its name), so one area's data does not shift another's. */
  rng(area: string): Rng;
}

/** An area's seed step: runs in the seeding transaction after the members exist. */
export type Seeder = (ctx: SeedContext) => Promise<void>;

/** Each area that has demo data adds its step here. */
const SEEDERS: Seeder[] = [
  walletSeeder,
  homeSeeder,
  addressesSeeder,
  faqsSeeder,
  payoutMethodsSeeder,
  kycSeeder,
  shopSeeder,
  otcSeeder,
  mailSeeder,
  supportSeeder,
  crmSeeder,
  crmSalesSeeder,
];

const areaSeed = (area: string) => [...area].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 2166136261);

export async function isEmpty(database: Database): Promise<boolean> {
  const rows = await database.rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM members LIMIT 1) t`);
  return Number(rows[0]?.n ?? 0) === 0;
}

/** Seed an empty, migrated database. `members` is the size of the generated downline (default config.seedMembers). */
export async function seed(
  database: Database,
  config: Config,
  opts: { members?: number; plan?: Config['plan']; width?: number } = {},
): Promise<SeededMembers> {
  const plan = seedPlanOf(opts.plan ?? config.plan, opts.width);
  const bulk = Math.max(0, Math.floor(opts.members ?? config.seedMembers));
  const [admin, demo, blocked, expired, bulkHash] = await Promise.all([
    hashPassword(config.seedPassword),
    hashPassword(config.seedPassword),
    hashPassword(config.seedPassword),
    hashPassword(config.seedPassword),
    // One hash shared by every generated member: hashing thousands of passwords with scrypt would take minutes.
    hashPassword(config.seedPassword),
  ]);
  return database.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
    const { rankIds, packageIds } = await seedReference(tx);
    await seedPlanSettings(tx, plan);
    const members = await seedMembers(tx, {
      bulk,
      namedHashes: { admin, demo, blocked, expired },
      bulkHash,
      rankIds: rankIds[plan.plan],
      packageIds,
      skipTriggers: database.kind === 'pglite',
      ...plan,
    });
    const ctx: SeedContext = { db: tx, config, members, rankIds: rankIds[plan.plan], packageIds, rng: (area) => new Rng(areaSeed(area)) };
    for (const s of SEEDERS) await s(ctx);
    return members;
  });
}

/** Seed when no member exists yet. Returns whether it seeded. */
export async function seedIfEmpty(database: Database, config: Config): Promise<boolean> {
  if (!(await isEmpty(database))) return false;
  await seed(database, config);
  return true;
}

export { NAMED_MEMBERS };
