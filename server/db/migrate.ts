/**
 * Applies server/db/migrations/*.sql in name order, each once, each in its own transaction.
 * Plain SQL files keep migrations readable and reviewable; drizzle table definitions in schema.ts
 * describe the same tables for typed queries.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Database } from './client';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export async function migrate(database: Database): Promise<string[]> {
  await database.execText(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const done = new Set(
    (await database.rows<{ name: string }>(sql`SELECT name FROM schema_migrations`)).map((r) => r.name),
  );
  const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const f of files) {
    if (done.has(f)) continue;
    const text = readFileSync(path.join(dir, f), 'utf8');
    const escaped = f.replace(/'/g, "''");
    await database.execText(`BEGIN;\n${text}\nINSERT INTO schema_migrations (name) VALUES ('${escaped}');\nCOMMIT;`);
    applied.push(f);
  }
  return applied;
}
