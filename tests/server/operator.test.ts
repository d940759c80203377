// @vitest-environment node
/**
 * `npm run operator -- kyc …` as staff run it: a real process on a real embedded database folder (the
 * one `npm start` would open), then what the member sees through the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../server/config';
import { runOperatorIn, withDatabaseIn } from './operator-process';
import { migrate } from '../../server/db/migrate';
import { seed } from '../../server/seed';

let dir: string;
let pending: { id: number; member_id: number }[];

const operator = (...args: string[]) => runOperatorIn(dir, ...args);
const withDatabase = <T,>(fn: Parameters<typeof withDatabaseIn<T>>[1]) => withDatabaseIn(dir, fn);

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'upline-operator-'));
  const config = loadConfig({ SEED_PASSWORD: 'Demo-pass-2026', LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv, { dataDir: dir, databaseUrl: null, seedMembers: 40, uploadsDir: null });
  await withDatabase(async (database) => {
    await migrate(database);
    await seed(database, config);
    pending = await database.rows(sql`SELECT id::int AS id, member_id FROM kyc_documents WHERE status = 'pending' ORDER BY created_at, id`);
  });
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run operator -- kyc', () => {
  it('lists what waits, rejects with a reason, approves; the member is told each time', async () => {
    expect(pending.length).toBeGreaterThanOrEqual(2);
    const list = await operator('kyc', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n').filter(Boolean).map((l) => Number(l.split('\t')[0]))).toEqual(pending.map((p) => p.id));

    const reject = await operator('kyc', 'reject', String(pending[0].id), '--reason', 'The document has expired.');
    expect(reject).toMatchObject({ code: 0 });
    expect(reject.stdout).toContain(`KYC document ${pending[0].id} rejected`);
    const approve = await operator('kyc', 'approve', String(pending[1].id));
    expect(approve.stdout).toContain('approved');

    await withDatabase(async (database) => {
      const docs = await database.rows<{ id: number; status: string; reason: string | null }>(
        sql`SELECT id::int AS id, status, reason FROM kyc_documents WHERE id IN (${pending[0].id}, ${pending[1].id}) ORDER BY id`,
      );
      expect(docs).toEqual(
        [
          { id: pending[0].id, status: 'rejected', reason: 'The document has expired.' },
          { id: pending[1].id, status: 'approved', reason: null },
        ].sort((a, b) => a.id - b.id),
      );
      const status = await database.rows<{ status: string }>(sql`SELECT status FROM member_kyc WHERE member_id = ${pending[0].member_id}`);
      expect(status[0].status).toBe('rejected');
      const told = await database.rows<{ body: string }>(
        sql`SELECT o.body FROM outbox o JOIN members m ON m.email = o.destination WHERE m.id = ${pending[0].member_id} ORDER BY o.id DESC LIMIT 1`,
      );
      expect(told[0].body).toContain('The document has expired.');
      const audit = await database.rows<{ action: string }>(sql`SELECT action FROM account_audit WHERE member_id IN (${pending[0].member_id}, ${pending[1].member_id}) ORDER BY id`);
      expect(audit.map((a) => a.action).sort()).toEqual(['kyc.approved', 'kyc.rejected']);
    });
  }, 60_000);

  it('refuses what staff cannot do: no reason, a decided document, an unknown one, a wrong command', async () => {
    const noReason = await operator('kyc', 'reject', String(pending[0].id));
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason');
    const twice = await operator('kyc', 'approve', String(pending[0].id));
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('already rejected');
    const unknown = await operator('kyc', 'approve', '99999999');
    expect(unknown.code).toBe(1);
    const wrong = await operator('kyc', 'explode');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('kyc reject ID --reason');
    const mine = await operator('kyc', 'list', '--member', 'nobody-of-that-name');
    expect(mine.stdout).toContain('No KYC documents wait for review.');
    const rejected = await operator('kyc', 'list', '--status', 'rejected');
    expect(rejected.stdout).toMatch(/\trejected/);
  }, 60_000);
});
