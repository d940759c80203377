/**
 * End to end in Chromium against the real server and a fresh database: a member enters bank details (a
 * mistyped IBAN is refused on its field; the saved one shows by its last four), chooses bank transfer as
 * the payout method, requests a payout and sees where the money goes; turns the e-mail for new team
 * members off (a recruit's signup sends no e-mail) and on again (it does). Spanish, the dark scheme and a
 * 360 px phone.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, PASSWORD, signIn, type RunningServer } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();
const DEMO_EMAIL = 'demo@upline.example';

let recruits = 0;
/** A visitor signs up with demo as the sponsor (through the API, as the signup page would). */
async function recruitForDemo(page: Page) {
  recruits++;
  const res = await page.request.post('/api/users/signup', {
    headers: { 'X-App-Key': 'upline-demo-key', 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' },
    data: { referral: 'demo', first_name: 'Rita', last_name: `Recruit${recruits}`, email: `rita.${recruits}.${Date.now()}@example.org`, password: 'Signup-pass-1' },
  });
  expect(res.status()).toBe(200);
}

const teamMails = (server: RunningServer) => server.outbox.filter((m) => m.destination === DEMO_EMAIL && m.subject.startsWith('New member in your team')).length;

/** Until the save of a switch has answered. */
const saved = (page: Page) => page.waitForResponse((r) => r.url().includes('/api/user/notification_settings') && r.request().method() === 'PUT');

describe('bank details, payout method and a payout', () => {
  test('enter bank details, choose bank transfer, request a payout and see the method', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto('/member/account/bank');
    await page.getByRole('heading', { name: 'Bank details' }).waitFor();
    // The seeded account shows by its last four only.
    await page.getByText('•••• 3000').waitFor();
    expect(await page.content()).not.toContain('0532013000');

    await page.getByRole('textbox', { name: 'Country of the account' }).or(page.getByRole('combobox', { name: 'Country of the account' })).first().click();
    await page.getByRole('option', { name: 'United Kingdom' }).click();
    await page.getByLabel('IBAN', { exact: true }).fill('GB29 NWBK 6016 1331 9268 18');
    await page.getByLabel('SWIFT / BIC').fill('NWBKGB2L');
    await page.getByLabel('Bank name').fill('NatWest');
    await page.getByLabel('Account password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save bank details' }).click();
    await page.getByText("This IBAN's check digits do not match. Check it for a typing error.").waitFor();
    expect(await page.getByLabel('IBAN', { exact: true }).inputValue()).toBe('GB29 NWBK 6016 1331 9268 18');

    await page.getByLabel('IBAN', { exact: true }).fill('GB29 NWBK 6016 1331 9268 19');
    await page.getByRole('button', { name: 'Save bank details' }).click();
    await page.getByText('Your bank details were saved.').first().waitFor();
    await page.getByText('•••• 6819').waitFor();
    expect(await page.getByLabel('IBAN', { exact: true }).inputValue()).toBe('');

    await page.goto('/member/account/payout');
    await page.getByRole('heading', { name: 'Payout method' }).waitFor();
    await page.getByLabel('E-wallet').check();
    await page.getByLabel('Bank transfer').check();
    await page.getByLabel('Account password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save payout method' }).click();
    await page.getByText('Your payout method was saved.').first().waitFor();
    await page.locator('[data-payout-method-chosen="bank_transfer"]').getByText('NatWest •••• 6819').waitFor();

    await page.goto('/member/wallet/request-payout');
    const method = page.locator('[data-payout-method="bank_transfer"]');
    await method.getByText('NatWest •••• 6819').waitFor();
    expect(await method.getByText('Bank transfer').isVisible()).toBe(true);
    await page.getByRole('textbox', { name: 'Amount' }).fill('50');
    await page.getByLabel('Account password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Request payout' }).click();
    await page.getByRole('heading', { name: 'Payout requested' }).waitFor();
    await page.getByText('Sent by Bank transfer to NatWest •••• 6819.').waitFor();
    // No dead end: the request can be withdrawn at once, and the form comes back with the money returned.
    expect(await page.getByRole('button', { name: 'Request another payout' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel this request' }).click();
    await page.getByRole('button', { name: 'Cancel the request' }).click();
    await page.getByText('Request cancelled: the amount and the fee are back in your wallet.').first().waitFor();
    await page.getByRole('textbox', { name: 'Amount' }).waitFor();
    await page.goto('/member/wallet/recent-payouts');
    await page.getByText('Cancelled').first().waitFor();

    const log = app.server.logs.join('\n');
    expect(log).not.toContain('GB29NWBK60161331926819');
    await context.close();
  });
});

describe('notification settings', () => {
  test('the e-mail switch for new team members decides whether a recruit sends an e-mail', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto('/member/account/notification');
    await page.waitForURL('**/member/account/notification/email');
    const teamSwitch = page.getByRole('switch', { name: 'New member in my team' });
    expect(await teamSwitch.isChecked()).toBe(true);

    await recruitForDemo(page);
    await expect.poll(() => teamMails(app.server)).toBe(1);

    const off = saved(page);
    await teamSwitch.click({ force: true });
    await off;
    expect(await teamSwitch.isChecked()).toBe(false);
    await recruitForDemo(page);
    // The push notice still arrives (its switch is on) while no e-mail is sent.
    await page.goto('/member/account/notification/push');
    expect(await page.getByRole('switch', { name: 'New member in my team' }).isChecked()).toBe(true);
    expect(teamMails(app.server)).toBe(1);

    await page.getByRole('tab', { name: 'E-mail' }).click();
    await page.waitForURL('**/member/account/notification/email');
    const again = page.getByRole('switch', { name: 'New member in my team' });
    expect(await again.isChecked()).toBe(false);
    const on = saved(page);
    await again.click({ force: true });
    await on;
    await recruitForDemo(page);
    await expect.poll(() => teamMails(app.server)).toBe(2);

    await page.goto('/member/notifications');
    await page.getByRole('tab', { name: /Notices/ }).click();
    await page.getByText(/^New member in your team: Rita Recruit/).first().waitFor();
    await context.close();
  });
});

describe('in Spanish, dark, on a 360 px phone', () => {
  test('the bank, payout and notification pages fit and read in Spanish', async () => {
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page);
    // Spanish from here on (the language is read from ?lng= and remembered).
    await page.goto('/member/account/bank?lng=es');
    for (const [path, heading] of [
      ['/member/account/bank', 'Datos bancarios'],
      ['/member/account/payout', 'Método de pago'],
      ['/member/account/notification/email', 'Notificaciones'],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await page.getByRole('switch', { name: 'Nuevo miembro en mi equipo' }).waitFor();
    await context.close();
  });
});
