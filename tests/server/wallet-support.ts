/** Helpers of the wallet, payout, orders and history server tests. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { apiHeaders, startTestServer, TEST_PASSWORD, type TestServer } from '../support/server';
import { createSession } from '../../server/lib/auth';
import * as money from '../../server/lib/money';

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Record<string, unknown>;
}

let ip = 20;

export async function call<T = any>(
  server: TestServer,
  method: 'GET' | 'POST',
  url: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...apiHeaders(opts.token), ...opts.headers };
  let payload: string | undefined;
  if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await server.app.inject({ method, url, headers, payload, remoteAddress: `10.9.${Math.floor(++ip / 250) % 250}.${ip % 250}` });
  let body: unknown = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    /* CSV or empty */
  }
  return { status: res.statusCode, body: body as T, text: res.body, headers: res.headers as Record<string, unknown> };
}

export const apiGet = <T = any>(server: TestServer, token: string | undefined, url: string) => call<T>(server, 'GET', url, { token });

/** demo signs in through the login call, as a member would. */
export async function loginDemo(server: TestServer): Promise<string> {
  const res = await call(server, 'POST', '/api/auth/login', { body: { login_using: 'username', username: 'demo', password: TEST_PASSWORD } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.token as string;
}

/** Any other member: a session straight from the session store. */
export async function sessionOf(server: TestServer, memberId: number): Promise<string> {
  return (await createSession(server.database.db, memberId)).token;
}

export async function memberId(server: TestServer, username: string): Promise<number> {
  const [r] = await server.database.rows<{ id: number }>(sql`SELECT id FROM members WHERE lower(username) = lower(${username})`);
  return Number(r.id);
}

export interface SignedInDemo {
  server: TestServer;
  /** demo's token, from the login call. */
  token: string;
  demoId: number;
}

/** A server started before the tests of the enclosing block (closed after them), with demo signed in. */
export function signedInDemo(overrides: Parameters<typeof startTestServer>[0] = {}): SignedInDemo {
  const ctx = {} as SignedInDemo;
  beforeAll(async () => {
    ctx.server = await startTestServer(overrides);
    ctx.token = await loginDemo(ctx.server);
    ctx.demoId = await memberId(ctx.server, 'demo');
  });
  afterAll(async () => ctx.server?.close());
  return ctx;
}

/** Follow next_page_url to the end; `between` runs after every page (to change data mid-walk). */
export async function walk<T = any>(server: TestServer, token: string, firstUrl: string, between?: (page: number) => Promise<void>): Promise<{ items: T[]; pages: number; urls: string[] }> {
  const items: T[] = [];
  const urls: string[] = [];
  let url: string | null = firstUrl;
  let pages = 0;
  while (url) {
    urls.push(url);
    const res: Answer = await apiGet(server, token, url);
    expect(res.status, `${url} → ${JSON.stringify(res.body)}`).toBe(200);
    items.push(...res.body.data.items);
    url = res.body.data.next_page_url;
    pages++;
    if (pages > 500) throw new Error('paging did not end');
    if (url && between) await between(pages);
  }
  return { items, pages, urls };
}

/** −Σ entries of the member's wallet account, straight from the database. */
export async function ledgerBalance(server: TestServer, memberId: number): Promise<bigint> {
  const [r] = await server.database.rows<{ s: string | null }>(
    sql`SELECT sum(e.amount)::text AS s FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.member_id = ${memberId}`,
  );
  return r?.s ? -money.parse(r.s) : 0n;
}

/** Transactions whose entries do not sum to zero (must be none). */
export async function unbalancedTransactions(server: TestServer): Promise<number> {
  const rows = await server.database.rows(sql`SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING sum(amount) <> 0`);
  const orphans = await server.database.rows(
    sql`SELECT t.id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id GROUP BY t.id HAVING count(e.id) < 2`,
  );
  return rows.length + orphans.length;
}

export async function setSetting(server: TestServer, key: string, value: unknown) {
  await server.database.db.execute(
    sql`INSERT INTO settings (key, value) VALUES (${key}, ${JSON.stringify(value)}::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
  );
  server.app.ctx.settings.invalidate();
}

export async function setKyc(server: TestServer, memberId: number, status: string) {
  await server.database.db.execute(
    sql`INSERT INTO member_kyc (member_id, status) VALUES (${memberId}, ${status}) ON CONFLICT (member_id) DO UPDATE SET status = EXCLUDED.status`,
  );
}

/** Give a member a payout method (an e-wallet), which a payout request needs. */
export async function setPayoutMethod(server: TestServer, memberId: number, email = `wallet-${memberId}@example.com`) {
  await server.database.db.execute(
    sql`INSERT INTO payout_methods (member_id, method, destination) VALUES (${memberId}, 'e_wallet', ${email})
        ON CONFLICT (member_id) DO UPDATE SET method = EXCLUDED.method, destination = EXCLUDED.destination`,
  );
}

/** A bulk member of demo's downline with no wallet activity yet. */
export async function quietMember(server: TestServer, skip = 0): Promise<{ id: number; username: string }> {
  const rows = await server.database.rows<{ id: number; username: string }>(
    sql`SELECT m.id, m.username FROM members m
        WHERE m.status = 1 AND m.path LIKE '%.' AND m.username NOT IN ('admin', 'demo', 'blocked', 'demo.expired')
          AND NOT EXISTS (SELECT 1 FROM ledger_accounts a JOIN ledger_entries e ON e.account_id = a.id WHERE a.member_id = m.id)
        ORDER BY m.id DESC OFFSET ${skip} LIMIT 1`,
  );
  if (!rows[0]) throw new Error('no quiet member');
  return { id: Number(rows[0].id), username: rows[0].username };
}

/** CSV text → rows of cells (RFC 4180 quoting). */
export function parseCsv(text: string): string[][] {
  const s = text.replace(/^\uFEFF/, '');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && s[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Expected [from, to) of a date preset, computed here independently of the server (UTC, Monday weeks). */
export function expectedRange(preset: string, now: Date): [number, number] {
  const D = 86_400_000;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const isoDow = new Date(today).getUTCDay() || 7; // Monday 1 … Sunday 7
  const monday = today - (isoDow - 1) * D;
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  switch (preset) {
    case 'today':
      return [today, today + D];
    case 'yesterday':
      return [today - D, today];
    case 'this_week':
      return [monday, monday + 7 * D];
    case 'last_week':
      return [monday - 7 * D, monday];
    case 'this_month':
      return [Date.UTC(y, m, 1), Date.UTC(y, m + 1, 1)];
    case 'last_month':
      return [Date.UTC(y, m - 1, 1), Date.UTC(y, m, 1)];
    case 'this_year':
      return [Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1)];
  }
  throw new Error(preset);
}
