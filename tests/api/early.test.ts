/**
 * Early answers (src/api/early.ts): a call the page head started before the scripts ran is taken by the
 * client's same call, once, with the same headers; anything else is asked again over the network.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { configureClient, get, setModulesLoaded } from '../../src/api/client';
import { callKey, EARLY_ANSWER_LIFETIME_MS, type EarlyCall } from '../../src/api/early';
import { ApiError } from '../../src/api/errors';
import { storage } from '../../src/lib/storage';
import { moduleData } from '../support/session-fixtures';

const APP_KEY = 'early-test-key';
/** What index.html sends. */
const headHeaders = (token?: string): Record<string, string> => ({
  Accept: 'application/json',
  'X-App-Key': APP_KEY,
  'X-Requested-With': 'XMLHttpRequest',
  'Content-Type': 'application/json',
  ...(token ? { Authorization: `Bearer ${token}` } : {}),
});
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const fields = z.object({ login_by: z.string() });
const onModules = vi.fn();
const onUnauthorized = vi.fn();
let network: ReturnType<typeof vi.fn>;

function askedEarly(path: string, query: Record<string, string>, response: Promise<Response>, over: Partial<EarlyCall> = {}) {
  window.__uplineEarly ??= {};
  window.__uplineEarly[callKey(path, query)!] = { headers: headHeaders(), response, at: performance.now(), ...over };
}

beforeEach(() => {
  localStorage.clear();
  window.__uplineEarly = {};
  history.replaceState(null, '', '/login');
  configureClient({ baseURL: '', appKey: APP_KEY, getRoute: () => location.pathname, onModules, onUnauthorized });
  setModulesLoaded(true);
  network = vi.fn(async () => json(200, { data: { login_by: 'network' } }));
  vi.stubGlobal('fetch', network);
});
afterEach(() => {
  vi.unstubAllGlobals();
  onModules.mockReset();
  onUnauthorized.mockReset();
});

test('the key is the path and the query in name order, values encoded', () => {
  expect(callKey('/api/auth/dummy', { route: '/login', load_modules: '1' })).toBe('/api/auth/dummy?load_modules=1&route=%2Flogin');
  expect(callKey('/api/x', { ids: ['1', '2'] })).toBeNull();
});

test('the same call with the same headers takes the early answer, once; the next one goes to the network', async () => {
  askedEarly('/api/auth/login_fields', { route: '/login' }, Promise.resolve(json(200, { data: { login_by: 'early' } })));
  await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'early' });
  expect(network).not.toHaveBeenCalled();
  await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'network' });
  expect(network).toHaveBeenCalledTimes(1);
});

test('an early answer carries the module data like any answer', async () => {
  setModulesLoaded(false);
  askedEarly(
    '/api/auth/dummy',
    { route: '/login', load_modules: '1' },
    Promise.resolve(json(200, { data: {}, loaded_modules: moduleData() })),
  );
  await get(z.unknown(), '/api/auth/dummy');
  expect(network).not.toHaveBeenCalled();
  expect(onModules).toHaveBeenCalledWith(expect.objectContaining({ company: expect.objectContaining({ name: moduleData().company.name }) }));
});

test('asked with module data, it also serves the same call without (module data applied); not the other way round', async () => {
  askedEarly(
    '/api/auth/login_fields',
    { route: '/login', load_modules: '1' },
    Promise.resolve(json(200, { data: { login_by: 'early' }, loaded_modules: moduleData() })),
  );
  await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'early' });
  expect(onModules).toHaveBeenCalledTimes(1);
  expect(network).not.toHaveBeenCalled();

  setModulesLoaded(false);
  askedEarly('/api/auth/login_fields', { route: '/login' }, Promise.resolve(json(200, { data: { login_by: 'early' } })));
  await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'network' });
  expect(String(network.mock.calls[0][0])).toContain('load_modules=1');
});

test('an early error answer is the same error as from the network (401 → force logout)', async () => {
  askedEarly('/api/auth/login_fields', { route: '/login' }, Promise.resolve(json(401, { message: 'Unauthenticated.' })));
  const err = await get(fields, '/api/auth/login_fields').catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).kind).toBe('unauthorized');
  expect(onUnauthorized).toHaveBeenCalledTimes(1);
  expect(network).not.toHaveBeenCalled();
});

test('not taken: other query, other headers (signed in since), too old, or it could not connect', async () => {
  askedEarly('/api/auth/login_fields', { route: '/signup' }, Promise.resolve(json(200, { data: { login_by: 'early' } })));
  await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'network' });

  askedEarly('/api/auth/login_fields', { route: '/login' }, Promise.resolve(json(200, { data: { login_by: 'early' } })));
  storage.set('auth_token', 'a-token');
  await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'network' });
  storage.set('auth_token', null);

  askedEarly('/api/auth/login_fields', { route: '/login' }, Promise.resolve(json(200, { data: { login_by: 'early' } })), {
    at: performance.now() - EARLY_ANSWER_LIFETIME_MS - 1,
  });
  await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'network' });

  askedEarly('/api/auth/login_fields', { route: '/login' }, Promise.reject(new TypeError('Failed to fetch')));
  await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'network' });
  expect(network).toHaveBeenCalledTimes(4);
});

test('a signed-in head call (with its token) is taken by the signed-in client', async () => {
  storage.set('auth_token', 'a-token');
  askedEarly('/api/auth/login_fields', { route: '/login' }, Promise.resolve(json(200, { data: { login_by: 'early' } })), {
    headers: headHeaders('a-token'),
  });
  await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'early' });
  expect(network).not.toHaveBeenCalled();
});

describe('the page head (index.html) asks exactly the calls the client then makes', () => {
  /** Runs index.html's inline script at `url` with `token` stored; answers every head call with `answer`. */
  function runHead(url: string, token: string | null) {
    const html = readFileSync(path.resolve('index.html'), 'utf8');
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1].replaceAll('%VITE_APP_KEY%', APP_KEY);
    history.replaceState(null, '', url);
    if (token) storage.set('auth_token', token);
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (u: string) => {
        asked.push(u);
        return json(200, { data: { login_by: 'early' }, loaded_modules: moduleData() });
      }),
    );
    window.__uplineEarly = undefined;
    new Function(script)();
    vi.stubGlobal('fetch', network);
    return asked;
  }

  test('a guest on /login: the boot call and the sign-in fields, both taken by the client', async () => {
    expect(runHead('/login', null)).toEqual(['/api/auth/dummy?load_modules=1&route=%2Flogin', '/api/auth/login_fields?load_modules=1&route=%2Flogin']);
    setModulesLoaded(false);
    await get(z.unknown(), '/api/auth/dummy');
    await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'early' });
    expect(network).not.toHaveBeenCalled();
  });

  test('a stored token: the auth check with it, taken by the client; no sign-in fields', async () => {
    expect(runHead('/member/home/dashboard', 'a-token-0123456789')).toEqual(['/api/auth_check?load_modules=1&route=%2Fmember%2Fhome%2Fdashboard']);
    setModulesLoaded(false);
    await get(z.unknown(), '/api/auth_check');
    expect(network).not.toHaveBeenCalled();
  });
});
