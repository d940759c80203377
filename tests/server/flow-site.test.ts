// @vitest-environment node
/** The flow site (docs/flows) at /flows: read-only pages with their content types, next to the SPA. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../support/server';

const FLOWS = path.resolve(import.meta.dirname, '../../docs/flows');
let s: TestServer;
let empty: TestServer;
let dist: string;
let nowhere: string;

beforeAll(async () => {
  // A built SPA beside it: its fallback must not answer for /flows.
  dist = mkdtempSync(path.join(tmpdir(), 'flows-dist-'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Upline app</title><div id="root"></div>');
  nowhere = mkdtempSync(path.join(tmpdir(), 'flows-none-'));
  s = await startTestServer({ staticDir: dist, pageRenderer: null, flowsDir: FLOWS, seedMembers: 5 });
  empty = await startTestServer({ flowsDir: nowhere, seedMembers: 5 });
});
afterAll(async () => {
  await s?.close();
  await empty?.close();
  rmSync(dist, { recursive: true, force: true });
  rmSync(nowhere, { recursive: true, force: true });
});

describe('/flows', () => {
  it('answers the index of every machine as HTML', async () => {
    const res = await s.app.inject({ url: '/flows/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<h1>Flows</h1>');
    expect(res.body).toContain('href="session.html"');
    expect(res.body).not.toContain('Upline app');
  });

  it('sends /flows to the index', async () => {
    const res = await s.app.inject({ url: '/flows' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/flows/');
  });

  it('answers a machine page with its diagram, and machines.json as JSON', async () => {
    const res = await s.app.inject({ url: '/flows/session.html' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<h1>session</h1>');
    expect(res.body).toContain('<svg');
    const json = await s.app.inject({ url: '/flows/machines.json' });
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json.json<Array<{ id: string }>>().map((m) => m.id)).toContain('session');
  });

  it('answers 404 for a page it does not have, and reads nothing outside the site', async () => {
    for (const url of ['/flows/nothing.html', '/flows/..%2F..%2Fpackage.json', '/flows/%2E%2E%2Fpackage.json', '/flows/.git']) {
      const res = await s.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('"name": "upline"');
      expect(res.body, url).not.toContain('Upline app');
    }
  });

  it('is read-only', async () => {
    const res = await s.app.inject({ method: 'POST', url: '/flows/index.html', payload: {} });
    expect(res.statusCode).toBe(404);
  });

  it('says so when the site has not been generated', async () => {
    const res = await empty.app.inject({ url: '/flows/' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('npm run flows');
  });
});
