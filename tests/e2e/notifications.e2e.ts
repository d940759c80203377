/**
 * The notifications page end to end in Chromium against the real server and a fresh database: a notification
 * opens what it is about, a marked one stays listed as read, the open tab and "All" are in the URL (a reload
 * keeps them) and Back returns to the previous choice without leaving the page.
 */
import { describe, expect, test } from 'vitest';
import { newPage, signIn as signInAs } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

async function signedIn(path: string) {
  const { context, page } = await newPage(app.browser, app.server);
  await signInAs(page);
  await page.waitForURL('**/member/home/dashboard');
  await page.goto(path);
  return { context, page };
}

describe('notifications', () => {
  test('an order notification opens that order; marked read it stays listed; a reload keeps "All" and the tab; Back returns to the previous choice', async () => {
    const { context, page } = await signedIn('/member/notifications');
    const firstOrder = page.locator('[data-notification="order"]').first();
    await firstOrder.waitFor();
    const link = firstOrder.getByRole('link').first();
    const invoice = (await link.textContent())!.trim();
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/member\/orders\/\d+$/);
    // At least 24 px tall, reachable from the keyboard.
    expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(24);
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**${href}`);
    await page.getByText(invoice).first().waitFor();
    await page.goBack();
    await page.waitForURL('**/member/notifications');

    // Marked read, the order stays on the page, shown as read.
    await page.getByRole('button', { name: `Mark as read: ${invoice}` }).click();
    const marked = page.locator('[data-notification="order"][data-read]', { hasText: invoice });
    await marked.waitFor();
    await marked.getByText('Read', { exact: true }).waitFor();

    // "All" lists it after a reload too.
    await page.getByRole('radiogroup', { name: 'Show' }).getByText('All', { exact: true }).click();
    await page.waitForURL(/show=all/);
    await page.getByRole('tab', { name: /Payouts/ }).click();
    await page.waitForURL(/tab=payouts/);
    await page.reload();
    await expect.poll(() => page.getByRole('tab', { name: /Payouts/ }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('radio', { name: 'All' }).isChecked()).toBe(true);
    await page.getByRole('tab', { name: /Orders/ }).click();
    await page.locator('[data-notification="order"][data-read]', { hasText: invoice }).waitFor();

    // Back: the previous tab, then the previous choice, on the same page.
    await page.goBack();
    await expect.poll(() => page.getByRole('tab', { name: /Payouts/ }).getAttribute('aria-selected')).toBe('true');
    await page.goBack();
    await page.goBack();
    await expect.poll(() => page.getByRole('radio', { name: 'Unread' }).isChecked()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/member/notifications');
    await expect.poll(() => page.locator('[data-notification="order"]', { hasText: invoice }).count()).toBe(0);
    await firstOrder.waitFor();
    await context.close();
  });
});
