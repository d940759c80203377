/**
 * End to end in Chromium against the real server and a fresh database: a member who never verified sends a
 * real PNG and a PDF on /member/kyc, staff reject it with the operator command (on the server's own database),
 * the member reads the reason and sends again; the basic details page changes the name and the picture and the
 * shell's header shows them at once. Spanish, the dark scheme and a 360 px phone.
 */
import { describe, expect, test } from 'vitest';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { newPage, PASSWORD, runOperator, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

const png = () => sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 40, g: 160, b: 90 } } }).png().toBuffer();
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

/** A seeded member who has never sent a document, as staff find them. */
async function unverifiedMember(): Promise<string> {
  const out = await runOperator(app.server, ['kyc', 'list', '--status', 'not_submitted', '--limit', '3']);
  expect(out.code, out.stderr).toBe(0);
  return out.stdout.trim().split('\n')[0].split('\t')[1];
}

async function fillAndSend(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]) {
  await page.getByLabel('Document type').and(page.locator('input')).click();
  await page.getByRole('option', { name: 'Passport' }).click();
  await page.getByRole('textbox', { name: /Document number/ }).fill('P-778899');
  await page.locator('[data-kyc-input]').setInputFiles(files);
  for (const f of files) await page.locator(`[data-kyc-file="${f.name}"]`).waitFor();
  await page.getByRole('button', { name: 'Send for review' }).click();
  await page.locator('[data-kyc-current="pending"]').waitFor();
}

describe('identity verification', () => {
  test('send a PNG and a PDF, rejected by staff with a reason, read it, send again (at 360 px)', async () => {
    const username = await unverifiedMember();
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await signIn(page, username, PASSWORD);
    await page.goto('/member/kyc');
    await page.getByRole('heading', { name: 'Identity verification' }).waitFor();
    expect(await page.locator('[data-kyc-current]').textContent()).toBe('Not submitted');

    // A wrong file is named before anything is sent.
    await page.locator('[data-kyc-input]').setInputFiles([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }]);
    await page.locator('[data-kyc-file="notes.txt"]').getByText('Only JPG, PNG or PDF files are accepted.').waitFor();
    await page.getByRole('button', { name: 'Remove notes.txt' }).click();

    const photo = await png();
    await page.locator('[data-kyc-input]').setInputFiles([{ name: 'front.png', mimeType: 'image/png', buffer: photo }]);
    await page.getByRole('img', { name: 'Preview of front.png' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole('button', { name: 'Remove front.png' }).click();
    await fillAndSend(page, [
      { name: 'front.png', mimeType: 'image/png', buffer: photo },
      { name: 'scan.pdf', mimeType: 'application/pdf', buffer: PDF },
    ]);
    const sent = page.locator('[data-kyc-status="pending"]');
    await sent.getByText('front.png').waitFor();
    await sent.getByText('scan.pdf').waitFor();

    // Staff reject it, on the server's database.
    const pending = await runOperator(app.server, ['kyc', 'list', '--member', username]);
    const line = pending.stdout.split('\n').find((l) => l.split('\t')[1] === username);
    expect(line, pending.stdout).toBeTruthy();
    const id = line!.split('\t')[0];
    const rejected = await runOperator(app.server, ['kyc', 'reject', id, '--reason', 'The photo is blurred: retake it in daylight.']);
    expect(rejected.code, rejected.stderr).toBe(0);

    await page.reload();
    await page.locator('[data-kyc-current="rejected"]').waitFor();
    expect(await page.locator('[data-kyc-latest-reason]').textContent()).toContain('The photo is blurred: retake it in daylight.');
    await page.getByRole('heading', { name: 'Send a new document' }).waitFor();
    await fillAndSend(page, [{ name: 'daylight.png', mimeType: 'image/png', buffer: photo }]);
    expect(await page.locator('[data-kyc-document]').count()).toBe(2);
    expect(await page.locator('[data-kyc-status="rejected"] [data-kyc-reason]').textContent()).toContain('retake it in daylight');
    await context.close();
  }, 240_000);

  test('Spanish and the dark scheme; the payout page sends an unverified member here', async () => {
    const username = await unverifiedMember();
    const { context, page } = await newPage(app.browser, app.server);
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page, username, PASSWORD);
    await page.goto('/member/kyc?lng=es');
    await page.getByRole('heading', { name: 'Verificación de identidad' }).waitFor();
    expect(await page.locator('[data-kyc-current]').textContent()).toBe('No enviado');
    await page.getByText('Suelta los archivos aquí o haz clic para elegirlos').waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');

    await page.goto('/member/wallet/request-payout');
    const link = page.getByRole('link', { name: 'Verifica tu identidad' });
    await link.click();
    await page.waitForURL('**/member/kyc');
    await context.close();
  }, 240_000);
});

describe('basic details', () => {
  test('a new name and picture show in the header at once', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto('/member/account/basic');
    await page.getByRole('heading', { name: 'Basic details' }).waitFor();
    const first = page.getByRole('textbox', { name: 'First name' });
    await expect.poll(() => first.inputValue()).toBe('Dana');
    await first.fill('Daniela');
    await page.getByRole('button', { name: 'Save name' }).click();
    const header = page.locator('header');
    await header.getByText('Daniela Demo').first().waitFor();

    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 60, b: 60 } } }).jpeg().toBuffer();
    await page.locator('input[type="file"]').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.locator('[data-avatar-frame] img').waitFor();
    await page.getByRole('slider', { name: 'Zoom' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('button', { name: 'Save picture' }).click();
    const avatar = header.locator('img[src^="/media/avatars/"]');
    await avatar.waitFor();
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(512);

    // Still there after a reload: the session's user record was updated.
    await page.reload();
    await header.getByText('Daniela Demo').first().waitFor();
    await header.locator('img[src^="/media/avatars/"]').waitFor();
    await context.close();
  }, 240_000);
});
