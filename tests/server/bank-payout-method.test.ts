// @vitest-environment node
/**
 * Bank details (GET/PUT /api/user/bank_details) and the payout method (GET/PUT
 * /api/payout/payout_method): IBAN checksum and BIC by ibantools, account number and routing code where a
 * country has no IBANs, the password re-entered, only the caller's own details, masked answers, audit rows
 * without a full number; and payout requests that go by the chosen method (refused without one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { adjustWallet } from '../../server/lib/ledger';
import * as money from '../../server/lib/money';
import { bulkMembers, call, get, login, rows, TEST_PASSWORD } from './helpers';

let s: TestServer;
const GOOD_IBAN = 'DE89 3704 0044 0532 0130 00';
const GOOD_BIC = 'COBADEFFXXX';
const USDT = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

const bank = (overrides: Record<string, unknown> = {}) => ({
  account_holder: 'Ada Lovelace',
  country: 'DE',
  iban: GOOD_IBAN,
  bic: GOOD_BIC,
  bank_name: 'Commerzbank',
  password: TEST_PASSWORD,
  ...overrides,
});
const putBank = (token: string | undefined, body: unknown) => call(s.app, 'PUT', '/api/user/bank_details', body, { token });
const putMethod = (token: string | undefined, body: unknown) => call(s.app, 'PUT', '/api/payout/payout_method', body, { token });
const requestPayout = (token: string, amount = '60') =>
  call(s.app, 'POST', '/api/payout/request_payout', { amount, password: TEST_PASSWORD }, { token, headers: { 'idempotency-key': randomUUID() } });

let offset = 10;
async function member() {
  const [m] = await bulkMembers(s.database, 1, offset++);
  return { ...m, token: (await login(s.app, m.username)).token };
}

/** A member with money in the wallet and an approved KYC: everything a payout needs but the method. */
async function funded() {
  const m = await member();
  await adjustWallet(s.database.db, { memberId: m.id, amount: money.parse('500'), memo: 'test funds' });
  await s.database.db.execute(
    sql`INSERT INTO member_kyc (member_id, status) VALUES (${m.id}, 'approved') ON CONFLICT (member_id) DO UPDATE SET status = 'approved'`,
  );
  return m;
}

