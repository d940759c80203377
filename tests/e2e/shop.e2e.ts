/**
 * End to end in Chromium against the real server and a fresh database: demo adds a product to the cart and
 * checks out with the e-wallet (the balance drops, the order is listed); then pays by card through the local
 * Stripe-compatible provider (declined card first, then the test card) and lands on the success page with the
 * order paid; in Spanish, the dark scheme and on a 360 px phone.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { APP_KEY } from '../../src/api/call-common';
import { newPage, PASSWORD, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

// The local provider's pages name 127.0.0.1, where the browser finds them.
const app = realAppForFile({ RATE_LIMIT_SCALE: '100', PAYMENTS_STUB_HOST: '127.0.0.1' });

async function api<T = any>(token: string, path: string): Promise<T> {
  const res = await fetch(new URL(path, app.server.url), { headers: { 'x-app-key': APP_KEY, accept: 'application/json', authorization: `Bearer ${token}` } });
  return ((await res.json()) as { data: T }).data;
}
const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('auth_token')?.replace(/^"|"$/g, '') ?? '');
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('shop', () => {
  test('add to cart and check out with the wallet: the balance drops and the order is listed', { timeout: 120_000 }, async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    const token = await tokenOf(page);
    const balance = async () => Number((await api<{ wallet_balance: string }>(token, '/api/wallet/statement')).wallet_balance);
    const before = await balance();
    expect(before).toBeGreaterThan(106.8);

    // The demo company as seeded (crm on): no orders/investments entry in the menu (spec §6), but My orders
    // leads to the shop.
    const loaded = await fetch(new URL('/api/auth_check?load_modules=1', app.server.url), {
      headers: { 'x-app-key': APP_KEY, accept: 'application/json', authorization: `Bearer ${token}` },
    }).then((r) => r.json() as Promise<{ loaded_modules: { modules: { crm: boolean; internal_store: boolean } } }>);
    expect(loaded.loaded_modules.modules).toMatchObject({ crm: true, internal_store: true });
    await page.goto('/member/orders');
    await page.getByRole('heading', { name: 'My orders' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Shop pages' });
    await nav.getByRole('link', { name: 'Shop' }).click();
    await page.waitForURL('**/member/shopping/products');
    await page.getByRole('heading', { name: 'Products' }).waitFor();
    expect(await page.locator('[data-shell="member"] nav').getByRole('link', { name: /^(Orders|Investments)$/ }).count()).toBe(0);

    await page.goto('/member/shopping/products?search=yoga');
    const card = page.locator('[data-product="FIT-MAT"]');
    await card.waitFor();
    expect(await page.locator('[data-product]').count()).toBe(1);
    await card.getByRole('button', { name: 'Add to cart: Non-slip yoga mat' }).click();
    await page.getByText('Added to your cart.').waitFor();

    await page.goto('/member/shopping/cart');
    await page.locator('[data-cart-line="FIT-MAT"]').waitFor();
    // demo's seeded lines are there too; remove one and restore it at once.
    await page.getByRole('button', { name: 'Remove Insulated steel bottle, 750 ml' }).click();
    await page.getByText('Insulated steel bottle, 750 ml was removed.').waitFor();
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.locator('[data-cart-line="HOM-BOTTLE"]').waitFor();
    // 2 × 24.90 + 22.00 + 35.00 = 106.80
    await expect.poll(() => page.locator('[data-cart-total]').textContent()).toContain('106.80');
    await page.getByRole('link', { name: 'Check out' }).click();

    await page.waitForURL('**/member/shopping/checkout');
    await page.getByRole('radio', { name: /1200 Lake Shore Drive/ }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('radio', { name: /E-wallet balance/ }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Wallet password').fill('Not-the-pass-1');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('The password is incorrect.').waitFor();
    await page.getByLabel('Wallet password').fill(PASSWORD);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.locator('[data-checkout-outcome="paid"]').waitFor();

    expect(await balance()).toBeCloseTo(before - 106.8, 2);
    const orders = await api<{ items: Array<{ id: number; total: string; status: string }> }>(token, '/api/orders/recent_orders');
    expect(orders.items[0]).toMatchObject({ status: 'processing' });
    expect(Number(orders.items[0].total)).toBeCloseTo(106.8, 2);

    await page.getByRole('link', { name: 'View order' }).click();
    await page.waitForURL(`**/member/orders/${orders.items[0].id}`);
    await page.getByText('Non-slip yoga mat').waitFor();
    // The cart is empty now.
    await page.goto('/member/shopping/cart');
    await page.getByText('Your cart is empty').waitFor();
    await context.close();
  });

  test('pay by card through the local provider, in Spanish, dark, at 360 px: declined, then paid; the success page shows the order', { timeout: 120_000 }, async () => {
    const { context, page } = await newPage(app.browser, app.server, { locale: 'es-ES', width: 360, height: 740 });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page, 'demo', PASSWORD).catch(async () => {
      // The Spanish sign-in page.
      await page.goto('/login');
      await page.getByRole('textbox', { name: 'Nombre de usuario' }).fill('demo');
      await page.getByRole('button', { name: 'Continuar' }).click();
      await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
      await page.locator('[data-shell="member"]').waitFor();
    });
    await page.goto('/member/shopping/products');
    await page.getByRole('combobox', { name: 'Language' }).first().selectOption('es');
    await page.getByRole('heading', { name: 'Productos' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    // Sold-out products cannot be added.
    await page.goto('/member/shopping/products?search=green%20tea');
    await page.locator('[data-product="NUT-TEA-20"]').getByRole('button', { name: /^Agotado: / }).waitFor();
    expect(await page.locator('[data-product="NUT-TEA-20"]').getByRole('button', { name: /^Agotado: / }).isDisabled()).toBe(true);
    await page.goto('/member/shopping/products?search=serum');
    await page.locator('[data-product="SKN-SERUM-30"]').getByRole('button', { name: /Añadir/ }).click();
    await page.getByText('Añadido a tu carrito.').waitFor();
    expect(await fitsWidth(page)).toBe(true);

    await page.goto('/member/shopping/checkout');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByRole('radio', { name: /Tarjeta/ }).check();
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('button', { name: 'Continuar al pago con tarjeta' }).click();

    // The provider's hosted page.
    await page.waitForURL(/\/pay\/cs_test_/);
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Your card was declined.').waitFor();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay / }).click();

    await page.waitForURL(/\/member\/payment\/stripe\/success\?session_id=cs_test_/);
    await page.locator('[data-card-payment="paid"]').waitFor();
    await page.getByText('Pago recibido').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('link', { name: 'Ver pedido' }).click();
    await page.waitForURL(/\/member\/orders\/\d+$/);
    const token = await tokenOf(page);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const order = await api<{ status: string; payment_method: string }>(token, `/api/orders/${id}`);
    expect(order).toMatchObject({ status: 'processing', payment_method: 'card' });
    await context.close();
  });
});
