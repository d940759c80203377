/**
 * End to end in Chromium against the real server and a fresh database: the demo member opens a support ticket
 * with a picture, staff answer it with the operator command (on the server's own database), the member reads the
 * answer and closes the ticket; the member reads an article and watches a video from the dashboard's links and
 * the story tabs; an upcoming event's "add to calendar" downloads a valid .ics file. A 360 px phone, Spanish and
 * the dark scheme.
 */
import { describe, expect, test } from 'vitest';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { newPage, runOperator, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();
const fitsWidth = () => document.documentElement.scrollWidth <= window.innerWidth;

describe('support tickets', () => {
  test('open a ticket with a picture, staff answer it, read the answer and close it (at 360 px)', async () => {
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await signIn(page);
    await page.goto('/member/support');
    await page.getByRole('heading', { name: 'Support', level: 1 }).waitFor();
    // The demo member has a ticket in every status.
    for (const status of ['open', 'awaiting_member', 'answered', 'resolved', 'closed']) await page.locator(`[data-ticket-status="${status}"]`).first().waitFor();
    expect(await page.evaluate(fitsWidth)).toBe(true);

    await page.getByRole('link', { name: 'New ticket' }).first().click();
    await page.getByRole('heading', { name: 'New support ticket' }).waitFor();
    await page.getByLabel('Category').and(page.locator('input')).click();
    await page.getByRole('option', { name: 'Technical problem' }).click();
    await page.getByRole('textbox', { name: /^Subject/ }).fill('The genealogy does not open');
    await page.getByRole('textbox', { name: /^Description/ }).fill('Since yesterday the tree stays blank.\nA screenshot is attached.');
    const shot = await sharp({ create: { width: 200, height: 120, channels: 3, background: { r: 30, g: 30, b: 30 } } }).png().toBuffer();
    await page.locator('[data-ticket-files]').setInputFiles([{ name: 'blank-tree.png', mimeType: 'image/png', buffer: shot }]);
    await page.locator('[data-chosen-file="blank-tree.png"]').waitFor();
    expect(await page.evaluate(fitsWidth)).toBe(true);
    await page.getByRole('button', { name: 'Send ticket' }).click();
    await page.waitForURL(/\/member\/support\/tickets\/\d+$/);
    const id = /(\d+)$/.exec(page.url())![1];
    await page.getByRole('heading', { name: 'The genealogy does not open' }).waitFor();
    await page.locator('[data-ticket-page] [data-ticket-status="open"]').waitFor();
    await page.getByRole('button', { name: 'Download blank-tree.png' }).waitFor();

    // Staff see it waiting and answer it, on the server's database.
    const waiting = await runOperator(app.server, ['ticket', 'list']);
    expect(waiting.code, waiting.stderr).toBe(0);
    expect(waiting.stdout).toContain(`${id}\tdemo\topen`);
    const answered = await runOperator(app.server, ['ticket', 'reply', id, 'Clear the cache and open the tree again; it is fixed on our side.']);
    expect(answered.code, answered.stderr).toBe(0);

    await page.reload();
    await page.locator('[data-author="support"]').getByText('it is fixed on our side').waitFor();
    await page.locator('[data-ticket-page] [data-ticket-status="answered"]').waitFor();
    expect(await page.locator('[data-trail]').count()).toBe(2);

    await page.getByRole('button', { name: 'Close ticket' }).click();
    await page.getByRole('dialog', { name: 'Close this ticket?' }).getByRole('button', { name: 'Close ticket' }).click();
    await page.locator('[data-ticket-page] [data-ticket-status="closed"]').waitFor();
    expect(await page.getByRole('button', { name: 'Send reply' }).count()).toBe(0);
    expect(await page.locator('[data-trail]').count()).toBe(3);
    expect(await page.evaluate(fitsWidth)).toBe(true);
    await context.close();
  }, 240_000);
});

describe('stories and events', () => {
  test('an article and a video from the dashboard and the story tabs; an event’s calendar file', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto('/member/home/dashboard');
    // The dashboard keeps its recent stories in the news group's tab.
    await page.getByRole('tab', { name: 'Articles and videos' }).click();
    const recent = page.locator('[data-recent-article]').first();
    const title = (await recent.textContent())!;
    await recent.click();
    await page.waitForURL(/\/member\/story\/article\/\d+$/);
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.locator('[data-article] .upline-safe-html').first().waitFor();
    await page.locator('[data-share-link="whatsapp"]').waitFor();

    await page.goto('/member/story');
    await page.waitForURL('**/member/story/article');
    await page.getByRole('tab', { name: 'Videos' }).click();
    await page.waitForURL('**/member/story/video');
    await page.getByRole('link', { name: 'Setting up your payout method' }).click();
    await page.getByRole('heading', { name: 'Setting up your payout method' }).waitFor();
    await page.locator('video[data-video-player="file"] source[src$="payout-method.mp4"]').waitFor({ state: 'attached' });

    await page.goto('/member/events');
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await page.getByRole('link', { name: 'December product launch' }).click();
    await page.getByRole('heading', { name: 'December product launch' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Add to calendar' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.ics$/);
    const ics = await readFile((await download.path())!, 'utf8');
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics).toContain('SUMMARY:December product launch\r\n');
    expect(ics).toContain('DTSTART:20261210T180000Z\r\nDTEND:20261210T200000Z\r\n');
    // Long lines are folded (CRLF and a space) at 75 octets.
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(ics.replace(/\r\n /g, '')).toMatch(/DESCRIPTION:The new winter range\\, live with the product team\.\\nQuestions welcome in the chat\.\r\n/);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);

    await page.getByRole('link', { name: 'Back to events' }).click();
    await page.locator('label.mantine-SegmentedControl-label', { hasText: /^Past$/ }).click();
    await page.waitForURL('**/member/events?when=past');
    await page.getByRole('link', { name: 'Autumn welcome call' }).waitFor();
    await context.close();
  }, 240_000);

  test('Spanish and the dark scheme on a 360 px phone', async () => {
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page);
    await page.goto('/member/support?lng=es');
    await page.getByRole('heading', { name: 'Soporte', level: 1 }).waitFor();
    await page.getByText('Esperando tu respuesta').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    expect(await page.evaluate(fitsWidth)).toBe(true);
    await page.goto('/member/story/article?lng=es');
    await page.getByRole('tab', { name: 'Artículos' }).waitFor();
    expect(await page.evaluate(fitsWidth)).toBe(true);
    await page.goto('/member/events?lng=es');
    await page.getByRole('heading', { name: 'Eventos' }).waitFor();
    await page.getByRole('link', { name: 'December product launch' }).click();
    await page.getByRole('button', { name: 'Añadir al calendario' }).waitFor();
    expect(await page.evaluate(fitsWidth)).toBe(true);
    await context.close();
  }, 240_000);
});
