/**
 * The member shell and Home end to end in Chromium against the real server and a fresh database: every Home tab
 * shows the seeded member's own figures (checked against the API answer for the same token), language and currency
 * choices survive a reload, the phone layout has the bottom bar, a failing tab shows the error view and recovers on
 * retry, and the notifications badge matches the server's unread total.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { formatMoney } from '../../src/lib/money';
import type { Currency } from '../../src/schemas/common.schema';
import { newPage, signIn as signInAs, toPasswordStep } from './support/harness';
import { realAppForFile } from './support/suite';

const APP_KEY = 'upline-demo-key';
const VOLUME = { withoutSymbol: true, converted: true, decimals: 2 } as const;

const app = realAppForFile();

const shell = (page: Page) => page.locator('[data-shell="member"]');
const figure = (page: Page, label: string) => page.locator(`[data-figure="${label}"] [data-value]`);

async function signIn(opts: { width?: number; height?: number } = {}) {
  const { context, page } = await newPage(app.browser, app.server, opts);
  await signInAs(page);
  await page.waitForURL('**/member/home/dashboard');
  const token = await page.evaluate(() => localStorage.getItem('auth_token'));
  expect(token).toBeTruthy();
  return { context, page, token: token! };
}

/** The API's answer for this member, asked the way the app asks. */
async function api<T>(token: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ data: T; loaded_modules?: ModuleAnswer }> {
  const res = await fetch(`${app.server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${token}`,
      'X-App-Key': APP_KEY,
      'X-Requested-With': 'XMLHttpRequest',
      Accept: 'application/json',
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  expect(res.status, `${init.method ?? 'GET'} ${path}`).toBe(200);
  return (await res.json()) as { data: T; loaded_modules?: ModuleAnswer };
}

interface ModuleAnswer {
  currencies: Currency[];
  default_currency: Currency;
}

async function currencies(token: string): Promise<{ all: Currency[]; current: Currency }> {
  const { loaded_modules } = await api(token, '/api/user_data?load_modules=1');
  return { all: loaded_modules!.currencies, current: loaded_modules!.default_currency };
}

async function expectText(locator: ReturnType<Page['locator']>, text: string) {
  await expect.poll(async () => (await locator.first().textContent())?.trim(), { timeout: 10_000 }).toBe(text);
}

describe('Home tabs', () => {
  test('dashboard, binary, package and rank show the member’s own figures', async () => {
    const { context, page, token } = await signIn();
    const { current } = await currencies(token);
    const money = (v: string) => formatMoney(v, current);
    const volume = (v: string) => formatMoney(v, current, VOLUME);

    const { data: d } = await api<Record<string, string | null>>(token, '/api/home/dashboard');
    await expectText(figure(page, 'Wallet balance'), money(d.wallet_balance!));
    await expectText(figure(page, 'Total earnings'), money(d.total_earnings!));
    await expectText(figure(page, 'Total paid'), money(d.total_paid!));
    await expectText(figure(page, 'PV'), volume(d.pv!));
    await expectText(figure(page, 'TV'), volume(d.tv!));
    await expectText(figure(page, 'Current package'), d.package_name ?? 'No package yet');
    await expectText(figure(page, 'Current rank'), d.rank_name ?? 'No rank yet');
    // The referral link is the site's own signup page under the member's name, ready to share.
    await expect.poll(() => page.getByRole('textbox', { name: 'Referral link' }).inputValue()).toBe(`${app.server.url}/signup?referral=demo`);

    await page.getByRole('tab', { name: 'Binary' }).click();
    await page.waitForURL('**/member/home/binary');
    const { data: b } = await api<{ total_bonus: string; left_downline_count: number; right_downline_count: number; total_left: string }>(token, '/api/home/binary');
    await expectText(figure(page, 'Total binary bonus'), money(b.total_bonus));
    await expectText(figure(page, 'Left downline members'), String(b.left_downline_count));
    await expectText(figure(page, 'Right downline members'), String(b.right_downline_count));
    expect(b.left_downline_count + b.right_downline_count).toBeGreaterThan(100);
    await page.getByRole('row', { name: /Total/ }).getByText(volume(b.total_left), { exact: true }).waitFor();

    await page.getByRole('tab', { name: 'Package' }).click();
    await page.waitForURL('**/member/home/package');
    const { data: p } = await api<{ packages: { name: string; price: string; is_current: boolean }[] }>(token, '/api/home/packages');
    expect(p.packages.length).toBeGreaterThan(0);
    const currentPackage = p.packages.find((x) => x.is_current);
    await expectText(figure(page, 'Current package'), currentPackage?.name ?? 'No package yet');
    for (const pkg of p.packages) {
      await page.getByRole('row', { name: new RegExp(`^${pkg.name}\\b`) }).getByText(money(pkg.price), { exact: true }).waitFor();
    }

    await page.getByRole('tab', { name: 'Rank' }).click();
    await page.waitForURL('**/member/home/rank');
    const { data: r } = await api<{
      current_rank: { name: string; bonus: string } | null;
      rank_achievements: { name: string; bonus: string }[];
      higher_ranks: { name: string }[];
    }>(token, '/api/home/ranks');
    await expectText(figure(page, 'Current rank'), r.current_rank?.name ?? 'No rank yet');
    if (r.current_rank) await expectText(figure(page, 'Rank bonus'), money(r.current_rank.bonus));
    const achieved = page.getByRole('region', { name: 'Achieved ranks' });
    for (const a of r.rank_achievements) {
      await achieved.getByRole('row', { name: new RegExp(`^${a.name}\\b`) }).getByText(money(a.bonus), { exact: true }).waitFor();
    }
    for (const h of r.higher_ranks) await page.locator(`[data-rank="${h.name}"]`).waitFor();
    await context.close();
  });

  test('a tab whose call fails shows the server error view, and Retry recovers', async () => {
    const { context, page, token } = await signIn();
    let failing = true;
    let failed = 0;
    await page.route('**/api/home/binary*', async (route) => {
      if (!failing) return route.continue();
      failed += 1;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error_code: 'server_error', message: 'Injected failure', errors: {} }),
      });
    });
    await page.getByRole('tab', { name: 'Binary' }).click();
    await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    expect(failed).toBeGreaterThan(0);
    // The rest of the shell keeps working while the tab is in error.
    await expect(page.getByRole('tab', { name: 'Dashboard' }).isVisible()).resolves.toBe(true);

    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    const { data: b } = await api<{ left_downline_count: number }>(token, '/api/home/binary');
    await expectText(figure(page, 'Left downline members'), String(b.left_downline_count));
    await expect(page.getByRole('heading', { name: 'Something went wrong' }).count()).resolves.toBe(0);
    await context.close();
  });
});

