// @vitest-environment node
/** PUT /api/user/preferences: validated against the company's languages, currencies and date formats; loaded_modules follow. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { startTestServer, type TestServer } from '../support/server';
import { call, get, login, rows } from './helpers';
import { moduleDataSchema, userSchema } from '../../src/schemas/common.schema';
import { DATE_FORMATS } from '../../src/schemas/preferences.schema';

let server: TestServer;
let token: string;

const put = (body: unknown, as: string | null = token) => call(server.app, 'PUT', '/api/user/preferences', body, { token: as ?? undefined });

async function modules() {
  const res = await get(server.app, '/api/home/dummy?load_modules=1', { token });
  expect(res.status).toBe(200);
  return z.parse(moduleDataSchema, res.body.loaded_modules);
}

async function stored() {
  const [m] = await rows<{ language_code: string | null; currency_code: string | null; date_format: string | null }>(
    server.database,
    sql`SELECT language_code, currency_code, date_format FROM members WHERE username = 'demo'`,
  );
  return m;
}

beforeAll(async () => {
  server = await startTestServer({ rateLimitScale: 100 });
  token = (await login(server.app, 'demo')).token;
}, 120_000);
afterAll(() => server?.close());

describe('preferences', () => {
  it('starts from the company defaults', async () => {
    const m = await modules();
    expect(m.default_language.code).toBe('en');
    expect(m.default_currency.code).toBe('USD');
    const [setting] = await rows<{ value: string }>(server.database, sql`SELECT value #>> '{}' AS value FROM settings WHERE key = 'date_format'`);
    expect(m.date_format).toBe(setting.value);
  });

  it('saves language, currency and date format; the answer is the user and loaded_modules follow', async () => {
    const res = await put({ language: 'es', currency: 'EUR', date_format: 'l, d M Y H:i' });
    expect(res.status).toBe(200);
    const user = z.parse(userSchema, res.body.data);
    expect(user.username).toBe('demo');
    expect(user.date_format).toBe('l, d M Y H:i');

    expect(await stored()).toEqual({ language_code: 'es', currency_code: 'EUR', date_format: 'l, d M Y H:i' });
    const m = await modules();
    expect(m.default_language.code).toBe('es');
    expect(m.default_currency).toMatchObject({ code: 'EUR', symbol: '€', value: '0.92' });
    expect(m.date_format).toBe('l, d M Y H:i');
    expect(m.user?.date_format).toBe('l, d M Y H:i');
    // One audit row with what changed, from what to what.
    const [audit] = await rows<{ action: string; detail: Record<string, { from: string | null; to: string }> }>(
      server.database,
      sql`SELECT action, detail FROM account_audit WHERE member_id = (SELECT id FROM members WHERE username = 'demo') AND action = 'preferences.changed' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.detail).toMatchObject({ language: { to: 'es' }, currency: { to: 'EUR' }, date_format: { to: 'l, d M Y H:i' } });
  });

  it('changes only what is sent, and accepts codes in any case', async () => {
    const res = await put({ currency: 'sek' });
    expect(res.status).toBe(200);
    expect(await stored()).toEqual({ language_code: 'es', currency_code: 'SEK', date_format: 'l, d M Y H:i' });
    expect((await modules()).default_currency).toMatchObject({ code: 'SEK', symbol_position: 'R' });
  });

  it('accepts every offered date format', async () => {
    for (const f of DATE_FORMATS) {
      const res = await put({ date_format: f });
      expect(res.status, f).toBe(200);
      expect(res.body.data.date_format).toBe(f);
    }
    expect((await modules()).date_format).toBe(DATE_FORMATS[DATE_FORMATS.length - 1]);
  });

  it('an unknown currency is a 422 field error and changes nothing', async () => {
    const before = await stored();
    const res = await put({ currency: 'XYZ', language: 'es' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error_code: 'validation_error', errors: { currency: ['validation:invalidChoice'] } });
    expect(Object.keys(res.body.errors)).toEqual(['currency']);
    expect(await stored()).toEqual(before);
  });

  it('unknown languages and date formats outside the list are refused, each under its field', async () => {
    const before = await stored();
    const res = await put({ language: 'xx', currency: 'EUR', date_format: 'Y-m-d <script>' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ language: ['validation:invalidChoice'], date_format: ['validation:invalidChoice'] });
    expect(await stored()).toEqual(before);
  });

  it('refuses an empty request, unknown fields and wrong types', async () => {
    const empty = await put({});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ _body: ['validation:required'] });

    const extra = await put({ currency: 'USD', theme: 'dark' });
    expect(extra.status).toBe(422);
    expect(Object.keys(extra.body.errors)).toContain('theme');

    const wrong = await put({ currency: 5 });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.currency).toBeTruthy();

    const blank = await put({ language: '   ' });
    expect(blank.status).toBe(422);
    expect(blank.body.errors.language).toBeTruthy();
  });

  it('needs a signed-in member', async () => {
    const res = await put({ currency: 'USD' }, null);
    expect(res.status).toBe(401);
  });

  it("one member's preferences do not touch another's", async () => {
    const [other] = await rows<{ username: string }>(server.database, sql`SELECT username FROM members WHERE id > 4 AND status = 1 AND verified ORDER BY id LIMIT 1`);
    const otherToken = (await login(server.app, other.username)).token;
    const res = await get(server.app, '/api/home/dummy?load_modules=1', { token: otherToken });
    expect(res.body.loaded_modules.default_currency.code).toBe('USD');
    expect(res.body.loaded_modules.default_language.code).toBe('en');
  });
});
