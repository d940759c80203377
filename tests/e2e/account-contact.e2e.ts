/**
 * End to end in Chromium against the real server and a fresh database: a member changes the e-mail address
 * on /member/account/email with the code the outbox holds for the new address (the code step at …/otp
 * survives a reload), the old address is told, and the new address signs in; a member sets a wallet
 * password (in Spanish, dark scheme) and the payout page then asks for it instead of the account password.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, PASSWORD, readCode, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();
const NEW_EMAIL = 'dana.new@upline.example';
const WALLET_PASSWORD = 'Wallet-pass-2031';

/** Nothing on the page scrolls sideways. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('e-mail change', () => {
  test('with the code from the outbox, at 360 px; the old address is told and the new one signs in', async () => {
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await signIn(page);
    await page.goto('/member/account/email');
    await page.getByRole('heading', { name: 'E-mail address' }).waitFor();
    await page.getByText('Current address: demo@upline.example').waitFor();
    expect(await fitsWidth(page)).toBe(true);

    // A wrong account password: its message, and what was typed stays.
    const email = page.getByRole('textbox', { name: 'New e-mail address' });
    await email.fill(NEW_EMAIL);
    await page.getByLabel(/Account password/).fill('Not-my-pass-1');
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByText('The password is incorrect.').waitFor();
    expect(await email.inputValue()).toBe(NEW_EMAIL);

    const sent = app.server.outbox.length;
    await page.getByLabel(/Account password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.waitForURL('**/member/account/email/otp');
    await page.getByRole('heading', { name: 'Confirm your new e-mail address' }).waitFor();
    const code = await readCode(app.server, NEW_EMAIL, sent);
    expect(app.server.outbox.slice(sent).some((m) => m.destination === 'demo@upline.example')).toBe(false);

    // A reload keeps the flow at its code step.
    await page.reload();
    await page.getByRole('heading', { name: 'Confirm your new e-mail address' }).waitFor();
    expect(page.url()).toContain('/member/account/email/otp');
    expect(await fitsWidth(page)).toBe(true);

    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByRole('textbox', { name: 'Verification code' }).fill(wrong);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('This code is not correct.').waitFor();
    await page.getByRole('textbox', { name: 'Verification code' }).fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/member\/account\/email$/);
    await page.getByText(`Your e-mail address is now ${NEW_EMAIL}.`).waitFor();
    // The old address heard of it.
    await expect.poll(() => app.server.outbox.slice(sent).some((m) => m.destination === 'demo@upline.example' && /changed/.test(m.subject))).toBe(true);
    await context.close();

    // The new address signs in.
    const fresh = await newPage(app.browser, app.server);
    await fresh.page.goto('/login');
    const useEmail = fresh.page.getByText('E-mail', { exact: true }).first();
    await useEmail.click();
    await fresh.page.getByRole('textbox', { name: 'E-mail' }).fill(NEW_EMAIL);
    await fresh.page.getByRole('button', { name: 'Continue' }).click();
    await fresh.page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await fresh.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await fresh.page.locator('[data-shell="member"]').waitFor();
    expect(fresh.page.url()).toContain('/member/');
    await fresh.context.close();
  });
});

describe('wallet password', () => {
  test('set in Spanish and the dark scheme; the payout then takes the wallet password and refuses the account password', async () => {
    const { context, page } = await newPage(app.browser, app.server, { locale: 'es-ES', width: 360, height: 740 });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    // The Spanish sign-in page names its fields in Spanish.
    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Nombre de usuario' }).fill('demo');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
    await page.locator('[data-shell="member"]').waitFor();
    await page.goto('/member/account/wallet-password');
    // demo's saved language is English: the header's switch makes it Spanish.
    await page.getByRole('combobox', { name: 'Language' }).first().selectOption('es');
    await page.getByRole('heading', { name: 'Contraseña de la billetera' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    await page.getByText('Sin definir').waitFor();
    expect(await fitsWidth(page)).toBe(true);

    await page.getByLabel('Nueva contraseña de la billetera', { exact: true }).fill(WALLET_PASSWORD);
    await page.getByLabel('Confirma la nueva contraseña de la billetera', { exact: true }).fill(WALLET_PASSWORD);
    await page.getByLabel(/Contraseña de la cuenta/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Definir contraseña de la billetera' }).click();
    await page.getByText('Definida', { exact: true }).waitFor();
    await page.getByLabel('Contraseña actual de la billetera').waitFor();

    await page.goto('/member/wallet/request-payout');
    const amount = page.getByRole('textbox', { name: 'Importe' });
    await amount.fill('50');
    expect(await page.getByLabel('Contraseña de la cuenta').count()).toBe(0);
    const wallet = page.getByLabel('Contraseña de la billetera', { exact: true });
    await wallet.fill(PASSWORD);
    await page.getByRole('button', { name: 'Solicitar pago' }).click();
    await page.getByText('La contraseña no es correcta.').waitFor();
    expect(await amount.inputValue()).toBe('50');
    await wallet.fill(WALLET_PASSWORD);
    await page.getByRole('button', { name: 'Solicitar pago' }).click();
    await page.getByRole('heading', { name: 'Pago solicitado' }).waitFor();
    await context.close();

    const log = app.server.logs.join('\n');
    expect(log).toContain('/api/user/wallet_password');
    expect(log).not.toContain(WALLET_PASSWORD);
  });
});