describe('sign-in to the dashboard', () => {
  test('the member area\'s code arrives while the member signs in (from the first keystroke), before Sign in is pressed; the dashboard\'s calls go out once, alongside it', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    const scripts: string[] = [];
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/home/')) calls.push(path);
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    const onLogin = scripts.length;
    const submit = await toPasswordStep(page);
    await page.waitForLoadState('networkidle');
    // Before Sign in is pressed, the password step has fetched more code (the member area's).
    const beforeSubmit = scripts.length;
    expect(beforeSubmit).toBeGreaterThan(onLogin);
    await submit.click();
    await figure(page, 'Wallet balance').waitFor();
    await page.waitForLoadState('networkidle');
    // The member area's chunk came with the password step, not after the press.
    expect(scripts.slice(onLogin, beforeSubmit).some((s) => /member-area/.test(s)), scripts.join(', ')).toBe(true);
    expect(scripts.slice(beforeSubmit).some((s) => /member-area/.test(s)), scripts.join(', ')).toBe(false);
    // Each of the dashboard's calls was made once: the page took the answers asked ahead of it.
    for (const path of ['/api/home/dashboard', '/api/home/dashboard/extra', '/api/home/promotions']) {
      expect(calls.filter((c) => c === path), path).toHaveLength(1);
    }
    await context.close();
  });
});

