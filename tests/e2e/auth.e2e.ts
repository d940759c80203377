/**
 * End to end in Chromium against the real server and a fresh database: the public and auth flows a visitor and a
 * member go through, plus the error screens under injected faults.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, readCode, submitSignIn } from './support/harness';
import { realAppForFile } from './support/suite';

const app = realAppForFile();

async function open(path: string, opts?: { width?: number }) {
  const { context, page } = await newPage(app.browser, app.server, opts);
  await page.goto(path);
  return { context, page };
}

const shell = (page: Page) => page.locator('[data-shell="member"]');


describe('signing in and out', () => {
  test('root goes to login; a member signs in, reaches the shell, stays signed in on reload, signs out', async () => {
    const { context, page } = await open('/');
    await page.waitForURL('**/login');
    await submitSignIn(page, 'demo');
    await page.waitForURL('**/member/home/dashboard');
    await shell(page).getByText('Dana Demo').first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeTruthy();

    await page.reload();
    await shell(page).waitFor();
    expect(page.url()).toContain('/member/home/dashboard');

    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    // The old session is gone: the member area sends us back to sign in.
    await page.goto('/member/home/dashboard');
    await page.waitForURL(/\/login/);
    await context.close();
  });

  test('the first page asks its boot call and its fields once: the page head asks (or the server-rendered page brings them), the app takes the answers', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/')) asked.push(new URL(r.url()).pathname);
    });
    const count = (path: string) => asked.filter((p) => p === path).length;
    // The app's script is held back a moment: the calls are asked before it runs.
    await page.route(/\/assets\/app-[A-Za-z0-9_-]{8}\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      asked.push('(app script)');
      await route.continue();
    });
    // '/login' (a first visit in this tab) comes with both answers; '/' is not rendered by the server: its
    // head asks both calls.
    for (const [start, times] of [['/login', 0], ['/', 1]] as const) {
      asked.length = 0;
      await page.goto(start);
      await page.getByRole('textbox', { name: 'Username' }).waitFor();
      await page.waitForLoadState('networkidle');
      expect([start, count('/api/auth/dummy'), count('/api/auth/login_fields')]).toEqual([start, times, times]);
      if (times) expect(asked.indexOf('/api/auth/login_fields')).toBeLessThan(asked.indexOf('(app script)'));
    }
    await submitSignIn(page, 'demo');
    await shell(page).waitFor();
    asked.length = 0;
    await page.reload();
    await shell(page).getByText('Dana Demo').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(count('/api/auth_check')).toBe(1);
    expect(count('/api/auth/dummy')).toBe(0);
    await context.close();
  });

  test('a wrong password shows a message next to the field and keeps what was typed', async () => {
    const { context, page } = await open('/login');
    await submitSignIn(page, 'demo', 'not-the-password');
    await expect(page.getByText(/incorrect|do not match|invalid/i).first().waitFor()).resolves.toBeUndefined();
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).toBe('not-the-password');
    expect(page.url()).toContain('/login/continue');
    await context.close();
  });

  test('a blocked member lands on /account-blocked; a member without demo access on /demo-blocked', async () => {
    const { context, page } = await open('/login');
    await submitSignIn(page, 'blocked');
    await page.waitForURL('**/account-blocked');
    await page.getByRole('heading', { name: 'Your account is blocked' }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.waitForURL(/\/login/);
    await context.close();

    const second = await open('/login');
    await submitSignIn(second.page, 'demo.expired');
    await second.page.waitForURL('**/demo-blocked');
    await second.page.getByRole('heading', { name: 'Your demo access has ended' }).waitFor();
    await second.context.close();
  });
});

