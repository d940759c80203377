/**
 * End to end in Chromium against the real server and a fresh database: demo writes to a member of its team
 * on a 360 px phone (recipient search, rich text, a PDF attached), that member signs in, sees the message
 * unread, reads it (the notifications badge drops), downloads the file and replies; demo reads the reply.
 * The inbox in Spanish with the dark scheme: a message to the bin and back with Undo.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, PASSWORD, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

const badge = (page: Page) => page.getByRole('navigation', { name: 'Main menu' }).locator('[data-badge="notifications"]').first();
const badgeCount = async (page: Page) => Number((await badge(page).textContent({ timeout: 2_000 }).catch(() => '0'))?.trim() || '0');

describe('mail', () => {
  test('compose to a team member with a file, who reads it (badge drops), downloads it and replies', async () => {
    // Demo writes on a phone.
    const demo = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await signIn(demo.page);
    await demo.page.goto('/member/mail/compose');
    await demo.page.getByRole('heading', { name: 'New message' }).waitFor();
    const picker = demo.page.locator('input[aria-haspopup="listbox"]');
    await picker.click();
    await picker.fill('a');
    const option = demo.page.getByRole('option', { name: /· your team/ }).first();
    await option.waitFor();
    const label = (await option.textContent())!;
    const username = /\(([^)]+)\)/.exec(label)![1];
    await option.click();
    await demo.page.getByRole('textbox', { name: 'Subject' }).fill('Training plan for December');
    const editor = demo.page.locator('[data-mail-editor]');
    await editor.click();
    await demo.page.keyboard.type('Hello! The plan is attached.');
    await demo.page.locator('[data-attachments-input]').setInputFiles([{ name: 'plan.pdf', mimeType: 'application/pdf', buffer: PDF }]);
    await demo.page.locator('[data-chosen-file]').waitFor();
    expect(await demo.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await demo.page.getByRole('button', { name: 'Send', exact: true }).click();
    await demo.page.waitForURL('**/member/mail/conversation/*');
    await demo.page.getByRole('heading', { name: 'Training plan for December' }).waitFor();
    const thread = demo.page.url().split('/').pop();

    // The member of the team reads it.
    const member = await newPage(app.browser, app.server);
    await signIn(member.page, username, PASSWORD);
    await member.page.goto('/member/mail/inbox');
    const row = member.page.locator('[data-mail-row][data-unread]').filter({ hasText: 'Training plan for December' });
    await row.waitFor();
    await expect.poll(() => badgeCount(member.page), { timeout: 10_000 }).toBeGreaterThan(0);
    const before = await badgeCount(member.page);
    await row.getByRole('link').click();
    await member.page.waitForURL(`**/member/mail/conversation/${thread}`);
    await member.page.getByText('Hello! The plan is attached.').waitFor();
    await expect.poll(() => badgeCount(member.page), { timeout: 10_000 }).toBeLessThan(before);

    const download = member.page.waitForEvent('download');
    await member.page.getByRole('button', { name: 'Download plan.pdf' }).click();
    expect((await download).suggestedFilename()).toBe('plan.pdf');

    await member.page.locator('[data-mail-editor]').click();
    await member.page.keyboard.type('Thank you, I will read it tonight.');
    await member.page.getByRole('button', { name: 'Send reply' }).click();
    await member.page.getByText('Your reply was sent.').first().waitFor();
    await expect.poll(() => member.page.locator('article[data-message]').count()).toBe(2);

    // Demo sees the answer in the thread, after its own message.
    await demo.page.goto(`/member/mail/conversation/${thread}`);
    await demo.page.getByText('Thank you, I will read it tonight.').waitFor();
    const texts = await demo.page.locator('article[data-message]').allTextContents();
    expect(texts[0]).toContain('The plan is attached.');
    expect(texts[1]).toContain('I will read it tonight.');
    await member.context.close();
    await demo.context.close();
  }, 240_000);

  test('in Spanish with the dark scheme: a message goes to the bin and comes back with Undo', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page);
    await page.goto('/member/mail/inbox?lng=es');
    await page.getByRole('tab', { name: 'Recibidos' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    const first = page.locator('[data-mail-row]').first();
    await first.waitFor();
    const id = await first.getAttribute('data-mail-row');
    await first.locator('[data-bin]').click();
    await page.getByText('Movido a la papelera.').waitFor();
    await expect.poll(() => page.locator(`[data-mail-row="${id}"]`).count()).toBe(0);
    await page.getByRole('button', { name: 'Deshacer' }).click();
    await page.locator(`[data-mail-row="${id}"]`).waitFor();

    // The unread switch and the search are in the URL.
    await page.locator('label.mantine-SegmentedControl-label', { hasText: /^No leídos$/ }).click();
    await page.waitForURL('**unread=1**');
    await page.goBack();
    await expect.poll(() => page.url()).not.toContain('unread=1');
    await context.close();
  }, 240_000);
});
