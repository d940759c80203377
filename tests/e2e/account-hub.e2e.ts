/**
 * End to end in Chromium against the real server and a fresh database: the account hub (/member/account)
 * shows the member and links every setting; the FAQs are searched with the search kept in the URL; the
 * personal data export downloads a JSON file about the member; and a member deletes their account (in
 * Spanish, on a 360 px phone, in the dark scheme), is signed out to /login, and can no longer sign in while
 * the upline still sees the anonymised member in the tree.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { APP_KEY } from '../../src/api/call-common';
import { newPage, PASSWORD, signIn, submitSignIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

/** A call of the API, the way any client would make it. */
async function api(method: 'POST' | 'GET' | 'PUT', path: string, body?: object, token?: string) {
  const res = await fetch(new URL(path, app.server.url), {
    method,
    headers: { 'content-type': 'application/json', 'x-app-key': APP_KEY, accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { data: any } };
}
const apiLogin = (username: string) => api('POST', '/api/auth/login', { login_using: 'username', username, password: PASSWORD });

describe('account hub', () => {
  test('shows the member, links the settings, searches the FAQs and downloads the personal data', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto('/member/account');
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    expect(await page.locator('[data-account-name]').innerText()).toBe('Dana Demo');
    await page.getByText('@demo').waitFor();
    await page.getByText(/^Member since /).waitFor();
    for (const [group, link, href] of [
      ['Security', 'Password', '/member/account/password'],
      ['Security', 'Two-factor sign-in', '/member/account/two-factor'],
      ['Profile', 'Addresses', '/member/account/addresses'],
      ['Preferences', 'Language', '/member/account/language'],
      ['Help', 'FAQs', '/member/account/faqs'],
    ]) {
      expect(await page.getByRole('region', { name: group }).getByRole('link', { name: link, exact: true }).getAttribute('href'), link).toBe(href);
    }
    // The intro video switch is off for the demo company: neither the hub nor the menu links it.
    expect(await page.getByRole('link', { name: 'Intro video' }).count()).toBe(0);

    // FAQs: search, the keyword in the URL, an answer opened by keyboard.
    await page.getByRole('region', { name: 'Help' }).getByRole('link', { name: 'FAQs', exact: true }).click();
    await page.getByRole('heading', { name: 'Frequently asked questions' }).waitFor();
    await page.getByRole('button', { name: 'How do I change my password?' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search questions' }).fill('payout');
    await page.getByRole('searchbox', { name: 'Search questions' }).press('Enter');
    await page.waitForURL(/\/member\/account\/faqs\?keyword=payout$/);
    await expect.poll(() => page.getByRole('button', { name: 'How do I change my password?' }).count()).toBe(0);
    const question = page.getByRole('button', { name: 'How do I request a payout?' });
    await question.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Requests are reviewed within two business days.').waitFor();
    // A reload opens the same search.
    await page.reload();
    await page.getByRole('button', { name: 'What is the minimum payout amount?' }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search questions' }).inputValue()).toBe('payout');

    // The personal data export.
    await page.goto('/member/account');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^upline-personal-data-demo-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(await readFile((await download.path())!, 'utf8'));
    expect(file.profile.username).toBe('demo');
    expect(file.addresses.length).toBeGreaterThan(0);
    expect(JSON.stringify(file)).not.toMatch(/password_hash|token_hash/);
    await page.getByText('Your data was downloaded.').first().waitFor();
    await context.close();
  });

  test('a member deletes the account on a phone, in Spanish and the dark scheme, and can no longer sign in', async () => {
    // A member of demo's first level, used by no other test; their language is Spanish.
    const demo = await apiLogin('demo');
    const team = await api('GET', '/api/users/sponsor_downlines?levels=1', undefined, demo.body.data.token);
    const member = (team.body.data as Array<{ username: string }>)[0].username;
    const own = await apiLogin(member);
    expect((await api('PUT', '/api/user/preferences', { language: 'es' }, own.body.data.token)).status).toBe(200);

    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page, member);
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await page.goto('/member/account');
    await page.getByRole('heading', { name: 'Cuenta', level: 1 }).waitFor();
    await page.getByText(`@${member}`).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await page.getByRole('link', { name: 'Eliminar la cuenta' }).click();
    await page.getByRole('heading', { name: 'Eliminar la cuenta', level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const confirmation = page.getByRole('textbox', { name: `Escribe tu usuario (${member}) para confirmar` });
    await confirmation.fill(member.slice(0, -1));
    await page.getByLabel('Contraseña de la cuenta').fill('No-es-mi-clave-1');
    await page.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await page.getByText('Escribe tu usuario exactamente como aparece.').waitFor();

    // A wrong password: refused on its field, nothing deleted.
    await confirmation.fill(member);
    await page.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await page.getByText('La contraseña no es correcta.').waitFor().catch(async (e: Error) => {
      throw new Error(`${e.message}\n${(await page.locator('main').innerText()).slice(0, 800)}`);
    });
    expect((await apiLogin(member)).status).toBe(200);

    await page.getByLabel('Contraseña de la cuenta').fill(PASSWORD);
    await page.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
    await page.waitForURL('**/login');
    await page.getByText('Tu cuenta se ha eliminado. Se ha cerrado la sesión.').first().waitFor();
    await context.close();

    // Signing in again fails, and the upline's tree still shows the member's place, anonymised.
    const again = await newPage(app.browser, app.server);
    await again.page.goto('/login');
    await submitSignIn(again.page, member);
    await again.page.getByText('The username or password is incorrect.').waitFor();
    await again.context.close();
    expect((await apiLogin(member)).status).toBe(422);
    const team2 = await api('GET', '/api/users/sponsor_downlines?levels=1', undefined, demo.body.data.token);
    expect(team2.status).toBe(200);
    expect(JSON.stringify(team2.body.data)).not.toContain(`"${member}"`);
    const tree = await api('GET', '/api/network/genealogy?is_nested=1', undefined, demo.body.data.token);
    expect(JSON.stringify(tree.body.data)).toMatch(/"deleted-\d+"/);
  });
});
