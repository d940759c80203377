/** Runtime settings, read once from the environment (see README, "Contract for automation"). */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { SESSION_CACHE_MS } from './lib/session-cache';

export interface Config {
  port: number;
  host: string;
  dataDir: string | null; // null → in-memory (tests)
  databaseUrl: string | null;
  /** Connections each server process keeps open to PostgreSQL at most (DATABASE_POOL_SIZE, see databasePoolSize). */
  databasePoolSize: number;
  appKey: string;
  seedPassword: string;
  seedPasswordGenerated: boolean;
  demoMode: boolean;
  /** Serve the built SPA from this folder when it exists. */
  staticDir: string | null;
  /** The built page renderer (sign-in page with its markup) when it exists; SERVER_RENDER=0 turns it off. */
  pageRenderer: string | null;
  /** The flow site written by `npm run flows`, served at /flows. */
  flowsDir?: string | null;
  logLevel: string;
  /** Size of the seeded tree. */
  seedMembers: number;
  /** The compensation plan a fresh database is seeded with (PLAN=binary|matrix|unilevel, default binary). */
  plan?: 'binary' | 'matrix' | 'unilevel';
  /** How long a verified session is kept in memory (SESSION_CACHE_MS, default 5000; 0 looks every token up). */
  sessionCacheMs: number;
  /** Relax rate limits (tests of unrelated features may call login many times). */
  rateLimitScale: number;
  /** SMTP server for real e-mail (smtp://user:pass@host:587, smtps://…:465); without it e-mails stay in the outbox table. */
  smtpUrl: string | null;
  /** Sender of the e-mails (MAIL_FROM). */
  mailFrom: string;
  /**
   * Where uploaded files are kept: outside every served folder. null → a fresh temporary folder (tests).
   * Default: next to the embedded database's folder (`<DATA_DIR>-uploads`), or UPLOADS_DIR.
   */
  uploadsDir: string | null;
  /** How many bytes of uploads one member may keep (UPLOAD_QUOTA_MB). */
  uploadQuotaBytes: number;
  /** Where the log lines go instead of stdout (never set from the environment; tests read the log). */
  logStream?: { write(line: string): void };
}

/**
 * Connections a server process keeps open to PostgreSQL at most: DATABASE_POOL_SIZE, else POOL_DEFAULT. Requests
 * beyond it wait in the process for a free connection. On a 2-core machine serving 50 connections, 6 connections
 * did as well as 10 (database CPU per request, answers per second) and 4 did worse (requests queued for a
 * connection while the database had a core to spare), so the default stays 10.
 */
export function databasePoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.DATABASE_POOL_SIZE;
  if (text === undefined || text === '') return POOL_DEFAULT;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`DATABASE_POOL_SIZE is a whole number of connections (1 or more), not "${text}"`);
  return n;
}
const POOL_DEFAULT = 10;

function planOf(text: string | undefined): Config['plan'] {
  if (!text) return 'binary';
  if (text === 'binary' || text === 'matrix' || text === 'unilevel') return text;
  throw new Error(`PLAN is binary, matrix or unilevel (got ${text})`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const generated = !env.SEED_PASSWORD;
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir: env.DATA_DIR ?? path.resolve('data'),
    databaseUrl: env.DATABASE_URL || null,
    databasePoolSize: databasePoolSize(env),
    appKey: env.APP_KEY ?? 'upline-demo-key',
    seedPassword: env.SEED_PASSWORD ?? randomBytes(9).toString('base64url'),
    seedPasswordGenerated: generated,
    demoMode: env.DEMO_MODE === '1' || env.DEMO_MODE === 'true',
    staticDir: path.resolve('dist'),
    flowsDir: path.resolve('docs/flows'),
    pageRenderer: env.SERVER_RENDER === '0' ? null : path.resolve('dist-ssr/entry-server.js'),
    logLevel: env.LOG_LEVEL ?? 'info',
    seedMembers: Number(env.SEED_MEMBERS ?? 3000),
    plan: planOf(env.PLAN),
    rateLimitScale: Number(env.RATE_LIMIT_SCALE ?? 1),
    sessionCacheMs: Number(env.SESSION_CACHE_MS ?? SESSION_CACHE_MS),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Upline <no-reply@upline.example>',
    uploadsDir: env.UPLOADS_DIR ?? `${env.DATA_DIR ?? path.resolve('data')}-uploads`,
    uploadQuotaBytes: Math.round(Number(env.UPLOAD_QUOTA_MB ?? 50) * 1024 * 1024),
    ...overrides,
  };
}
