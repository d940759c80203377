/**
 * Early answers (src/api/early.ts): a call the page head started before the scripts ran is taken by the
 * client's same call, once, with the same headers; anything else is asked again over the network.
 */
import * as z from 'zod/mini';
import { configureClient, get, setModulesLoaded } from '../../src/api/client';
import { APP_KEY as BUILT_APP_KEY } from '../../src/api/call-common';
import { callKey, EARLY_ANSWER_LIFETIME_MS, type EarlyCall } from '../../src/api/early';
import { ApiError } from '../../src/api/errors';
import { storage } from '../../src/lib/storage';
import { moduleData } from '../support/session-fixtures';

const APP_KEY = 'early-test-key';
/** What the page head sends. */
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

describe('the page head (src/entry-head.ts) asks exactly the calls the client then makes', () => {
  /** Runs the page head at `url` (with what is stored); answers every call it asks with `answer`. */
  async function runHead(url: string, stored: Record<string, string> = {}, pageData?: unknown) {
    history.replaceState(null, '', url);
    for (const [k, v] of Object.entries(stored)) localStorage.setItem(k, v);
    document.getElementById('upline-page')?.remove();
    if (pageData) {
      document.documentElement.setAttribute('data-server-language', 'en');
      document.documentElement.setAttribute('data-server-scheme', 'light');
      const data = Object.assign(document.createElement('script'), { type: 'application/json', id: 'upline-page', textContent: JSON.stringify(pageData) });
      document.head.appendChild(data);
    }
    const asked: Array<{ url: string; headers: Record<string, string> }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (u: string, init: RequestInit) => {
        asked.push({ url: u, headers: init.headers as Record<string, string> });
        return json(200, { data: { login_by: 'early' }, loaded_modules: moduleData() });
      }),
    );
    window.__uplineEarly = undefined;
    vi.resetModules();
    await import('../../src/entry-head');
    vi.stubGlobal('fetch', network);
    // The client as the app configures it: the built application key, the browser's route, no module data yet.
    configureClient({ appKey: BUILT_APP_KEY });
    setModulesLoaded(false);
    return asked;
  }
  afterEach(() => {
    document.documentElement.removeAttribute('data-server-language');
    document.documentElement.removeAttribute('data-server-scheme');
    document.documentElement.removeAttribute('data-server-off');
    document.getElementById('upline-page')?.remove();
  });

  test('a guest on /login: the boot call and the sign-in fields with the client\'s headers, both taken by the client', async () => {
    const asked = await runHead('/login');
    expect(asked.map((a) => a.url)).toEqual(['/api/auth/dummy?load_modules=1&route=%2Flogin', '/api/auth/login_fields?load_modules=1&route=%2Flogin']);
    expect(asked[0].headers).toEqual({
      Accept: 'application/json',
      'X-App-Key': BUILT_APP_KEY,
      'X-Requested-With': 'XMLHttpRequest',
      'Content-Type': 'application/json',
    });
    await get(z.unknown(), '/api/auth/dummy');
    await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'early' });
    expect(network).not.toHaveBeenCalled();
  });

  test('a guest at the root: the boot call there, and the fields of the sign-in page it is sent on to', async () => {
    const asked = await runHead('/');
    expect(asked.map((a) => a.url)).toEqual(['/api/auth/dummy?load_modules=1&route=%2F', '/api/auth/login_fields?load_modules=1&route=%2Flogin']);
    await get(z.unknown(), '/api/auth/dummy');
    history.replaceState(null, '', '/login');
    await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'early' });
    expect(network).not.toHaveBeenCalled();
  });

  test('a guest on another page: only the boot call', async () => {
    expect((await runHead('/signup')).map((a) => a.url)).toEqual(['/api/auth/dummy?load_modules=1&route=%2Fsignup']);
  });

  test('a stored token: the auth check with it, taken by the client; no sign-in fields', async () => {
    const asked = await runHead('/member/home/dashboard', { auth_token: 'a-token-0123456789' });
    expect(asked.map((a) => a.url)).toEqual(['/api/auth_check?load_modules=1&route=%2Fmember%2Fhome%2Fdashboard']);
    expect(asked[0].headers.Authorization).toBe('Bearer a-token-0123456789');
    await get(z.unknown(), '/api/auth_check');
    expect(network).not.toHaveBeenCalled();
  });

  test('a stored demo plan goes into the query as the client puts it, and the client takes the answer', async () => {
    const asked = await runHead('/login', { demo_plan: 'gold' });
    expect(asked[0].url).toBe('/api/auth/dummy?demo_plan=gold&load_modules=1&route=%2Flogin');
    await get(z.unknown(), '/api/auth/dummy');
    expect(network).not.toHaveBeenCalled();
  });

  test("a server-rendered page's answers are handed over without asking, and taken by the client", async () => {
    const answers = {
      '/api/auth/dummy?load_modules=1&route=%2Flogin': { data: {}, loaded_modules: moduleData() },
      '/api/auth/login_fields?load_modules=1&route=%2Flogin': { data: { login_by: 'from-page' } },
    };
    expect(await runHead('/login', {}, { answers })).toEqual([]);
    await get(z.unknown(), '/api/auth/dummy');
    expect(onModules).toHaveBeenCalledTimes(1);
    await expect(get(fields, '/api/auth/login_fields')).resolves.toEqual({ login_by: 'from-page' });
    expect(network).not.toHaveBeenCalled();
  });
});
