/**
 * End to end in Chromium against the real server and a fresh database: a member records a sale to a contact
 * (two lines from the catalogue, the running total), finds it in the list, opens its invoice, marks it sent
 * and downloads the PDF (read back: its number, lines and total). The invoices on a 360 px phone in Spanish
 * and the dark scheme; another member's invoice is not found.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { pdfText } from '../support/pdf-text';
import { newPage, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

describe('CRM sales and invoices', () => {
  test('record a sale, see it listed, open its invoice, mark it sent, download its PDF', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto('/member/crm/sales');
    await page.getByRole('heading', { name: 'Sales', exact: true }).waitFor();
    await expect.poll(() => page.locator('[data-sale-id]').count()).toBeGreaterThan(10);

    await page.getByRole('link', { name: 'Record a sale' }).first().click();
    await page.getByRole('heading', { name: 'Record a sale' }).waitFor();
    // The pickers by keyboard: the arrow keys and Enter.
    const pick = async (name: string, downs: number) => {
      const box = page.getByRole('combobox', { name });
      // On a busy machine the options can still be arriving when Enter comes; then the box stays empty and
      // the member would simply choose again, as this does (three tries).
      for (let attempt = 0; attempt < 3 && (await box.inputValue()) === ''; attempt++) {
        await box.focus();
        await page.keyboard.press('ArrowDown');
        await page.locator('[role="option"]:visible').first().waitFor();
        for (let i = 1; i < downs; i++) await page.keyboard.press('ArrowDown');
        await page.locator('[role="option"][data-combobox-selected]:visible').first().waitFor();
        await page.keyboard.press('Enter');
        await expect.poll(() => box.inputValue(), { timeout: 2_000 }).not.toBe('').catch(() => page.keyboard.press('Escape'));
      }
      await expect.poll(() => box.inputValue()).not.toBe('');
      return box.inputValue();
    };
    const buyer = await pick('Contact', 1);
    const firstItem = (await pick('Product or package (line 1)', 1)).split(' · ')[0];
    await page.getByRole('textbox', { name: 'Quantity (line 1)' }).fill('3');

    await page.getByRole('button', { name: 'Add a line' }).click();
    const secondItem = (await pick('Product or package (line 2)', 2)).split(' · ')[0];
    await page.getByRole('textbox', { name: 'Quantity (line 2)' }).fill('1');
    const total = (await page.locator('[data-running-total]').textContent())!.replace(/^Total: /, '');
    expect(total).toMatch(/^\$[\d,]+\.\d{2}$/);
    expect(total).not.toBe('$0.00');

    await page.getByRole('button', { name: 'Record the sale' }).click();
    await page.waitForURL(/\/member\/crm\/sales\/\d+$/);
    await page.getByRole('heading', { name: `Sale to ${buyer}` }).waitFor();
    expect(await page.locator('[data-total]').textContent()).toBe(total);
    const invoiceButton = page.getByRole('link', { name: /^Invoice INV-\d{6}$/ });
    const number = (await invoiceButton.textContent())!.replace('Invoice ', '');

    // In the list, newest first.
    await page.goto('/member/crm/sales');
    await page.locator('[data-sale-id]').first().getByText(number).waitFor();
    expect(await page.locator('[data-sale-id]').first().textContent()).toContain(total);

    // Its invoice: draft, then sent.
    await page.locator('[data-sale-id]').first().getByRole('link', { name: new RegExp(`Open sale ${number}`) }).click();
    await page.getByRole('link', { name: `Invoice ${number}` }).click();
    await page.getByRole('heading', { name: number }).waitFor();
    await page.locator('[data-invoice-status="draft"]').waitFor();
    await page.getByRole('button', { name: 'Mark as sent' }).click();
    await page.locator('[data-invoice-status="sent"]').waitFor();
    await page.getByText('Invoice marked as sent.').first().waitFor();

    // The PDF.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain(number);
    expect(text).toContain(buyer);
    expect(text).toContain(firstItem);
    expect(text).toContain(secondItem);
    expect(text).toContain(`Total: ${total.replace('$', '')} USD`);
    expect(text).toContain('Status: Sent');
    await context.close();
  }, 240_000);

  test('invoices on a 360 px phone in Spanish and the dark scheme; another member’s invoice is not found', async () => {
    const { context, page } = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await context.addCookies([{ name: 'color-scheme', value: 'dark', url: app.server.url }]);
    await signIn(page);
    await page.goto('/member/crm/invoices?status=overdue&lng=es');
    await page.getByRole('heading', { name: 'Facturas', exact: true }).waitFor();
    await expect.poll(() => page.locator('[data-invoice-id]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-invoice-status]').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-invoice-status')))])).toEqual(['overdue']);
    await page.getByText('Vencida').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'))).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const href = await page.locator('[data-invoice-id] a').first().getAttribute('href');
    await context.close();

    const other = await newPage(app.browser, app.server, { width: 360, height: 740 });
    await signIn(other.page, 'admin');
    await other.page.goto(`${href}?lng=es`);
    await other.page.getByText('No encontrado').waitFor();
    await other.context.close();
  }, 240_000);
});
