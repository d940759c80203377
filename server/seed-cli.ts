/**
 * `npm run seed -- --members N [--plan binary|matrix|unilevel] [--width 3|5] [--reset]`: migrate and seed the
 * database of DATA_DIR (embedded) or DATABASE_URL, with a company on that compensation plan (default PLAN, else binary). Without --reset an already seeded database is left alone; with it every table is dropped
 * first. N defaults to SEED_MEMBERS (3000); use large values for benchmarks.
 */
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { isEmpty, seed } from './seed';

const { values } = parseArgs({
  options: {
    members: { type: 'string' },
    plan: { type: 'string' },
    width: { type: 'string' },
    'crm-leads': { type: 'string' },
    reset: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

if (values.help) {
  console.log('usage: npm run seed -- [--members N] [--plan binary|matrix|unilevel] [--width N] [--crm-leads N] [--reset]');
  process.exit(0);
}

// --crm-leads N: the CRM leads of demo (server/seed/crm.seed.ts reads CRM_LEADS).
if (values['crm-leads'] !== undefined) process.env.CRM_LEADS = values['crm-leads'];
const config = loadConfig();
const members = values.members === undefined ? config.seedMembers : Number(values.members);
if (!Number.isInteger(members) || members < 0 || members > 5_000_000) {
  console.error(`--members must be a whole number from 0 to 5000000 (got ${values.members})`);
  process.exit(2);
}

const plan = values.plan ?? config.plan ?? 'binary';
if (plan !== 'binary' && plan !== 'matrix' && plan !== 'unilevel') {
  console.error(`--plan is binary, matrix or unilevel (got ${values.plan})`);
  process.exit(2);
}
const width = values.width === undefined ? undefined : Number(values.width);
if (width !== undefined && (!Number.isInteger(width) || width < 2 || width > 20)) {
  console.error(`--width must be a whole number from 2 to 20 (got ${values.width})`);
  process.exit(2);
}

if (config.dataDir && !config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
const database = await openDatabase({ dataDir: config.databaseUrl ? null : config.dataDir, databaseUrl: config.databaseUrl });
const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
try {
  if (values.reset) {
    await database.execText('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    console.log(`reset: dropped every table of ${where}`);
  }
  await migrate(database);
  if (!(await isEmpty(database))) {
    console.log(`${where} is already seeded; run with --reset to replace its data.`);
  } else {
    const started = Date.now();
    const result = await seed(database, config, { members, plan, width });
    console.log(`seeded ${result.count} members of a ${plan} company into ${where} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`  sign in as demo, blocked or demo.expired with password: ${config.seedPassword}`);
    if (config.seedPasswordGenerated) console.log('  (password generated for this database; set SEED_PASSWORD to choose it)');
  }
} finally {
  await database.close();
}