/** The company offers only `methods` while `fn` runs (company setting payout_methods). */
async function offerOnly(methods: string[], fn: () => Promise<void>) {
  await s.database.db.execute(
    sql`INSERT INTO settings (key, value) VALUES ('payout_methods', ${JSON.stringify({ offered: methods })}::jsonb) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
  );
  s.app.ctx.settings.invalidate();
  try {
    await fn();
  } finally {
    await s.database.db.execute(sql`DELETE FROM settings WHERE key = 'payout_methods'`);
    s.app.ctx.settings.invalidate();
  }
}

const audit = (id: number, action: string) =>
  rows<{ detail: Record<string, unknown> }>(s.database, sql`SELECT detail FROM account_audit WHERE member_id = ${id} AND action = ${action} ORDER BY id`);

beforeAll(async () => {
  s = await startTestServer();
}, 120_000);
afterAll(() => s?.close());

describe('bank details', () => {
  it('saves a valid IBAN and BIC, answers them masked, and audits only the last four', async () => {
    const m = await member();
    const empty = await get(s.app, '/api/user/bank_details', { token: m.token });
    expect(empty.status).toBe(200);
    expect(empty.body.data.bank_details).toBeNull();
    expect(empty.body.data.countries.find((c: { iso_code_2: string }) => c.iso_code_2 === 'DE')).toMatchObject({ iban: true });
    expect(empty.body.data.countries.find((c: { iso_code_2: string }) => c.iso_code_2 === 'US')).toMatchObject({ iban: false });

    const res = await putBank(m.token, bank());
    expect(res.status).toBe(200);
    expect(res.body.data.bank_details).toMatchObject({ account_holder: 'Ada Lovelace', kind: 'iban', account_masked: '•••• 3000', bic: GOOD_BIC, country: 'DE' });
    expect(JSON.stringify(res.body)).not.toContain('370400440532013000');
    expect((await get(s.app, '/api/user/bank_details', { token: m.token })).body.data.bank_details.account_masked).toBe('•••• 3000');

    const [stored] = await rows<{ iban: string }>(s.database, sql`SELECT iban FROM bank_details WHERE member_id = ${m.id}`);
    expect(stored.iban).toBe('DE89370400440532013000');
    const trail = await audit(m.id, 'bank.changed');
    expect(trail).toHaveLength(1);
    expect(trail[0].detail).toMatchObject({ last4: '3000', kind: 'iban' });
    expect(JSON.stringify(trail[0].detail)).not.toContain('0532013000');
  });

  it.each([
    ['a wrong check digit', { iban: 'DE89 3704 0044 0532 0130 01' }, 'iban', 'account:bank.errors.ibanChecksum'],
    ['a too short IBAN', { iban: 'DE89 3704 0044' }, 'iban', 'account:bank.errors.ibanFormat'],
    ['letters where digits belong', { iban: 'DEXX370400440532013000' }, 'iban', 'account:bank.errors.ibanChecksum'],
    ["another country's IBAN", { iban: 'GB29 NWBK 6016 1331 9268 19' }, 'iban', 'account:bank.errors.ibanCountry'],
    ['no IBAN', { iban: '' }, 'iban', 'validation:required'],
    ['a bad BIC', { bic: 'COBA1' }, 'bic', 'account:bank.errors.bicInvalid'],
    ['a BIC of no country', { bic: 'COBAXXFF' }, 'bic', 'account:bank.errors.bicInvalid'],
    ['no account holder', { account_holder: ' ' }, 'account_holder', 'validation:required'],
    ['an unknown country', { country: 'QQ' }, 'country', 'validation:invalidChoice'],
  ])('refuses %s with its field error and saves nothing', async (_name, patch, field, key) => {
    const m = await member();
    const res = await putBank(m.token, bank(patch));
    expect(res.status).toBe(422);
    expect(res.body.error_code).toBe('validation_error');
    expect(res.body.errors[field]).toEqual([key]);
    expect((await get(s.app, '/api/user/bank_details', { token: m.token })).body.data.bank_details).toBeNull();
    expect(await audit(m.id, 'bank.changed')).toHaveLength(0);
  });

  it('takes an account number and routing code where the country has no IBANs', async () => {
    const m = await member();
    const missing = await putBank(m.token, bank({ country: 'US', iban: undefined, bic: 'CHASUS33' }));
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toMatchObject({ account_number: ['validation:required'], routing_code: ['validation:required'] });

    const res = await putBank(m.token, bank({ country: 'US', iban: undefined, account_number: '0001-2345-6789', routing_code: '021000021', bic: 'CHASUS33', bank_name: 'Chase' }));
    expect(res.status).toBe(200);
    expect(res.body.data.bank_details).toMatchObject({ kind: 'account', account_masked: '•••• 6789', routing_code: '021000021' });
  });

  it('needs the right account password', async () => {
    const m = await member();
    const wrong = await putBank(m.token, bank({ password: 'Not-my-pass-1' }));
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    const none = await putBank(m.token, bank({ password: '' }));
    expect(none.body.errors).toEqual({ password: ['validation:required'] });
    expect(await audit(m.id, 'bank.changed')).toHaveLength(0);
  });

  it('answers bad bodies with a field map, never a 5xx', async () => {
    const m = await member();
    for (const body of [{}, { ...bank(), iban: 42 }, { ...bank(), extra: 1 }, { ...bank(), iban: 'x'.repeat(500) }, [], 'text']) {
      const res = await putBank(m.token, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const typed = await putBank(m.token, { ...bank(), iban: 42 });
    expect(typed.status).toBe(422);
    expect(Object.keys(typed.body.errors)).toContain('iban');
  });

  it('is only ever about the caller: signed out is 401, another member sees their own', async () => {
    const a = await member();
    const b = await member();
    expect((await putBank(a.token, bank())).status).toBe(200);
    expect((await get(s.app, '/api/user/bank_details')).status).toBe(401);
    expect((await putBank(undefined, bank())).status).toBe(401);
    expect((await get(s.app, '/api/user/bank_details', { token: b.token })).body.data.bank_details).toBeNull();
    // A member_id in the body is not a field: it cannot aim at someone else.
    const aimed = await putBank(b.token, { ...bank(), member_id: a.id });
    expect(aimed.status).toBe(422);
    expect((await get(s.app, '/api/user/bank_details', { token: a.token })).body.data.bank_details.account_holder).toBe('Ada Lovelace');
  });
});

describe('payout method', () => {
  it('offers the company methods; a bank transfer needs bank details first', async () => {
    const m = await member();
    const first = await get(s.app, '/api/payout/payout_method', { token: m.token });
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ offered: ['bank_transfer', 'e_wallet', 'usdt_trc20'], chosen: null, has_bank_details: false });

    const noBank = await putMethod(m.token, { method: 'bank_transfer', password: TEST_PASSWORD });
    expect(noBank.status).toBe(422);
    expect(noBank.body.errors).toEqual({ method: ['account:payoutMethod.errors.bankMissing'] });

    expect((await putBank(m.token, bank())).status).toBe(200);
    const ok = await putMethod(m.token, { method: 'bank_transfer', password: TEST_PASSWORD });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ chosen: { method: 'bank_transfer', destination: 'Commerzbank •••• 3000' }, has_bank_details: true });
    expect((await audit(m.id, 'payout_method.changed'))[0].detail).toEqual({ method: 'bank_transfer' });
  });

  it('checks an e-wallet e-mail and a USDT address by format, and shows them masked', async () => {
    const m = await member();
    const badMail = await putMethod(m.token, { method: 'e_wallet', email: 'not-an-email', password: TEST_PASSWORD });
    expect(badMail.body.errors).toEqual({ email: ['validation:invalidEmail'] });
    const badAddress = await putMethod(m.token, { method: 'usdt_trc20', address: '0x52908400098527886E0F7030069857D2E4169EE7', password: TEST_PASSWORD });
    expect(badAddress.body.errors).toEqual({ address: ['account:payoutMethod.errors.addressInvalid'] });
    const unknown = await putMethod(m.token, { method: 'cheque', password: TEST_PASSWORD });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(['method']);

    const wallet = await putMethod(m.token, { method: 'e_wallet', email: 'ada.wallet@example.com', password: TEST_PASSWORD });
    expect(wallet.body.data.chosen).toEqual({ method: 'e_wallet', destination: 'ad•••@example.com' });
    const usdt = await putMethod(m.token, { method: 'usdt_trc20', address: USDT, password: TEST_PASSWORD });
    expect(usdt.body.data.chosen).toEqual({ method: 'usdt_trc20', destination: 'TQn9…bLSE' });
    const trail = await audit(m.id, 'payout_method.changed');
    expect(trail.map((r) => r.detail)).toEqual([
      { method: 'e_wallet', destination: 'ad•••@example.com' },
      { method: 'usdt_trc20', destination: 'TQn9…bLSE' },
    ]);
    expect(JSON.stringify(trail)).not.toContain(USDT);
  });

  it('needs the right password and only offers what the company offers', async () => {
    const m = await member();
    const wrong = await putMethod(m.token, { method: 'e_wallet', email: 'a@example.com', password: 'Not-my-pass-1' });
    expect(wrong.body.errors).toEqual({ password: ['validation:invalidPassword'] });
    await offerOnly(['bank_transfer'], async () => {
      expect((await get(s.app, '/api/payout/payout_method', { token: m.token })).body.data.offered).toEqual(['bank_transfer']);
      const res = await putMethod(m.token, { method: 'e_wallet', email: 'a@example.com', password: TEST_PASSWORD });
      expect(res.body.errors).toEqual({ method: ['validation:invalidChoice'] });
    });
  });

  it('is only ever about the caller', async () => {
    const a = await member();
    const b = await member();
    await putMethod(a.token, { method: 'e_wallet', email: 'a@example.com', password: TEST_PASSWORD });
    expect((await get(s.app, '/api/payout/payout_method')).status).toBe(401);
    expect((await get(s.app, '/api/payout/payout_method', { token: b.token })).body.data.chosen).toBeNull();
    expect((await putMethod(b.token, { method: 'e_wallet', email: 'b@example.com', password: TEST_PASSWORD, member_id: a.id })).status).toBe(422);
    expect((await get(s.app, '/api/payout/payout_method', { token: a.token })).body.data.chosen.destination).toBe('a•••@example.com');
  });
});

describe('payout requests go by the chosen method', () => {
  it('refuses a payout without a method (and says so in the criteria)', async () => {
    const m = await funded();
    const criteria = await get(s.app, '/api/payout/settings', { token: m.token });
    expect(criteria.body.data.payout_method).toBeNull();
    const res = await requestPayout(m.token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ payout_method: ['account:payoutMethod.errors.none'] });
    expect(await rows(s.database, sql`SELECT 1 FROM payout_requests WHERE member_id = ${m.id}`)).toHaveLength(0);
  });

  it.each([
    ['bank_transfer', {}, 'Commerzbank •••• 3000'],
    ['e_wallet', { email: 'ada.wallet@example.com' }, 'ad•••@example.com'],
    ['usdt_trc20', { address: USDT }, 'TQn9…bLSE'],
  ])('records %s and its masked destination on the request', async (method, details, destination) => {
    const m = await funded();
    if (method === 'bank_transfer') await putBank(m.token, bank());
    expect((await putMethod(m.token, { method, ...details, password: TEST_PASSWORD })).status).toBe(200);
    expect((await get(s.app, '/api/payout/settings', { token: m.token })).body.data.payout_method).toEqual({ method, destination });

    const res = await requestPayout(m.token);
    expect(res.status).toBe(201);
    expect(res.body.data.payout_method).toEqual({ method, destination });
    const [row] = await rows<{ payout_method: string; payout_destination: string }>(
      s.database,
      sql`SELECT payout_method, payout_destination FROM payout_requests WHERE id = ${res.body.data.payout.id}`,
    );
    expect(row).toEqual({ payout_method: method, payout_destination: destination });
  });
});
