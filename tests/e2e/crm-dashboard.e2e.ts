/**
 * End to end in Chromium against the real server and a fresh database: the CRM dashboard shows a follow-up
 * the test set for today and a meeting it scheduled with two invitees (picked in the meeting form's
 * multi-select: its new lead and a contact), each linking to its record; the analytics' chart switches to its
 * table, whose figure for this month grew by the lead the test added; the sales per month's table shows the
 * server's totals; on a 360 px phone /member/crm/index lists every CRM area, with sales and invoices counted.
 */
import type { Page, Response } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { CrmAnalytics } from '../../src/schemas/crm-dashboard.schema';
import { newPage, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

const isAnalytics = (r: Response) => r.url().includes('/api/crm/analytics') && r.request().method() === 'GET';
/** Opens the analytics for three months and answers the server's figures. */
async function openAnalytics(page: Page): Promise<CrmAnalytics> {
  const answer = page.waitForResponse(isAnalytics);
  await page.goto('/member/crm/dashboard/analytics?period=3m');
  return ((await (await answer).json()) as { data: CrmAnalytics }).data;
}

async function newLead(page: Page, name: string, followUp: string) {
  await page.goto('/member/crm/leads/new');
  await page.getByRole('heading', { name: 'New lead' }).waitFor();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.locator('input[type="date"]').fill(followUp);
  await page.getByRole('button', { name: 'Save lead' }).click();
  await page.waitForURL('**/member/crm/leads');
}

describe('CRM dashboard', () => {
  test('a follow-up due today, a meeting with two invitees, the analytics table, the phone hub', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
    const month = today.slice(0, 7);
    const before = await openAnalytics(page);
    await page.locator('[data-crm-analytics="3m"]').waitFor();

    await newLead(page, 'Dora Dashboard', today);

    // A meeting today inviting both, picked in the searchable multi-select.
    await page.goto('/member/crm/meetings/new');
    await page.getByRole('heading', { name: 'Schedule a meeting' }).waitFor();
    await page.getByRole('textbox', { name: 'Title' }).fill('Two-guest review');
    const invitees = page.getByRole('combobox', { name: 'Invitees' });
    await invitees.click();
    await invitees.fill('Dora');
    await page.getByRole('option', { name: 'Dora Dashboard' }).click();
    // And one of the seeded contacts (the contacts come first in the list).
    await invitees.fill('a');
    const contact = page.locator('[role="option"]:visible').first();
    const contactName = (await contact.textContent())!.trim();
    await contact.click();
    await page.locator('input[type="date"]').fill(today);
    await page.locator('input[type="time"]').fill('23:30');
    await page.getByRole('button', { name: 'Save meeting' }).click();
    await page.waitForURL('**/member/crm/meetings');

    // The dashboard (the CRM's base goes there).
    await page.goto('/member/crm');
    await page.waitForURL('**/member/crm/dashboard');
    const followUps = page.getByRole('region', { name: 'Follow-ups' });
    await followUps.getByRole('link', { name: 'Dora Dashboard' }).waitFor();
    const meeting = page.locator('[data-dashboard-meeting]', { hasText: 'Two-guest review' });
    await meeting.waitFor();
    expect(await meeting.getAttribute('data-dashboard-meeting')).toMatch(/^\d+$/);
    expect(await meeting.locator('[data-invitees]').getAttribute('data-invitees')).toBe('2');
    expect(await meeting.getByRole('link', { name: contactName }).getAttribute('href')).toMatch(/\/member\/crm\/contacts\/\d+$/);
    const dora = meeting.getByRole('link', { name: 'Dora Dashboard' });
    expect(await dora.getAttribute('href')).toMatch(/\/member\/crm\/leads\/\d+$/);
    await dora.click();
    await page.getByRole('heading', { name: 'Dora Dashboard' }).waitFor();
    // The lead's timeline shows the meeting.
    await page.getByText(/Two-guest review/).first().waitFor();

    // Analytics: the chart, then its table with this month's figure grown by the lead.
    const after = await openAnalytics(page);
    const website = (a: CrmAnalytics) => a.leads_by_source.find((r) => r.month === month)!.values.website;
    expect(website(after)).toBe(website(before) + 1);
    const bySource = page.getByRole('region', { name: 'Leads by source' });
    await bySource.locator('[data-chart] .recharts-surface').first().waitFor();
    await bySource.locator('label.mantine-SegmentedControl-label', { hasText: /^Table$/ }).click();
    const row = bySource.locator('[data-chart-table] tbody tr').last();
    expect(await row.locator('td').first().textContent()).toBe(String(website(after)));
    // Sales per month (the demo's seeded sales): the table's months and totals are the server's, exactly.
    const sales = page.getByRole('region', { name: 'Sales per month' });
    await sales.locator('[data-chart] .recharts-surface').first().waitFor();
    await sales.locator('label.mantine-SegmentedControl-label', { hasText: /^Table$/ }).click();
    const totals = await sales.locator('[data-chart-table] tbody tr td').allTextContents();
    expect(totals.map((x) => x.replace(/[$,]/g, ''))).toEqual(after.sales_per_month.map((m) => m.total));
    expect(after.sales_per_month.some((m) => m.count > 0)).toBe(true);
    await context.close();

    // On a 360 px phone the hub lists every area.
    const phone = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await signIn(phone.page);
    await phone.page.goto('/member/crm/index');
    const nav = phone.page.getByRole('navigation', { name: 'CRM' });
    await nav.waitFor();
    for (const area of ['Dashboard', 'Analytics', 'Leads', 'Contacts', 'Sales', 'Invoices', 'Meetings', 'Calls'])
      expect(await nav.getByRole('link', { name: new RegExp(`^${area}`) }).count(), area).toBe(1);
    await nav.locator('[data-hub-area="leads"] .mantine-Badge-root').waitFor();
    for (const area of ['sales', 'invoices']) expect(Number(await nav.locator(`[data-hub-area="${area}"] .mantine-Badge-root`).textContent()), area).toBeGreaterThan(0);
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await phone.context.close();
  }, 240_000);
});