describe('one-time codes', () => {
  test('OTP login with the code read from the outbox', async () => {
    const { context, page } = await open('/login/otp');
    await page.getByText('E-mail', { exact: true }).first().click();
    const sent = app.server.outbox.length;
    await page.getByRole('textbox', { name: 'E-mail' }).fill('demo@upline.example');
    await page.getByRole('button', { name: 'Send code' }).click();
    const code = await readCode(app.server, 'demo@upline.example', sent);
    await page.getByRole('textbox', { name: 'Verification code' }).fill(code);
    await page.getByRole('button', { name: 'Verify and sign in' }).click();
    await page.waitForURL('**/member/home/dashboard');
    await shell(page).waitFor();
    await context.close();
  });

  test('signup under a sponsor with OTP, then password reset, then sign in with the new password', async () => {
    const email = `new.member.${Date.now()}@upline.example`;
    const { context, page } = await open('/signup?referral=demo');
    await page.getByRole('textbox', { name: 'First name' }).fill('Nadia');
    await page.getByRole('textbox', { name: /Last name/ }).fill('Okafor');
    await page.getByRole('textbox', { name: /E-mail/ }).fill(email);
    await page.getByRole('textbox', { name: /^Username/ }).fill('nadia.okafor');
    await page.getByLabel('Password', { exact: true }).fill('Welcome-2026');
    await page.getByLabel('Confirm password', { exact: true }).fill('Welcome-2026');
    const terms = page.getByRole('checkbox');
    if (await terms.count()) await terms.first().check();
    const sent = app.server.outbox.length;
    await page.getByRole('button', { name: /create account|sign up/i }).click();
    await page.waitForURL('**/signup/otp');
    const code = await readCode(app.server, email, sent);
    await page.getByRole('textbox', { name: 'Verification code' }).fill(code);
    await page.getByRole('button', { name: /verify/i }).click();
    await page.waitForURL('**/signup/success');
    await page.getByText('nadia.okafor').first().waitFor();

    // Forgot password by e-mail: send code → check code → new password → success.
    await page.goto('/password/forgot');
    const field = page.getByRole('textbox', { name: /E-mail/ });
    if (!(await field.isVisible())) await page.getByText('E-mail', { exact: true }).first().click();
    const before = app.server.outbox.length;
    await page.getByRole('textbox', { name: /E-mail/ }).fill(email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.waitForURL('**/password/forgot/otp');
    const resetCode = await readCode(app.server, email, before);
    await page.getByRole('textbox', { name: 'Verification code' }).fill(resetCode);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.waitForURL('**/password/reset');
    await page.getByLabel('New password', { exact: true }).fill('Brand-new-2026');
    await page.getByLabel('Confirm password', { exact: true }).fill('Brand-new-2026');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.waitForURL('**/password/reset/success');
    await page.getByRole('button', { name: /sign in/i }).first().click();
    await page.waitForURL('**/login');
    await submitSignIn(page, 'nadia.okafor', 'Brand-new-2026');
    await page.waitForURL('**/member/home/dashboard');
    await shell(page).waitFor();
    await context.close();
  });
});

describe('failures are shown and retry recovers', () => {
  test('network failure at start: connection-error screen, retry works once the network is back', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await page.route('**/api/auth/dummy**', (route) => route.abort('internetdisconnected'));
    // (/login comes rendered with its answers; '/' makes the boot call from the browser.)
    await page.goto('/');
    await page.getByText('No connection').first().waitFor();
    await page.unroute('**/api/auth/dummy**');
    await page.getByRole('button', { name: /retry/i }).first().click();
    await page.getByRole('textbox', { name: 'Username' }).waitFor();
    await context.close();
  });

  test('server error (500) loading the login form: server-error view, retry works once fixed', async () => {
    const { context, page } = await newPage(app.browser, app.server);
    await page.route('**/api/auth/login_fields**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error_code":"server_error","message":"boom"}' }),
    );
    await page.goto('/');
    await page.getByText('Something went wrong').first().waitFor();
    expect(page.url()).toMatch(/\/login$/);
    await page.unroute('**/api/auth/login_fields**');
    await page.getByRole('button', { name: /retry/i }).first().click();
    await page.getByRole('textbox', { name: 'Username' }).waitFor();
    await context.close();
  });

  test('a 401 on a member request signs the member out and clears storage', async () => {
    const { context, page } = await open('/login');
    await submitSignIn(page, 'demo');
    await shell(page).waitFor();
    await page.route('**/api/auth_check**', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: '{"error_code":"unauthenticated","message":"Unauthenticated"}' }),
    );
    await page.reload();
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('auth_token'))).toBeNull();
    await context.close();
  });

  test('reloading a member page while the server is unreachable or failing shows the error screen with Retry, not a crash page', async () => {
    const { context, page } = await open('/login');
    await submitSignIn(page, 'demo');
    await shell(page).waitFor();
    for (const [fault, heading] of [
      ['unreachable', 'No connection'],
      ['500', 'Something went wrong'],
    ] as const) {
      await page.route('**/api/**', (route) =>
        fault === 'unreachable'
          ? route.abort('internetdisconnected')
          : route.fulfill({ status: 500, contentType: 'application/json', body: '{"error_code":"server_error","message":"boom"}' }),
      );
      await page.goto('/member/wallet/statement');
      await page.getByText(heading).first().waitFor();
      expect(await page.getByText('Unexpected Application Error!').count()).toBe(0);
      await page.unroute('**/api/**');
      await page.getByRole('button', { name: /retry/i }).first().click();
      await page.getByText(heading).first().waitFor({ state: 'detached' });
      expect(page.url()).toMatch(/\/member\/wallet\/statement$/);
    }
    await context.close();
  });

  test('a phone-sized screen shows the sign-in form usable at 360 px', async () => {
    const { context, page } = await open('/login', { width: 360 });
    const box = await page.getByRole('button', { name: 'Continue' }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
    await context.close();
  });
});
