/**
 * End to end in Chromium, in Spanish: the request-demo form's countries, industries and plans are Spanish,
 * and the network and referral pages write dates as the wallet does.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { APP_KEY } from '../../src/api/call-common';
import { newPage, PASSWORD, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

async function api(method: 'POST' | 'PUT', path: string, body: object, token?: string) {
  const res = await fetch(new URL(path, app.server.url), {
    method,
    headers: { 'content-type': 'application/json', 'x-app-key': APP_KEY, accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: any } };
}

const optionsOf = (page: Page, label: RegExp) => page.getByRole('combobox', { name: label }).locator('option').allTextContents();

/** A date as the lists write it: a month's short name, the day, the year ("nov 24, 2026"). */
const DATE = /(?<month>\p{L}{3,5})\.? \d{1,2}, \d{4}/gu;
const ENGLISH_MONTH = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}/;
const monthsIn = (text: string) => [...text.matchAll(DATE)].map((m) => m.groups!.month);

describe('Spanish', () => {
  test('request demo: the countries, industries and plans are listed in Spanish', async () => {
    const { context, page } = await newPage(app.browser, app.server, { locale: 'es-ES' });
    await page.goto('/request-demo');
    await page.getByRole('heading', { name: 'Solicita una demostración' }).waitFor();
    await expect.poll(async () => (await optionsOf(page, /^País/)).length).toBeGreaterThan(5);
    const countries = await optionsOf(page, /^País/);
    expect(countries).toEqual(expect.arrayContaining(['Alemania', 'España', 'Estados Unidos']));
    expect(countries.filter((c) => ['Germany', 'Spain', 'United States'].includes(c))).toEqual([]);
    const industries = await optionsOf(page, /^Sector/);
    expect(industries).toEqual(expect.arrayContaining(['Salud y bienestar', 'Belleza y cuidado personal']));
    expect(industries.filter((i) => ['Health and wellness', 'Beauty and personal care', 'Nutrition and supplements'].includes(i))).toEqual([]);
    const plans = await optionsOf(page, /^Plan de compensación/);
    expect(plans).toEqual(expect.arrayContaining(['Binario', 'Matriz', 'Uninivel']));
    expect(plans.filter((p) => ['Binary', 'Matrix', 'Unilevel'].includes(p))).toEqual([]);
    await context.close();
  });

  test('the network and referral pages write dates as the wallet does', async () => {
    const login = await api('POST', '/api/auth/login', { login_using: 'username', username: 'demo', password: PASSWORD });
    expect((await api('PUT', '/api/user/preferences', { language: 'es' }, login.body.data.token)).status).toBe(200);
    // Signed in (the form in the browser's English), the member's own language takes over.
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);

    const datesOn = async (path: string, ready: () => Promise<unknown>) => {
      await page.goto(path);
      await ready();
      await expect.poll(async () => monthsIn(await page.locator('main').innerText()).length).toBeGreaterThan(0);
      const text = await page.locator('main').innerText();
      expect(text, path).not.toMatch(ENGLISH_MONTH);
      return monthsIn(text);
    };
    const wallet = await datesOn('/member/wallet/transactions', () => page.locator('[data-dense-row], [role="listitem"]').first().waitFor());
    // The wallet's style: the Spanish month, in lower case.
    for (const m of wallet) expect(m).toBe(m.toLocaleLowerCase('es'));
    const spanish = new Set(['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'sep', 'oct', 'nov', 'dic']);
    expect(wallet.every((m) => spanish.has(m))).toBe(true);

    for (const path of ['/member/referral/joinings', '/member/network/downline']) {
      const months = await datesOn(path, () => page.locator('main').getByText(/\p{L}{3,5}\.? \d{1,2}, \d{4}/u).first().waitFor());
      expect(months.every((m) => spanish.has(m)), `${path}: ${months.join(' ')}`).toBe(true);
    }
    await context.close();
  });
});