describe('shell', () => {
  test('the notifications badge equals the unread total of the server', async () => {
    const { context, page, token } = await signIn();
    const { data: counts } = await api<{ total_count: number }>(token, '/api/home/notifications_count');
    expect(counts.total_count).toBeGreaterThan(0);
    const badge = page.getByRole('navigation', { name: 'Main menu' }).locator('[data-badge="notifications"]');
    await expectText(badge, counts.total_count > 99 ? '99+' : String(counts.total_count));
    await context.close();
  });

  test('at 375 px the bottom bar holds the main entries and More opens the full menu', async () => {
    const { context, page } = await signIn({ width: 375, height: 740 });
    const bar = page.getByRole('navigation', { name: 'Quick menu' });
    await bar.waitFor();
    const box = await bar.boundingBox();
    expect(box!.y + box!.height).toBeGreaterThan(700);
    await expect(bar.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).resolves.toBe('page');

    // No sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const mainMenu = page.getByRole('navigation', { name: 'Main menu' });
    // The full menu waits off-screen until More opens it.
    const offScreen = async () => {
      const b = await mainMenu.boundingBox();
      return !b || b.x + b.width <= 0;
    };
    expect(await offScreen()).toBe(true);
    await bar.getByRole('button', { name: 'More' }).click();
    await expect.poll(offScreen).toBe(false);
    await mainMenu.getByRole('link', { name: 'FAQs' }).waitFor({ state: 'visible' });
    await mainMenu.getByRole('link', { name: 'FAQs' }).click();
    await page.waitForURL('**/member/account/faqs');
    await page.getByRole('heading', { name: 'Frequently asked questions' }).first().waitFor();

    // At 360 px, in English and in Spanish, every label of the bar is shown whole.
    await page.setViewportSize({ width: 360, height: 740 });
    const cutLabels = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[data-bottom-bar] .upline-bottom-label')]
          .filter((el) => el.scrollWidth > el.clientWidth)
          .map((el) => el.textContent),
      );
    await expect.poll(cutLabels).toEqual([]);
    await page.evaluate(() => {
      localStorage.setItem('i18nextLng', 'es');
      document.cookie = 'i18next=es; path=/';
    });
    await page.reload();
    await page.getByRole('navigation', { name: 'Menú rápido' }).getByRole('link', { name: 'Inicio' }).waitFor();
    expect(await page.locator('[data-bottom-bar] .upline-bottom-label').count()).toBeGreaterThanOrEqual(6);
    await expect.poll(cutLabels).toEqual([]);
    // The home tabs, and the dashboard's own groups of tabs, each stay on one line at 360 px in Spanish (they
    // scroll sideways rather than wrap).
    await page.goto('/member/home/dashboard');
    await page.getByRole('tab').first().waitFor();
    await page.locator('[data-dashboard-group="detail"]').waitFor();
    const tabRows = await page
      .getByRole('tablist')
      .evaluateAll((lists) => lists.map((l) => new Set([...l.querySelectorAll('[role="tab"]')].map((e) => Math.round(e.getBoundingClientRect().top))).size));
    expect(tabRows).toEqual([1, 1, 1]);
    await context.close();
  });

  test('Spanish and another currency, chosen in the header, are still applied after a reload', async () => {
    const { context, page, token } = await signIn();
    const { all, current } = await currencies(token);
    const other = all.find((c) => c.code !== current.code && c.value !== current.value)!;
    expect(other).toBeTruthy();
    const { data: d } = await api<{ wallet_balance: string }>(token, '/api/home/dashboard');
    try {
      await expectText(figure(page, 'Wallet balance'), formatMoney(d.wallet_balance, current));

      await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
      await expectText(figure(page, 'Saldo de la billetera'), formatMoney(d.wallet_balance, current));
      await page.getByRole('tab', { name: 'Panel' }).waitFor();

      await page.getByRole('combobox', { name: 'Moneda' }).selectOption(other.code);
      const converted = formatMoney(d.wallet_balance, other);
      expect(converted).not.toBe(formatMoney(d.wallet_balance, current));
      await expectText(figure(page, 'Saldo de la billetera'), converted);
      // The server keeps the choice for the member.
      await expect.poll(async () => (await currencies(token)).current.code).toBe(other.code);

      await page.reload();
      await shell(page).waitFor();
      await expectText(figure(page, 'Saldo de la billetera'), converted);
      await page.getByRole('tab', { name: 'Panel' }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Moneda' }).inputValue()).toBe(other.code);
      expect(await page.getByRole('combobox', { name: 'Idioma' }).inputValue()).toBe('es');
      expect(await page.evaluate(() => document.documentElement.lang)).toMatch(/^es/);
    } finally {
      // Leave the member as it was for the other tests of this file.
      await api(token, '/api/user/preferences', { method: 'PUT', body: { language: 'en', currency: current.code } });
      await context.close();
    }
  });
});
