/**
 * The wallet lists' date filter as a member uses it: open "Date range", choose "Custom range", and wait for
 * the URL to say so and the day picker to appear. Answers the range box and the picker's button.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

export async function chooseCustomRange(page: Page) {
  const range = page.getByRole('combobox', { name: 'Date range' }).or(page.getByRole('textbox', { name: 'Date range' })).first();
  await range.click();
  await page.getByRole('option', { name: 'Custom range' }).click();
  await page.waitForURL(/date_range=custom/);
  const picker = page.getByRole('button', { name: 'From – to' });
  await picker.waitFor();
  expect(await range.inputValue()).toBe('Custom range');
  return { range, picker };
}
