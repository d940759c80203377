/**
 * End to end in Chromium against the real server and a fresh database: a member turns on two-factor sign-in on
 * /member/account/two-factor with the key shown there (codes generated here with otplib, as an authenticator app
 * would), saves the recovery codes, signs out, and signs in again with the password and a code at
 * /login/two-factor; a wrong code is refused on that step. Then in Spanish, in the dark scheme, a recovery code
 * signs in, and the member turns it off. All at 360 px.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { generate } from 'otplib';
import { APP_KEY } from '../../src/api/call-common';
import { PASSWORD } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();
const PHONE = { width: 360, height: 760 };

async function api(method: 'POST' | 'GET', path: string, body?: object, token?: string) {
  const res = await fetch(new URL(path, app.server.url), {
    method,
    headers: { 'content-type': 'application/json', 'x-app-key': APP_KEY, accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { data: any } };
}

/** A seeded member of demo's downline (not one the other files sign in as). */
async function someMember(): Promise<string> {
  const login = await api('POST', '/api/auth/login', { login_using: 'username', username: 'demo', password: PASSWORD });
  const tree = await api('GET', '/api/network/table_view', undefined, login.body.data.token);
  const names: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.username === 'string') names.push(o.username);
      Object.values(o).forEach(walk);
    }
  };
  walk(tree.body.data);
  const name = names.find((n) => !['demo', 'admin', 'blocked', 'demo.expired'].includes(n));
  if (!name) throw new Error(`no downline member in ${JSON.stringify(tree.body).slice(0, 200)}`);
  return name;
}

async function phonePage(opts: { locale?: string; dark?: boolean } = {}) {
  const context = await app.browser.newContext({ baseURL: app.server.url, viewport: PHONE, locale: opts.locale ?? 'en-US', colorScheme: opts.dark ? 'dark' : 'light' });
  // The scheme a member chose is remembered in a cookie, read before the first paint.
  if (opts.dark) await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
  const page = await context.newPage();
  return { context, page };
}

const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Both steps of /login with the labels of `lang`. */
async function passwordSteps(page: Page, username: string, lang: 'en' | 'es' = 'en') {
  const L = lang === 'en' ? { user: 'Username', next: 'Continue', pw: 'Password', go: 'Sign in' } : { user: 'Nombre de usuario', next: 'Continuar', pw: 'Contraseña', go: 'Iniciar sesión' };
  await page.goto('/login');
  await page.getByRole('textbox', { name: L.user }).fill(username);
  await page.getByRole('button', { name: L.next }).click();
  await page.waitForURL('**/login/continue');
  await page.getByLabel(L.pw, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: L.go, exact: true }).click();
}

