// @vitest-environment node
/**
 * Support snapshots through the API: a member sends one and reads back only their own; staff read any one
 * with an operator token, which must be valid — unknown, expired, revoked or missing is 401 — and is never
 * stored or logged as it is. `npm run operator -- token create|list|revoke` as staff run it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import { createOperatorToken, revokeOperatorToken, SNAPSHOTS_KEPT } from '../../server/lib/support-snapshot';
import { SNAPSHOT_FORMAT, SNAPSHOT_KIND } from '../../src/schemas/support-snapshot.schema';
import { SNAPSHOTS_PER_HOUR } from '../../server/routes/support-snapshot.routes';
import { startTestServer, type TestServer } from '../support/server';
import { bulkMembers, call, get, login, post, rows } from './helpers';

let s: TestServer;
const logLines: string[] = [];

const snapshot = (over: Record<string, unknown> = {}) => ({
  kind: SNAPSHOT_KIND,
  format: SNAPSHOT_FORMAT,
  taken_at: '2026-11-25T12:00:00.000Z',
  reason: 'member',
  error: null,
  app_version: '0.1.0',
  route: { path: '/member/wallet/transactions', search: '?page=3' },
  language: 'en',
  currency: 'USD',
  colour_scheme: 'light',
  viewport: { width: 1280, height: 800 },
  root: { value: { authenticated: 'idle' }, context: {} },
  pages: [{ key: 'wallet.transactions', id: 'wallet.transactions', path: '/wallet/transactions', snapshot: { value: 'loaded', context: { rows: [1, 2, 3] } } }],
  events: [{ at: '2026-11-25T11:59:00.000Z', actor: 'wallet.transactions', type: 'list.next', event: { type: 'list.next' }, value: 'loading' }],
  answers: [{ at: '2026-11-25T11:59:01.000Z', path: '/api/wallet/transactions', query: 'cursor=abc', data: { data: { items: [] } } }],
  redacted: ['pages.0.snapshot.context.values.password'],
  ...over,
});

let offset = 120;
async function member() {
  const [m] = await bulkMembers(s.database, 1, offset++);
  return { ...m, session: await login(s.app, m.username) };
}
const replay = (id: string, token?: string) => get(s.app, `/api/support/replay/snapshots/${id}`, { headers: token === undefined ? {} : { 'x-operator-token': token } });

beforeAll(async () => {
  s = await startTestServer({ logLevel: 'info', logStream: { write: (line) => void logLines.push(line) } });
}, 120_000);
afterAll(() => s?.close());

describe('member snapshots', () => {
  it('keeps a member’s snapshot, lists it and gives it back to them only', async () => {
    const a = await member();
    const b = await member();
    const sent = await post(s.app, '/api/support/snapshots', snapshot(), { token: a.session.token });
    expect(sent.status).toBe(201);
    const id = sent.body.data.snapshot.id as string;
    expect(sent.body.data.snapshot).toMatchObject({ reason: 'member', route: '/member/wallet/transactions?page=3' });

    const list = await get(s.app, '/api/support/snapshots', { token: a.session.token });
    expect(list.body.data.snapshots.map((x: { id: string }) => x.id)).toEqual([id]);
    const own = await get(s.app, `/api/support/snapshots/${id}`, { token: a.session.token });
    expect(own.status).toBe(200);
    expect(own.headers['content-disposition']).toContain('attachment');
    expect(own.body).toMatchObject({ kind: SNAPSHOT_KIND, route: { search: '?page=3' }, pages: [{ key: 'wallet.transactions' }] });

    // Another member: not theirs, not listed, not found.
    expect((await get(s.app, `/api/support/snapshots/${id}`, { token: b.session.token })).status).toBe(404);
    expect((await get(s.app, '/api/support/snapshots', { token: b.session.token })).body.data.snapshots).toEqual([]);
    expect((await get(s.app, `/api/support/snapshots/${id}`)).status).toBe(401);
    expect((await post(s.app, '/api/support/snapshots', snapshot())).status).toBe(401);
  });

  it('refuses what is not a snapshot with a field map, and text PostgreSQL cannot hold', async () => {
    const a = await member();
    const bad = await post(s.app, '/api/support/snapshots', snapshot({ kind: 'other', viewport: { width: -1, height: 2 } }), { token: a.session.token });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['kind']));
    const nul = await post(s.app, '/api/support/snapshots', snapshot({ root: { note: 'a\u0000b' } }), { token: a.session.token });
    expect(nul.status).toBe(422);
  });

  it(`keeps a member’s last ${SNAPSHOTS_KEPT}, and takes at most ${SNAPSHOTS_PER_HOUR} an hour`, async () => {
    const a = await member();
    for (let i = 0; i < SNAPSHOTS_PER_HOUR; i++) expect((await post(s.app, '/api/support/snapshots', snapshot({ taken_at: `t${i}` }), { token: a.session.token })).status).toBe(201);
    const [{ n }] = await rows<{ n: number }>(s.database, sql`SELECT count(*)::int AS n FROM support_snapshots WHERE member_id = ${a.id}`);
    expect(n).toBe(SNAPSHOTS_KEPT);
    expect((await post(s.app, '/api/support/snapshots', snapshot(), { token: a.session.token })).status).toBe(429);
  });
});

describe('operator tokens on the replay endpoint', () => {
  it('answers any snapshot to a valid token; 401 to a wrong, missing, expired or revoked one', async () => {
    const a = await member();
    const id = (await post(s.app, '/api/support/snapshots', snapshot(), { token: a.session.token })).body.data.snapshot.id as string;
    const valid = await createOperatorToken(s.database.db, 'desk', 1);
    const ok = await replay(id, valid.token);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ kind: SNAPSHOT_KIND, pages: [{ key: 'wallet.transactions' }] });
    expect((await replay('AAAAAAAAAAAAAAAA', valid.token)).status).toBe(404);

    expect((await replay(id)).status).toBe(401);
    expect((await replay(id, `${valid.token}x`)).status).toBe(401);
    expect((await replay(id, 'upl_op_guessed-token-value')).status).toBe(401);
    // A member's own session token is not an operator token.
    expect((await replay(id, a.session.token)).status).toBe(401);

    const expired = await createOperatorToken(s.database.db, 'old', 1, new Date(Date.now() - 2 * 3600_000));
    expect((await replay(id, expired.token)).status).toBe(401);

    const revoked = await createOperatorToken(s.database.db, 'gone', 1);
    expect((await replay(id, revoked.token)).status).toBe(200);
    expect(await revokeOperatorToken(s.database.db, revoked.id)).toBe(true);
    expect((await replay(id, revoked.token)).status).toBe(401);
    expect(await revokeOperatorToken(s.database.db, revoked.id)).toBe(false);

    // Tokens are random, kept only as hashes, and never logged.
    const stored = await rows<{ h: string }>(s.database, sql`SELECT token_hash AS h FROM operator_tokens`);
    expect(stored.some((r) => r.h.includes(valid.token) || valid.token.includes(r.h))).toBe(false);
    expect(valid.token).not.toBe(revoked.token);
    expect(logLines.join('\n')).not.toContain(valid.token);
    expect(logLines.join('\n')).not.toContain(revoked.token);
  });

  it('is never the member endpoint: a member token alone reads no other member’s snapshot', async () => {
    const a = await member();
    const b = await member();
    const id = (await post(s.app, '/api/support/snapshots', snapshot(), { token: a.session.token })).body.data.snapshot.id as string;
    expect((await call(s.app, 'GET', `/api/support/replay/snapshots/${id}`, undefined, { token: b.session.token })).status).toBe(401);
  });
});

describe('npm run operator -- token', () => {
  const run = promisify(execFile);
  let dir: string;
  const operator = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/operator.ts', ...args], {
        cwd: process.cwd(),
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'info' },
      });
      return { code: 0, stdout, stderr };
    } catch (e) {
      const x = e as { code: number; stdout: string; stderr: string };
      return { code: x.code, stdout: x.stdout, stderr: x.stderr };
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'upline-token-'));
    const database = await openDatabase({ dataDir: dir, databaseUrl: null });
    await migrate(database);
    await database.close();
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a token shown once, lists it without the token, revokes it', async () => {
    const created = await operator('token', 'create', '--label', 'ana', '--hours', '2');
    expect(created.code).toBe(0);
    const token = created.stdout.trim().split('\n').at(-1)!;
    expect(token).toMatch(/^upl_op_[A-Za-z0-9_-]{40,}$/);
    const id = /Token (\d+) \(ana\)/.exec(created.stdout)![1];

    const list = await operator('token', 'list');
    expect(list.stdout).toMatch(new RegExp(`^${id}\\tana\\tuntil .*\\tvalid`, 'm'));
    expect(list.stdout + list.stderr).not.toContain(token);

    expect((await operator('token', 'revoke', id)).stdout).toContain(`Token ${id} revoked.`);
    expect((await operator('token', 'list')).stdout).toMatch(new RegExp(`^${id}\\tana\\t.*\\trevoked`, 'm'));
    const again = await operator('token', 'revoke', id);
    expect(again.code).not.toBe(0);
    expect((await operator('token', 'create', '--hours', '0')).code).not.toBe(0);
  }, 120_000);
});
