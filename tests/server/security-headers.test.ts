// @vitest-environment node
/**
 * Browser protections on every page and answer: a Content-Security-Policy (pages: their inline scripts by
 * hash, never 'unsafe-inline' for scripts; other answers: nothing allowed), no framing, no MIME sniffing,
 * a referrer policy, a permissions policy, and signed-in answers never stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server';
import { get, login } from './helpers';
import { inlineEntryScripts } from '../../vite.config';

let s: TestServer;
let dist: string;
let token: string;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'upline-headers-'));
  writeFileSync(path.join(dist, 'index.html'), await inlineEntryScripts(readFileSync('index.html', 'utf8')));
  cpSync('public/locales', path.join(dist, 'locales'), { recursive: true });
  s = await startTestServer({ staticDir: dist, pageRenderer: path.resolve('src/entry-server.tsx'), rateLimitScale: 100 });
  token = (await login(s.app, 'demo')).token;
}, 60_000);
afterAll(async () => {
  await s?.close();
  rmSync(dist, { recursive: true, force: true });
});

/** The policy as a map of directive → sources. */
const directives = (policy: unknown) =>
  Object.fromEntries(
    String(policy)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );

/** The hashes of the scripts a browser would run inline in `html`, computed here independently. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attrs]) => !/src=/.test(attrs) && !/type="application\/json"/.test(attrs))
    .map(([, , code]) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`);
}

function expectCommonHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(String(headers['permissions-policy'])).toMatch(/camera=\(\)/);
  expect(directives(headers['content-security-policy'])['frame-ancestors']).toEqual(["'none'"]);
}

describe('pages', () => {
  for (const [what, url] of [
    ['the sign-in page rendered by the server', '/login'],
    ['a page sent as the app shell', '/member/home'],
  ] as const) {
    it(`${what}: its inline scripts are allowed by hash, nothing else inline`, async () => {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expectCommonHeaders(res.headers);
      const csp = directives(res.headers['content-security-policy']);
      expect(csp['script-src']).not.toContain("'unsafe-inline'");
      expect(csp['script-src']).not.toContain("'unsafe-eval'");
      expect(csp['object-src']).toEqual(["'none'"]);
      expect(csp['base-uri']).toEqual(["'none'"]);
      const hashes = inlineScripts(res.body);
      expect(hashes.length).toBeGreaterThan(0);
      expect([...csp['script-src']].sort()).toEqual(["'self'", ...new Set(hashes)].sort());
    });
  }
});

describe('API answers', () => {
  it('a guest answer allows nothing and may be kept; a signed-in answer is never stored', async () => {
    const guest = await get(s.app, '/api/auth/login_fields');
    expect(guest.status).toBe(200);
    expectCommonHeaders(guest.headers);
    expect(directives(guest.headers['content-security-policy'])['default-src']).toEqual(["'none'"]);
    expect(guest.headers['cache-control']).toBeUndefined();

    for (const url of ['/api/home/dashboard', '/api/wallet/transactions', '/api/user_data']) {
      const member = await get(s.app, url, { token });
      expect(member.status, url).toBe(200);
      expectCommonHeaders(member.headers);
      expect(member.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('errors carry the headers too', async () => {
    const res = await get(s.app, '/api/wallet/transactions?cursor=%00', { token });
    expect(res.status).toBe(422);
    expectCommonHeaders(res.headers);
    expect(res.headers['cache-control']).toBe('no-store');
    const missing = await get(s.app, '/api/nothing/here');
    expect(missing.status).toBe(404);
    expectCommonHeaders(missing.headers);
  });
});
