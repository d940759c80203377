/**
 * End to end in Chromium against the real server and a fresh database: a member's CRM. A new lead shows
 * in the list and on the board, moves on the board by mouse and by keyboard (saved: a reload finds it
 * there), gets a note on its page; "New lead" opened again after a save is a fresh form that saves a second
 * lead; another member's lead is not found. Spanish, the dark scheme and a
 * 360 px phone.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { newPage, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

const column = (page: Page, status: string) => page.locator(`[data-column="${status}"]`);
const cardIn = (page: Page, status: string, name: string) => column(page, status).locator('[data-card-id]', { hasText: name });

/** Drags `handle` by mouse onto the top of `target`, in small steps (the library waits for a real move). */
async function dragByMouse(page: Page, handle: Locator, target: Locator) {
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 10, from.y + from.height / 2, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + 60, { steps: 20 });
  await page.waitForTimeout(200);
  await page.mouse.up();
}

describe('CRM leads', () => {
  test('create a lead, find it, move it on the board by mouse and by keyboard, add a note', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto('/member/crm');
    await page.waitForURL('**/member/crm/dashboard');

    await page.goto('/member/crm/leads');
    await page.getByRole('heading', { name: 'Leads' }).waitFor();
    await expect.poll(() => page.locator('[data-lead-id]').count()).toBeGreaterThan(10);

    await page.getByRole('link', { name: 'New lead' }).first().click();
    await page.getByRole('heading', { name: 'New lead' }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Elena Quintero');
    await page.getByRole('textbox', { name: 'Company', exact: true }).fill('Globex');
    await page.getByRole('textbox', { name: 'Estimated value', exact: true }).fill('1200.5');
    await page.getByRole('button', { name: 'Save lead' }).click();
    await page.waitForURL('**/member/crm/leads');

    // The search goes to the URL; Back undoes it.
    await page.getByRole('searchbox', { name: 'Search leads' }).fill('Quintero');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/member/crm/leads?q=Quintero');
    await expect.poll(() => page.locator('[data-lead-id]').count()).toBe(1);
    expect(await page.locator('[data-lead-id]').textContent()).toContain('$1,200.50');

    // The board: the new lead tops the "new" column.
    await page.locator('label.mantine-SegmentedControl-label', { hasText: /^Board$/ }).click();
    await page.waitForURL('**/member/crm/leads/board');
    await cardIn(page, 'new', 'Elena Quintero').waitFor();

    // By mouse: onto the "contacted" column.
    await dragByMouse(page, cardIn(page, 'new', 'Elena Quintero').locator('[data-handle]'), column(page, 'contacted'));
    await cardIn(page, 'contacted', 'Elena Quintero').waitFor();
    await page.getByText('Lead moved').first().waitFor();

    // By keyboard: space picks it up, the right arrow moves it to "qualified", space drops it.
    const handle = cardIn(page, 'contacted', 'Elena Quintero').locator('[data-handle]');
    await handle.focus();
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(300);
    await page.keyboard.press('Space');
    await cardIn(page, 'qualified', 'Elena Quintero').waitFor();
    await expect.poll(() => page.locator('[data-board-saving]').count()).toBe(0);

    // Saved: a reload finds it there.
    await page.reload();
    await cardIn(page, 'qualified', 'Elena Quintero').waitFor();

    // Its page: details and a note on the timeline.
    await cardIn(page, 'qualified', 'Elena Quintero').getByRole('link', { name: 'Elena Quintero' }).click();
    await page.getByRole('heading', { name: 'Elena Quintero' }).waitFor();
    await page.getByText('Qualified').first().waitFor();
    await page.getByRole('textbox', { name: 'New note' }).fill('Sent the catalogue.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('[data-timeline-kind="note"]', { hasText: 'Sent the catalogue.' }).waitFor();

    // Convert to a contact; the contact's page links back to the lead.
    await page.getByRole('button', { name: 'Convert to contact' }).click();
    await page.getByRole('link', { name: 'Open contact' }).click();
    await page.getByRole('heading', { name: 'Elena Quintero' }).waitFor();
    await page.getByRole('link', { name: 'Open the lead' }).waitFor();

    // Log a call with her.
    await page.goto('/member/crm/calls/new');
    await page.getByRole('heading', { name: 'Log a call' }).waitFor();
    await page.getByRole('combobox', { name: 'Contact' }).click();
    await page.getByRole('option', { name: 'Elena Quintero' }).click();
    await page.locator('input[type="date"]').fill('2026-11-20');
    await page.locator('input[type="time"]').fill('10:30');
    await page.getByRole('textbox', { name: 'Minutes' }).fill('12');
    await page.getByRole('textbox', { name: 'Notes' }).fill('Wants the starter pack.');
    await page.getByRole('button', { name: 'Save call' }).click();
    await page.waitForURL('**/member/crm/calls');
    await page.locator('[data-call-id]', { hasText: 'Wants the starter pack.' }).waitFor();

    // Schedule a meeting two days from now: the agenda lists upcoming meetings soonest first, a page at a time,
    // so it is on the first page whatever the date (the demo's meetings are on fixed days).
    const meetingDay = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await page.goto('/member/crm/meetings/new');
    await page.getByRole('heading', { name: 'Schedule a meeting' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Quintero kickoff');
    await page.locator('input[type="date"]').fill(meetingDay);
    await page.locator('input[type="time"]').fill('16:00');
    await page.getByRole('textbox', { name: 'Place' }).fill('Café Central');
    await page.getByRole('button', { name: 'Save meeting' }).click();
    await page.waitForURL('**/member/crm/meetings');
    await page.locator('[data-meeting-id]', { hasText: 'Quintero kickoff' }).waitFor();
    expect(await page.locator('[data-meeting-id]', { hasText: 'Quintero kickoff' }).textContent()).toContain(`${meetingDay} 16:00`);
    await context.close();
  }, 240_000);

  test('"New lead" opened again after saving one is a fresh form to type into, and saves the second lead', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    for (const name of ['Fresh Form One', 'Fresh Form Two']) {
      await page.goto('/member/crm/leads');
      await page.getByRole('heading', { name: 'Leads' }).waitFor();
      await page.getByRole('link', { name: 'New lead' }).first().click();
      await page.getByRole('heading', { name: 'New lead' }).waitFor();
      const nameBox = page.getByRole('textbox', { name: 'Name', exact: true });
      // Empty and typeable: nothing of the lead saved before.
      expect(await nameBox.isEditable()).toBe(true);
      expect(await nameBox.inputValue()).toBe('');
      await nameBox.fill(name, { timeout: 5_000 });
      await page.getByRole('button', { name: 'Save lead' }).click();
      await page.waitForURL('**/member/crm/leads');
      // Back on the list, the lead just saved is there (newest first) without a reload or a search.
      await expect.poll(() => page.locator('[data-lead-id]').first().textContent(), { timeout: 15_000 }).toContain(name);
    }
    await page.goto('/member/crm/leads?q=Fresh%20Form');
    await expect.poll(() => page.locator('[data-lead-id]').allTextContents()).toEqual([expect.stringContaining('Fresh Form Two'), expect.stringContaining('Fresh Form One')]);
    await context.close();
  }, 120_000);

  test('import contacts from CSV: the preview shows the failing rows and why; a clean file imports', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto('/member/crm/contacts/import');
    await page.getByRole('heading', { name: 'Import contacts' }).waitFor();
    const csv = (text: string) => ({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
    await page.locator('[data-csv-input]').setInputFiles(csv('Name,Email,City\nNora Vidal,nora@example.com,Lima\n,nobody@example.com,Quito\nTeo Paz,not-mail,Cusco\n'));
    await page.locator('[data-import-summary]').getByText('1 rows are ready; 2 need fixing.').waitFor();
    expect(await page.locator('[data-import-row="2"]').textContent()).toContain('Name: This field is required.');
    expect(await page.locator('[data-import-row="3"]').textContent()).toContain('E-mail: Enter a valid e-mail address.');
    expect(await page.getByRole('button', { name: 'Import 1 contacts' }).isDisabled()).toBe(true);

    await page.locator('[data-csv-input]').setInputFiles(csv('name,email,city\nNora Vidal,nora@example.com,Lima\nTeo Paz,teo@example.com,Cusco\n'));
    await page.getByRole('button', { name: 'Import 2 contacts' }).click();
    await page.getByText('2 contacts imported.').waitFor();
    await page.getByRole('link', { name: 'See your contacts' }).click();
    await page.locator('[data-contact-id]', { hasText: 'Teo Paz' }).waitFor();
    await context.close();
  }, 240_000);

  test('another member’s lead is not found; Spanish, the dark scheme and a 360 px phone', async () => {
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page, 'admin');
    // demo's first seeded lead is not admin's.
    await page.goto('/member/crm/leads/1?lng=es');
    await page.getByText('Prospecto no encontrado').waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');

    await page.goto('/member/crm/leads');
    await page.getByRole('heading', { name: 'Prospectos', exact: true }).waitFor();
    await page.getByText('Aún no tienes prospectos').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    await page.goto('/member/crm/leads/board');
    await page.getByRole('heading', { name: 'Tablero de ventas' }).waitFor();
    await page.getByRole('region', { name: /^Nuevo: 0 prospectos/ }).waitFor();
    // The columns scroll inside the board; the page itself does not scroll sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await context.close();
  }, 240_000);
});
