/**
 * Bench data: a member with a very long wallet history. Opens a fresh data folder, migrates and seeds it as
 * the server would on first start, then adds `rows` balanced wallet adjustments for `username` in one
 * transaction (one multi-row INSERT per table): each credits the member's wallet and debits the company's
 * wallet-adjustments account by the same amount, one every 11 minutes going back from now.
 *
 *   const dir = mkdtempSync(path.join(tmpdir(), 'upline-bench-'));
 *   await addLedgerRows(dir, { rows: 100_000 });
 *   const server = await startServer({ DATA_DIR: dir });
 */
import { loadConfig } from '../../server/config';
import { openDatabase, sql } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { seedIfEmpty } from '../../server/seed';
import { ensureWallet, systemAccounts, type Executor } from '../../server/lib/ledger';

export interface LedgerRowsOptions {
  rows?: number;
  username?: string;
  /** Same as the server's SEED_PASSWORD / SEED_MEMBERS so the seeded members match. */
  env?: Record<string, string>;
}

export async function addLedgerRows(dataDir: string, opts: LedgerRowsOptions = {}): Promise<{ rows: number; memberId: number }> {
  const rows = opts.rows ?? 100_000;
  const username = opts.username ?? 'demo';
  const config = loadConfig({ ...process.env, DATABASE_URL: '', ...opts.env, DATA_DIR: dataDir });
  const database = await openDatabase({ dataDir, databaseUrl: null });
  try {
    await migrate(database);
    await seedIfEmpty(database, config);
    const [member] = await database.rows<{ id: number }>(sql`SELECT id FROM members WHERE username = ${username}`);
    if (!member) throw new Error(`no member ${username}`);
    const memberId = Number(member.id);
    await database.db.transaction(async (tx) => {
      const ex = tx as unknown as Executor;
      const wallet = await ensureWallet(ex, memberId);
      const acc = await systemAccounts(ex);
      await tx.execute(sql`
        WITH t AS (
          INSERT INTO ledger_transactions (transaction_group, transaction_type, transaction_key, member_id, memo, created_at)
          SELECT 'adjustment', 'admin_adjustment', 'admin_adjustment', ${memberId}, 'Bench adjustment ' || g,
                 date_trunc('second', now()) - g * interval '11 minutes'
          FROM generate_series(1, ${rows}::int) AS g
          RETURNING id, created_at
        )
        INSERT INTO ledger_entries (transaction_id, account_id, amount, created_at)
        SELECT id, ${wallet}::int, -((id % 97) + 1) / 100.0, created_at FROM t
        UNION ALL
        SELECT id, ${acc.wallet_adjustments}::int, ((id % 97) + 1) / 100.0, created_at FROM t`);
    });
    return { rows, memberId };
  } finally {
    await database.close();
  }
}
