/** Starts the reference server: open (and if new, migrate and seed) the database, serve API and SPA. */
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { seedIfEmpty } from './seed';
import { buildApp } from './app';
import { mkdirSync } from 'node:fs';

// The page renderer (React on the server) loads later: in production mode unless told otherwise.
process.env.NODE_ENV ||= 'production';
const config = loadConfig();
if (config.dataDir && !config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
const database = await openDatabase({ dataDir: config.databaseUrl ? null : config.dataDir, databaseUrl: config.databaseUrl });
await migrate(database);
const seeded = await seedIfEmpty(database, config);
const app = await buildApp(database, config);
await app.listen({ port: config.port, host: config.host });

const url = `http://localhost:${config.port}`;
const lines = [
  '',
  `Upline is running at ${url}`,
  `  database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`}${config.demoMode ? ' · demo mode' : ''}`,
  `  API description: ${url}/api/openapi.json`,
];
if (seeded) {
  lines.push(
    '  demo members (seeded just now):',
    `    demo          password: ${config.seedPassword}   (active affiliate, large downline)`,
    `    blocked       password: ${config.seedPassword}   (blocked member)`,
    `    demo.expired  password: ${config.seedPassword}   (demo access not allowed)`,
  );
  if (config.seedPasswordGenerated) lines.push('  (password generated for this database; set SEED_PASSWORD to choose it)');
} else {
  lines.push('  database already seeded: demo members are demo, blocked, demo.expired (password as when it was seeded)');
}
console.log(lines.join('\n') + '\n');

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    await app.close();
    await database.close();
    process.exit(0);
  });
}