/** No wider than the phone: nothing scrolls sideways. */
const fitsPhone = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('two-factor sign-in', () => {
  let username = '';
  let secret = '';
  let recovery: string[] = [];

  test('turn it on with the shown key, sign out, and sign in with the password and a code', async () => {
    username = await someMember();
    const { context, page } = await phonePage();
    await passwordSteps(page, username);
    await page.locator('[data-shell="member"]').waitFor();

    await page.goto('/member/account/two-factor');
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    expect(await page.locator('[data-two-factor-status]').getAttribute('data-two-factor-status')).toBe('off');
    await page.getByRole('button', { name: 'Turn on' }).click();
    // The password first: a wrong one is refused on its field.
    await page.getByLabel('Account password').fill('Not-my-pass-1');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('The password is incorrect.').waitFor();
    await page.getByLabel('Account password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.getByRole('img', { name: 'QR code to add this account to an authenticator app' }).waitFor();
    secret = (await page.locator('[data-two-factor-secret]').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await fitsPhone(page)).toBe(true);
    await page.screenshot({ path: '/tmp/two-factor-scan.png', fullPage: true });

    // A wrong first code keeps it off, and what was typed stays.
    await page.getByLabel('6-digit code from the app').fill('000000' === (await codeAt(secret)) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByText('This code is not correct, or it was already used.').waitFor();
    await page.getByLabel('6-digit code from the app').fill(await codeAt(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();

    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    recovery = await page.locator('[data-recovery-codes] li').allInnerTexts();
    expect(recovery).toHaveLength(10);
    await page.getByRole('button', { name: 'Download' }).waitFor();
    await page.getByRole('button', { name: 'Copy codes' }).waitFor();
    expect(await fitsPhone(page)).toBe(true);
    await page.screenshot({ path: '/tmp/two-factor-codes.png', fullPage: true });
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.locator('[data-two-factor-status="on"]').waitFor();
    await page.getByText('10 unused recovery codes left.').waitFor();
    // Shown once: the codes are not on the page any more, nor after a reload.
    await page.reload();
    await page.locator('[data-two-factor-status="on"]').waitFor();
    expect(await page.locator('[data-recovery-codes]').count()).toBe(0);

    // Sign out, then in: the password alone does not open the account.
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL('**/login');
    await passwordSteps(page, username);
    await page.waitForURL('**/login/two-factor');
    const codeField = page.getByLabel('Authentication code');
    await codeField.waitFor();
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await codeField.getAttribute('inputmode')).toBe('numeric');
    // A reload keeps the step.
    await page.reload();
    await codeField.waitFor();
    expect(page.url()).toContain('/login/two-factor');
    expect(await page.locator('[data-shell="member"]').count()).toBe(0);

    // The code that turned it on was used: it is refused, and what was typed stays.
    await codeField.fill(await codeAt(secret, 0));
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.getByText('This code is not correct, or it was already used.').waitFor();
    expect(await codeField.inputValue()).toBe(await codeAt(secret, 0));
    await page.screenshot({ path: '/tmp/two-factor-login.png', fullPage: true });
    await codeField.fill(await codeAt(secret, 1));
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.locator('[data-shell="member"]').waitFor();
    expect(page.url()).toContain('/member/');
    await context.close();

    const log = app.server.logs.join('\n');
    expect(log).not.toContain(secret);
    for (const c of recovery) expect(log).not.toContain(c);
  });

  test('in Spanish and the dark scheme: a recovery code signs in, then it is turned off', async () => {
    expect(recovery).toHaveLength(10);
    const { context, page } = await phonePage({ locale: 'es-ES', dark: true });
    await passwordSteps(page, username, 'es');
    await page.waitForURL('**/login/two-factor');
    await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
    await page.getByLabel('Código de recuperación').fill(recovery[0].toLowerCase());
    await page.getByRole('button', { name: 'Verificar e iniciar sesión' }).click();
    await page.locator('[data-shell="member"]').waitFor();
    // Signed in, the member's own language applies (English): the header's switch makes it Spanish.
    await page.goto('/member/account/two-factor');
    await page.getByRole('combobox', { name: 'Language' }).selectOption('es');
    await page.locator('[data-two-factor-status="on"]').waitFor();
    await page.getByRole('heading', { name: 'Verificación en dos pasos' }).waitFor();
    await page.screenshot({ path: '/tmp/two-factor-on-es.png', fullPage: true });
    await page.getByText('Te quedan 9 códigos de recuperación sin usar.').waitFor();
    expect(await fitsPhone(page)).toBe(true);
    await page.getByRole('button', { name: 'Desactivar' }).click();
    await page.getByLabel('Contraseña de la cuenta').fill(PASSWORD);
    await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
    // A used recovery code is refused.
    await page.getByLabel('Código de recuperación').fill(recovery[0]);
    await page.getByRole('button', { name: 'Desactivar' }).click();
    await page.getByText('Este código de recuperación no es correcto o ya se usó.').waitFor();
    await page.screenshot({ path: '/tmp/two-factor-off-es.png', fullPage: true });
    await page.getByLabel('Código de recuperación').fill(recovery[1]);
    await page.getByRole('button', { name: 'Desactivar' }).click();
    await page.locator('[data-two-factor-status="off"]').waitFor();
    await context.close();

    // Off again: the password alone signs in.
    const signIn = await api('POST', '/api/auth/login', { login_using: 'username', username, password: PASSWORD });
    expect(signIn.body.data.token).toEqual(expect.any(String));
  });
});
