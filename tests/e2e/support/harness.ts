/**
 * End-to-end harness: the real server (built SPA + API) on a free loopback port with a fresh embedded
 * database, and Debian's Chromium driven by playwright-core. The server sends its e-mails to a small SMTP
 * server of the harness, so tests read one-time codes from the mails as a member would; its log lines are
 * kept too. Every page records the Content-Security-Policy violations it meets (`cspViolations`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startSmtpStandIn } from '../../support/smtp-server';

export const PASSWORD = 'Demo-pass-2026';
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface OutboxMessage {
  channel: string;
  destination: string;
  subject: string;
  body: string;
}

export interface RunningServer {
  url: string;
  /** The server's process id (the primary one when it runs several). */
  readonly pid: number;
  outbox: OutboxMessage[];
  logs: string[];
  stop(): Promise<void>;
  /**
   * Stop the server, run `task` on its database folder (one process at a time may open an embedded database),
   * then start it again on the same address and data. Answers what `task` answered.
   */
  whileStopped<T>(task: (env: Record<string, string>) => Promise<T>): Promise<T>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const smtp = await startSmtpStandIn();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'upline-e2e-'));
  const logs: string[] = [];
  const outbox: OutboxMessage[] = [];
  const url = `http://127.0.0.1:${port}`;
  const serverEnv: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_PASSWORD: PASSWORD,
    SEED_MEMBERS: env.SEED_MEMBERS ?? '600',
    LOG_LEVEL: 'info',
    DATABASE_URL: '',
    SMTP_URL: smtp.url,
    ...env,
  };
  // E-mails arrive over SMTP, as from a real mailer; the outbox holds them as received.
  smtp.onMail((mail) => outbox.push({ channel: 'email', destination: mail.to[0] ?? '', subject: mail.headers.subject ?? '', body: mail.text }));
  let child = await launchServer(serverEnv, url, logs, outbox);
  const halt = async () => {
    child.kill('SIGTERM');
    const exited = new Promise((r) => child.once('exit', r));
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return {
    url,
    outbox,
    logs,
    get pid() {
      return child.pid!;
    },
    async stop() {
      await halt();
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(`${dataDir}-uploads`, { recursive: true, force: true });
    },
    async whileStopped(task) {
      await halt();
      try {
        return await task({ ...serverEnv });
      } finally {
        child = await launchServer(serverEnv, url, logs, outbox);
      }
    },
  };
}

async function launchServer(serverEnv: Record<string, string>, url: string, logs: string[], outbox: OutboxMessage[]): Promise<ChildProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: process.cwd(),
    env: { ...process.env, ...serverEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString();
    let i: number;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      logs.push(line);
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  // A busy machine may need longer (E2E_SERVER_START_MS).
  const deadline = Date.now() + Number(process.env.E2E_SERVER_START_MS ?? 120_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.slice(-30).join('\n')}`);
    try {
      const res = await fetch(`${url}/api/openapi.json`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${logs.slice(-30).join('\n')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return child;
}

/** `npm run operator -- …args` on the stopped server's database (see RunningServer.whileStopped). */
export async function runOperator(server: RunningServer, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return server.whileStopped(
    (env) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/operator.ts', ...args], { cwd: process.cwd(), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
      }),
  );
}

/** The newest six-digit code sent to `destination`, waiting for it to arrive. */
export async function readCode(server: RunningServer, destination: string, after = 0, timeoutMs = 10_000): Promise<string> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const msgs = server.outbox.slice(after).filter((m) => m.destination.toLowerCase() === destination.toLowerCase());
    const last = msgs[msgs.length - 1];
    const code = last && /\b(\d{6})\b/.exec(last.body)?.[1];
    if (code) return code;
    if (Date.now() > end) throw new Error(`no code for ${destination}; outbox: ${JSON.stringify(server.outbox)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Content-Security-Policy violations met by the pages of this process (securitypolicyviolation events and console reports). */
export const cspViolations: string[] = [];

/** Every page of `context` reports the policy violations it meets into `cspViolations`. */
export async function recordCspViolations(context: BrowserContext) {
  await context.exposeBinding('__uplineCspViolation', ({ page }, text: string) => void cspViolations.push(`${page.url()}: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __uplineCspViolation?: (t: string) => void }).__uplineCspViolation;
      report?.(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  context.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) cspViolations.push(`${msg.page()?.url() ?? ''}: ${msg.text()}`);
  });
}

/**
 * Chromium, whose every context — made by `newPage` below, by a test's own `browser.newContext(…)` or by
 * `browser.newPage()` — records the Content-Security-Policy violations its pages meet (`cspViolations`, which
 * the suite asserts empty after each test).
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await recordCspViolations(context);
    return context;
  };
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.once('close', () => void context.close());
    return page;
  };
  return browser;
}

export async function newPage(browser: Browser, server: RunningServer, opts: { width?: number; height?: number; locale?: string } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    locale: opts.locale ?? 'en-US',
  });
  const page = await context.newPage();
  return { context, page };
}

/**
 * On the sign-in page already shown: the username, Continue, then the password (the two steps of /login);
 * answers the Sign in button, ready to be pressed (benchmarks time from that press).
 */
export async function toPasswordStep(page: Page, username = 'demo', password = PASSWORD) {
  const field = page.getByRole('textbox', { name: 'Username' });
  await field.waitFor({ timeout: 15_000 }).catch(async (e: Error) => {
    throw new Error(`no sign-in form at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 200)} (${e.message})`);
  });
  await field.fill(username);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL('**/login/continue');
  await page.getByLabel('Password', { exact: true }).fill(password);
  const submit = page.getByRole('button', { name: 'Sign in', exact: true });
  await submit.waitFor();
  return submit;
}

/** On the sign-in page already shown: both steps, then Sign in (whatever the answer). */
export async function submitSignIn(page: Page, username = 'demo', password = PASSWORD) {
  await (await toPasswordStep(page, username, password)).click();
}

/** Opens /login, signs `username` in and waits for the member shell. */
export async function signIn(page: Page, username = 'demo', password = PASSWORD) {
  await page.goto('/login');
  await submitSignIn(page, username, password);
  await page.locator('[data-shell="member"]').waitFor();
}

/** From now on the page's first `call` of the network area (the root, not an expansion) is answered with `body()`. */
export function answerNetworkCall(page: Page, call: 'genealogy' | 'table_view', body: () => string) {
  return page.route(new RegExp(`/api/network/${call}(\\?|$)`), (route) => route.fulfill({ status: 200, contentType: 'application/json', body: body() }));
}

/** Opens the genealogy page and waits for its first paint; answers the tree. */
export async function openGenealogy(page: Page) {
  await page.goto('/member/network/genealogy');
  const tree = page.getByRole('application', { name: 'Genealogy tree' });
  await tree.waitFor();
  await page.waitForFunction(() => performance.getEntriesByName('genealogy:paint').length > 0);
  return tree;
}
