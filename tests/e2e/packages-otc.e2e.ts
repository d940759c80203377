/**
 * End to end in Chromium against the real server and a fresh database: a member upgrades a package over the
 * counter (the request, the bank details and reference, the receipt upload), staff approve it with the operator
 * command, and the member's package and payment history change; demo renews its expired package from the
 * e-wallet in Spanish, in the dark scheme, on a 360 px phone.
 */
import { describe, expect, test } from 'vitest';
import sharp from 'sharp';
import { newPage, PASSWORD, runOperator, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();
const APP_KEY = 'upline-demo-key';

const headers = (token?: string) => ({
  'X-App-Key': APP_KEY,
  'X-Requested-With': 'XMLHttpRequest',
  Accept: 'application/json',
  'Content-Type': 'application/json',
  ...(token ? { Authorization: `Bearer ${token}` } : {}),
});
async function tokenFor(username: string): Promise<string> {
  const login = await fetch(`${app.server.url}/api/auth/login`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ login_using: 'username', username, password: PASSWORD }),
  });
  return ((await login.json()) as { data: { token: string } }).data.token;
}
async function get<T>(token: string, path: string): Promise<T> {
  return ((await (await fetch(`${app.server.url}${path}`, { headers: headers(token) })).json()) as { data: T }).data;
}

interface RankFigures {
  name: string;
  requirements: Array<{ key: string; value: string }>;
}
interface Ranks {
  current_rank: { name: string } | null;
  rank_achievements: RankFigures[];
  higher_ranks: RankFigures[];
  criteria_achieved: { figures: Array<{ key: string; value: string }> };
}

/**
 * A member of demo's team holding the Starter package (every seeded member has the seed password) whom the
 * upgrade to Elite lifts to a higher rank, with that rank worked out by hand from the member's figures: the
 * upgrade adds its PV difference (Elite 400 − Starter 50 = 350) to the buyer's PV (its legs stay as they are),
 * and the rank is the highest of the binary plan whose criteria — active recruits, PV, each leg's volume — are all met.
 */
async function starterMemberRankingUp(): Promise<{ username: string; before: string; after: string }> {
  const res = await fetch(`${app.server.url}/api/network/genealogy`, { headers: headers(await tokenFor('demo')) });
  const names: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if ((o.package_name === 'Starter' || o.package_id === 1) && typeof o.username === 'string' && o.status === 1 && o.username !== 'demo') names.push(o.username);
      Object.values(o).forEach(walk);
    }
  };
  walk(await res.json());
  expect(names.length).toBeGreaterThan(0);
  for (const username of names.slice(0, 40)) {
    const token = await tokenFor(username);
    const ranks = await get<Ranks>(token, '/api/home/ranks');
    const pkgs = await get<{ packages: Array<{ name: string; pv_difference: string }> }>(token, '/api/home/packages');
    const added = Number(pkgs.packages.find((p) => p.name === 'Elite')!.pv_difference);
    expect(added).toBe(350);
    const have = new Map(ranks.criteria_achieved.figures.map((f) => [f.key, Number(f.value) + (f.key === 'pv' || f.key === 'tv' ? added : 0)]));
    const met = [...ranks.rank_achievements, ...ranks.higher_ranks].filter((r) => r.requirements.every((q) => (have.get(q.key) ?? 0) >= Number(q.value)));
    const reached = ranks.higher_ranks.filter((r) => met.includes(r)).at(-1);
    if (reached) return { username, before: ranks.current_rank?.name ?? 'No rank yet', after: reached.name };
  }
  throw new Error(`no Starter member of demo's team reaches a new rank by the upgrade: ${names.slice(0, 40).join(', ')}`);
}

