/**
 * End to end in Chromium against the real server and a fresh database: a member keeps an address book on
 * /member/account/addresses. A new address shows in the book, an edit changes it, a delete removes it and the
 * toast's Undo brings it back; another member's address URL shows not found.
 */
import { describe, expect, test } from 'vitest';
import { APP_KEY } from '../../src/api/call-common';
import { newPage, PASSWORD, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

/** A call of the API as another member (admin), the way any client would make it. */
async function asAdmin(method: 'POST' | 'GET', path: string, body?: object, token?: string) {
  const res = await fetch(new URL(path, app.server.url), {
    method,
    headers: { 'content-type': 'application/json', 'x-app-key': APP_KEY, accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as { data: any } };
}

describe('address book', () => {
  test('create, see it in the book, edit, delete, and undo brings it back (at 360 px)', async () => {
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await signIn(page);
    await page.goto('/member/account/addresses');
    await page.getByRole('heading', { name: 'Addresses' }).waitFor();
    // The seeded addresses of demo.
    await page.getByText('1200 Lake Shore Drive').waitFor();
    expect(await page.locator('[data-address-id]').count()).toBe(2);
    // Cards fit the narrow screen: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await page.getByRole('link', { name: 'Add address' }).first().click();
    await page.getByRole('heading', { name: 'New address' }).waitFor();
    await page.getByRole('button', { name: 'Save address' }).click();
    expect(await page.getByText('This field is required.').count()).toBe(4);
    await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Lucía');
    await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Gómez');
    await page.getByRole('textbox', { name: 'Address', exact: true }).fill('Calle Mayor 10');
    await page.getByRole('textbox', { name: 'City', exact: true }).fill('Madrid');
    await page.getByRole('combobox', { name: 'Country' }).fill('Spa');
    await page.getByRole('option', { name: 'Spain' }).click();
    await page.getByRole('button', { name: 'Save address' }).click();

    await page.waitForURL('**/member/account/addresses');
    const card = page.locator('[data-address-id]', { hasText: 'Calle Mayor 10' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Madrid');
    expect(await card.textContent()).toContain('Spain');

    await page.getByRole('link', { name: 'Edit the address of Lucía Gómez' }).click();
    await page.getByRole('heading', { name: 'Edit address' }).waitFor();
    const city = page.getByRole('textbox', { name: 'City', exact: true });
    await expect.poll(() => city.inputValue()).toBe('Madrid');
    await city.fill('Sevilla');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.waitForURL('**/member/account/addresses');
    await page.locator('[data-address-id]', { hasText: 'Sevilla' }).waitFor();

    await page.getByRole('button', { name: 'Delete the address of Lucía Gómez' }).click();
    await page.getByRole('dialog', { name: 'Delete this address?' }).waitFor();
    await page.getByRole('button', { name: 'Delete address' }).click();
    await page.getByText('Deleted. You can undo this for a few seconds.').waitFor();
    await expect.poll(() => page.locator('[data-address-id]', { hasText: 'Calle Mayor 10' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Undo' }).click();
    await page.locator('[data-address-id]', { hasText: 'Calle Mayor 10' }).waitFor();
    await page.getByText('Restored.').waitFor();
    expect(await page.locator('[data-address-id]').count()).toBe(3);

    // Kept after a reload: the server restored it.
    await page.reload();
    await page.locator('[data-address-id]', { hasText: 'Sevilla' }).waitFor();
    await context.close();
  });

  test('another member’s address URL shows not found', async () => {
    const login = await asAdmin('POST', '/api/auth/login', { login_using: 'username', username: 'admin', password: PASSWORD });
    expect(login.status).toBe(200);
    const countries = await asAdmin('GET', '/api/auth/login_fields');
    const spain = (countries.body.data.countries as Array<{ id: number; name: string }>).find((c) => c.name === 'Spain')!;
    const theirs = await asAdmin('POST', '/api/user/addresses', { first_name: 'Company', address_1: 'Gran Vía 1', city: 'Madrid', country_id: spain.id }, login.body.data.token);
    expect(theirs.status).toBe(201);

    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto(`/member/account/addresses/${theirs.body.data.id}`);
    await page.getByText('Address not found').waitFor();
    expect(await page.getByText('Gran Vía 1').count()).toBe(0);
    await page.goto('/member/account/addresses/not-a-number');
    await page.getByText('Address not found').waitFor();
    await page.getByRole('link', { name: 'Back to addresses' }).click();
    await page.getByRole('heading', { name: 'Addresses' }).waitFor();
    await context.close();
  });
});
