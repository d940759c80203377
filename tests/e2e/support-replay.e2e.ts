/**
 * End to end in Chromium against the real server: a member half fills the bank-details form, downloads the
 * diagnostic from the account hub; support signs in to /support/replay with an operator token, opens the
 * file with the network to the API blocked, and the same form appears with the same values (the secrets
 * left out) and the same machine state — answered by the recorded snapshot, nothing sent.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { newPage, runOperator, signIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();
const IBAN = 'ES9121000418450200051332';
const BANK_PASSWORD = 'Typed-Bank-Pass-1';

describe('support replay', () => {
  test('a half-filled form restores to the same screen in the replay, with the API unreachable', async () => {
    const created = await runOperator(app.server, ['token', 'create', '--label', 'e2e', '--hours', '1']);
    expect(created.code).toBe(0);
    const token = created.stdout.trim().split('\n').at(-1)!;

    // The member: bank details half typed, then the diagnostic from the account hub.
    const { context, page } = await newPage(app.browser, app.server);
    await signIn(page);
    await page.goto('/member/account/bank');
    await page.getByLabel('Account holder').waitFor();
    await page.getByLabel('Account holder').fill('Dana Replay');
    await page.getByLabel('Bank name').fill('Replay Savings');
    const iban = page.getByLabel('IBAN');
    if (await iban.count()) await iban.fill(IBAN);
    const memberHeading = await page.getByRole('heading', { level: 1 }).first().innerText();
    const memberLabels = await page.locator('main label').allInnerTexts();
    await page.goto('/member/account');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download diagnostic' }).click();
    const file = await (await download).path();
    const text = readFileSync(file!, 'utf8');
    expect(text).not.toContain(IBAN);
    expect(text).not.toContain(BANK_PASSWORD);
    expect(text).not.toContain(token);
    await context.close();

    // Support: sign in with the token, block every API call, open the file.
    const staff = await newPage(app.browser, app.server);
    const sp = staff.page;
    await sp.goto('/support/replay');
    await sp.getByLabel('Operator token').fill('upl_op_wrong');
    await sp.getByRole('button', { name: 'Sign in' }).click();
    await sp.getByText('This token is not valid').waitFor();
    await sp.getByLabel('Operator token').fill(token);
    await sp.getByRole('button', { name: 'Sign in' }).click();
    await sp.getByText('Open a member’s snapshot').waitFor();

    const apiCalls: string[] = [];
    await sp.route('**/api/**', (route) => {
      apiCalls.push(route.request().url());
      return route.abort();
    });
    await sp.setInputFiles('input[type=file]', file!);
    await sp.locator('[data-replay-panel]').waitFor();
    // The member was on the account hub when they downloaded it: the replay opens there.
    await sp.waitForURL('**/member/account');
    await sp.locator('[data-replay-open="account.bank"]').click();
    await sp.getByLabel('Account holder').waitFor();
    expect(await sp.getByLabel('Account holder').inputValue()).toBe('Dana Replay');
    expect(await sp.getByLabel('Bank name').inputValue()).toBe('Replay Savings');
    if (await sp.getByLabel('IBAN').count()) expect(await sp.getByLabel('IBAN').inputValue()).toBe('');
    expect(await sp.getByRole('heading', { level: 1 }).first().innerText()).toBe(memberHeading);
    expect(await sp.locator('main label').allInnerTexts()).toEqual(memberLabels);
    // The machine state beside the screen: the form is being edited.
    expect(await sp.locator('[data-replay-page="account.bank"] [data-replay-state]').innerText()).toBe('"editing"');
    expect(apiCalls).toEqual([]);

    // Stepping back through the trail and forward again.
    const step = sp.locator('[data-replay-step]');
    const end = await step.innerText();
    await sp.locator('[data-replay-back]').click();
    expect(await step.innerText()).not.toBe(end);
    await sp.locator('[data-replay-forward]').click();
    expect(await step.innerText()).toBe(end);
    await staff.context.close();
  });
});
