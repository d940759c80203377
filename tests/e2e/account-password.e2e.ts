/**
 * End to end in Chromium against the real server and a fresh database: a member changes the account password on
 * /member/account/password. A wrong current password is a message on that field and keeps what was typed; a change
 * signs out every other browser signed in before, and afterwards only the new password opens the account.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, PASSWORD, signIn, submitSignIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();
const NEW_PASSWORD = 'Brand-new-pass-2027';

async function openPasswordPage() {
  const { context, page } = await newPage(app.browser, app.server);
  await signIn(page);
  await page.goto('/member/account/password');
  await page.getByRole('heading', { name: 'Change password' }).waitFor();
  return { context, page };
}

async function fill(page: Page, current: string, password: string, confirmation = password) {
  await page.getByLabel('Current password', { exact: true }).fill(current);
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password', { exact: true }).fill(confirmation);
  await page.getByRole('button', { name: 'Change password' }).click();
}

describe('change password', () => {
  test('a wrong current password shows the field message and keeps what was typed', async () => {
    const { context, page } = await openPasswordPage();
    await fill(page, 'Not-my-pass-1', NEW_PASSWORD);
    await page.getByText('The password is incorrect.').waitFor();
    expect(await page.getByLabel('Current password', { exact: true }).inputValue()).toBe('Not-my-pass-1');
    expect(await page.getByLabel('New password', { exact: true }).inputValue()).toBe(NEW_PASSWORD);
    expect(await page.getByLabel('Confirm new password', { exact: true }).inputValue()).toBe(NEW_PASSWORD);
    await context.close();
  });

  test('a change signs other browsers out; afterwards the new password works and the old one does not', async () => {
    const other = await newPage(app.browser, app.server);
    await signIn(other.page);
    const { context, page } = await openPasswordPage();

    await fill(page, PASSWORD, NEW_PASSWORD);
    await page.getByText('Your password was changed. Other devices have been signed out.').first().waitFor();
    expect(await page.getByLabel('Current password', { exact: true }).inputValue()).toBe('');
    expect(await page.getByLabel('New password', { exact: true }).inputValue()).toBe('');

    // This browser stays signed in.
    await page.goto('/member/home/dashboard');
    await page.locator('[data-shell="member"]').waitFor();
    expect(page.url()).toContain('/member/home/dashboard');

    // The browser signed in before is signed out on its next call.
    await other.page.goto('/member/wallet/statement');
    await other.page.waitForURL('**/login');
    await other.context.close();
    await context.close();

    // Only the new password opens the account now.
    const fresh = await newPage(app.browser, app.server);
    await fresh.page.goto('/login');
    await submitSignIn(fresh.page, 'demo', PASSWORD);
    await fresh.page.getByText('The username or password is incorrect.').waitFor();
    await signIn(fresh.page, 'demo', NEW_PASSWORD);
    expect(fresh.page.url()).toContain('/member/');
    await fresh.context.close();

    const log = app.server.logs.join('\n');
    expect(log).toContain('/api/user/password');
    for (const secret of [NEW_PASSWORD, 'Not-my-pass-1']) expect(log).not.toContain(secret);
  });
});