describe('packages and over-the-counter payments', () => {
  test('upgrade over the counter with a receipt; staff approve; the package changes', async () => {
    const { username, before, after } = await starterMemberRankingUp();
    expect(after).not.toBe(before);
    const { context, page } = await newPage(app.browser, app.server);
    // The demo company as seeded (crm on): the Home package tab leads to the packages.
    await signIn(page, username, PASSWORD);
    await page.goto('/member/home/rank');
    const currentRank = (p: typeof page) => p.locator('[data-figure="Current rank"] [data-value]');
    await expect.poll(() => currentRank(page).textContent(), { timeout: 30_000 }).toBe(before);
    await page.goto('/member/home/package');
    await page.getByRole('link', { name: 'Upgrade or renew your package' }).click();
    await page.waitForURL('**/member/packages/payment');
    await page.getByRole('heading', { name: 'Packages' }).waitFor();
    await page.locator('[data-package="Elite"]').getByRole('button', { name: 'Upgrade' }).click();
    await page.locator('[data-purchase-kind="upgrade"]').getByText('Starter → Elite').waitFor();
    await page.getByText('To pay: $400.00').waitFor();
    await page.getByRole('button', { name: 'Over the counter' }).click();

    await page.waitForURL(/\/member\/otc\/request-payment\?purpose=package&ref_id=\d+/);
    await page.getByRole('button', { name: 'Get payment details' }).click();
    const details = page.locator('[data-otc-reference]');
    await details.waitFor();
    const reference = (await details.getAttribute('data-otc-reference'))!;
    expect(reference).toMatch(/^OTC-/);
    await details.getByText('$400.00').waitFor();

    await page.getByRole('link', { name: 'I have paid: send the receipt' }).click();
    await page.waitForURL(/\/member\/otc\/make-payment\?id=\d+/);
    await page.getByRole('textbox', { name: 'Bank transaction reference' }).fill('FCB-55120');
    const slip = await sharp({ create: { width: 200, height: 120, channels: 3, background: { r: 230, g: 230, b: 210 } } }).png().toBuffer();
    await page.locator('input[type="file"]').setInputFiles({ name: 'slip.png', mimeType: 'image/png', buffer: slip });
    await page.getByRole('button', { name: 'Send receipt' }).click();
    await page.locator('[data-otc-status="submitted"]').waitFor();
    await context.close();

    const open = await runOperator(app.server, ['otc', 'list', '--status', 'submitted']);
    expect(open.code, open.stderr).toBe(0);
    const line = open.stdout.split('\n').find((l) => l.includes(reference));
    expect(line, open.stdout).toBeTruthy();
    const approved = await runOperator(app.server, ['otc', 'approve', line!.split('\t')[0]]);
    expect(approved.code, approved.stderr).toBe(0);
    const twice = await runOperator(app.server, ['otc', 'approve', line!.split('\t')[0]]);
    expect(twice.code).toBe(1);

    const again = await newPage(app.browser, app.server);
    await signIn(again.page, username, PASSWORD);
    await again.page.goto('/member/otc/payment-history');
    await again.page.locator('[data-otc-status="approved"]').first().waitFor();
    await again.page.goto('/member/home/package');
    await again.page.locator('[data-package]').filter({ hasText: 'Elite' }).getByText('Current').waitFor();
    // The rank the upgrade reached, on the rank tab: the current rank, and among the achieved ones.
    await again.page.goto('/member/home/rank');
    await expect.poll(() => currentRank(again.page).textContent(), { timeout: 30_000 }).toBe(after);
    await again.page.getByRole('rowheader', { name: after }).waitFor();
    await again.context.close();
  }, 240_000);

  test('renew by e-wallet in Spanish, dark, at 360 px', async () => {
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page, 'demo', PASSWORD);
    await page.goto('/member/packages/payment?lng=es');
    await page.getByRole('heading', { name: 'Paquetes' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await page.locator('[data-package="Elite"]').getByRole('button', { name: 'Renovar' }).click();
    await page.getByRole('button', { name: /Monedero/ }).click();
    await page.getByLabel('Contraseña de la cuenta').fill('not-the-password');
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.locator('.mantine-InputWrapper-error').first().waitFor();
    await page.getByLabel('Contraseña de la cuenta').fill(PASSWORD);
    await page.getByRole('button', { name: /^Pagar/ }).click();
    await page.locator('[data-package-status="paid"]').waitFor();
    await page.getByText('Pago recibido').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole('link', { name: 'Ver el pedido' }).click();
    await page.waitForURL(/\/member\/orders\/\d+/);
    await context.close();
  }, 240_000);
});
