/**
 * `npm run operator -- <area> <command> [arguments]`: staff actions on the database `npm start` uses
 * (embedded PGlite in DATA_DIR, or DATABASE_URL), e.g. `npm run operator -- kyc reject 12 --reason "Blurred"`.
 * With the embedded database, stop the server first: one process at a time may open its folder.
 */
import { mkdirSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { migrate } from '../server/db/migrate';
import { createMailer } from '../server/lib/mailer';
import { Outbox } from '../server/lib/outbox';
import { SettingsService } from '../server/lib/settings';
import { runOperator } from '../server/operator/run';

const config = loadConfig();
if (config.dataDir && !config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
const database = await openDatabase({ dataDir: config.databaseUrl ? null : config.dataDir, databaseUrl: config.databaseUrl });
let code = 1;
try {
  await migrate(database);
  // Messages to members (a decision) go to the outbox as the server's do; their log lines go to stderr.
  const line = (obj: object, msg?: string) => config.logLevel !== 'silent' && console.error(JSON.stringify({ ...obj, msg }));
  const log = { info: line, warn: line, error: line, debug: () => {}, trace: () => {}, fatal: line, child: () => log } as unknown as FastifyBaseLogger;
  // With SMTP_URL, the e-mails a command commits are mailed before the process ends.
  const mailer = config.smtpUrl ? createMailer(config.smtpUrl, config.mailFrom) : null;
  const outbox = new Outbox(database.db, log, { mailer });
  const services = { database, config, outbox, settings: new SettingsService(database.db, () => config.demoMode) };
  try {
    code = await runOperator(services, process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) });
    await outbox.settled();
  } finally {
    mailer?.close();
  }
} finally {
  await database.close();
}
process.exit(code);
