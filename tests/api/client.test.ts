// @vitest-environment node
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { configureClient, get, post, request, setModulesLoaded, areModulesLoaded } from '../../src/api/client';
import { ApiError, ConnectionError, SchemaError, errorInfo } from '../../src/api/errors';
import { storage } from '../../src/lib/storage';
import { moduleData } from '../support/session-fixtures';
import { clientHookMocks, localHttpServer } from '../support/local-http';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

type Reply = { status: number; body?: unknown; raw?: string };

let seen: Seen[] = [];
let reply: (req: Seen) => Reply = () => ({ status: 200, body: { data: {} } });

function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}

const hooks = clientHookMocks();

const local = localHttpServer((req: IncomingMessage, res: ServerResponse) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const s: Seen = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body };
    seen.push(s);
    const r = reply(s);
    const text = r.raw ?? (r.body === undefined ? '' : JSON.stringify(r.body));
    res.writeHead(r.status, text ? { 'content-type': r.raw ? 'text/plain' : 'application/json' } : {});
    res.end(text);
  });
});

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
  seen = [];
  reply = () => ({ status: 200, body: { data: {} } });
  for (const h of Object.values(hooks)) h.mockReset();
  setModulesLoaded(true);
  configureClient({ baseURL: local.baseURL, appKey: 'test-app-key', getRoute: () => '/member/wallet', ...hooks });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const thing = z.object({ id: z.number(), name: z.string() });

describe('headers', () => {
  it('sends JSON accept and content type, the app key and the web-request marker; no bearer when signed out', async () => {
    reply = () => ({ status: 200, body: { data: { id: 1, name: 'a' } } });
    await post(thing, '/api/things', { name: 'a' });
    const h = seen[0].headers;
    expect(h.accept).toBe('application/json');
    expect(h['content-type']).toBe('application/json');
    expect(h['x-app-key']).toBe('test-app-key');
    expect(h['x-requested-with']).toBe('XMLHttpRequest');
    expect(h.authorization).toBeUndefined();
    expect(h['x-store-token']).toBeUndefined();
    expect(JSON.parse(seen[0].body)).toEqual({ name: 'a' });
  });

  it('adds the bearer token when stored, and the store token only when asked', async () => {
    storage.set('auth_token', 'access-0123456789abcdef');
    storage.set('store_auth_token', 'store-0123456789abcdef');
    await get(z.object({}), '/api/a');
    await get(z.object({}), '/api/b', undefined, { storeToken: true });
    expect(seen[0].headers.authorization).toBe('Bearer access-0123456789abcdef');
    expect(seen[0].headers['x-store-token']).toBeUndefined();
    expect(seen[1].headers['x-store-token']).toBe('store-0123456789abcdef');
  });

  it('sends form-encoded bodies when asked', async () => {
    await request(z.object({}), '/api/form', { method: 'POST', form: true, body: { a: 'x y', b: 2, c: null } });
    expect(seen[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(seen[0].body).toBe('a=x+y&b=2');
  });
});

describe('query parameters', () => {
  it('adds the route, and demo_plan when one is stored', async () => {
    await get(z.object({}), '/api/a', { keyword: 'ann', empty: '', none: null, ids: [1, 2] });
    expect(seen[0].query.get('route')).toBe('/member/wallet');
    expect(seen[0].query.get('keyword')).toBe('ann');
    expect(seen[0].query.has('empty')).toBe(false);
    expect(seen[0].query.has('none')).toBe(false);
    expect(seen[0].query.getAll('ids')).toEqual(['1', '2']);
    expect(seen[0].query.has('demo_plan')).toBe(false);
    storage.set('demo_plan', 'matrix');
    await get(z.object({}), '/api/a');
    expect(seen[1].query.get('demo_plan')).toBe('matrix');
  });

  it('asks GETs for module data (load_modules=1) until an answer carried it, then stops', async () => {
    setModulesLoaded(false);
    const modules = moduleData();
    reply = (r) => ({ status: 200, body: r.query.get('load_modules') === '1' && r.path === '/api/second' ? { data: {}, loaded_modules: modules } : { data: {} } });
    await post(z.object({}), '/api/first');
    await get(z.object({}), '/api/first');
    await get(z.object({}), '/api/second');
    await get(z.object({}), '/api/third');
    expect(seen.map((s) => [s.method, s.path, s.query.get('load_modules')])).toEqual([
      ['POST', '/api/first', null],
      ['GET', '/api/first', '1'],
      ['GET', '/api/second', '1'],
      ['GET', '/api/third', null],
    ]);
    expect(areModulesLoaded()).toBe(true);
    expect(hooks.onModules).toHaveBeenCalledTimes(1);
    expect(hooks.onModules.mock.calls[0][0].company.name).toBe('Upline Demo');
  });
});

describe('answers', () => {
  it('only 200 and 201 yield data', async () => {
    reply = () => ({ status: 201, body: { data: { id: 2, name: 'b' } } });
    await expect(post(thing, '/api/things')).resolves.toEqual({ id: 2, name: 'b' });
    for (const status of [202, 204]) {
      reply = () => ({ status, body: status === 204 ? undefined : { data: { id: 2, name: 'b' } } });
      const e = await post(thing, '/api/things').catch((x) => x);
      expect(e).toBeInstanceOf(ApiError);
      expect(e.kind).toBe('unknown');
      expect(e.status).toBe(status);
    }
  });

  it.each([
    [400, 'badRequest', 'Bad Request 400'],
    [401, 'unauthorized', 'Unauthorized 401'],
    [403, 'forbidden', 'Forbidden 403'],
    [404, 'notFound', 'Not Found 404'],
    [500, 'server', 'Internal Server Error 500'],
    [418, 'unknown', 'Unknown Api Error 418'],
  ])('status %i is a %s error carrying the body', async (status, kind, prefix) => {
    reply = () => ({ status, body: { error_code: 'some_code', message: 'Nope', errors: {} } });
    const e = await post(thing, '/api/things').catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.kind).toBe(kind);
    expect(e.status).toBe(status);
    expect(e.body).toEqual({ error_code: 'some_code', message: 'Nope', errors: {} });
    expect(e.message.startsWith(`${prefix}: `)).toBe(true);
    expect(e.message).toContain('"error_code": "some_code"');
    expect(e.errorCode).toBe('some_code');
  });

  it('a failure without an answer is a connection error', async () => {
    configureClient({ baseURL: 'http://127.0.0.1:1' });
    const e = await get(thing, '/api/things').catch((x) => x);
    expect(e).toBeInstanceOf(ConnectionError);
    expect(e.kind).toBe('connection');
    expect(e.status).toBeUndefined();
    expect(e.message).toBe('Network Connection Failed: Network Error');
    expect(errorInfo(e)).toMatchObject({ kind: 'connection', status: null });
  });

  it('validation_error gives the first message of each field', async () => {
    reply = () => ({
      status: 422,
      body: { error_code: 'validation_error', message: 'Invalid', errors: { email: ['validation:invalidEmail', 'validation:tooLong'], password: ['validation:required'] } },
    });
    const e = await post(thing, '/api/things').catch((x) => x);
    expect(e.kind).toBe('badRequest');
    expect(e.isValidation).toBe(true);
    expect(e.fieldErrors).toEqual({ email: 'validation:invalidEmail', password: 'validation:required' });
    expect(errorInfo(e).fields).toEqual({ email: 'validation:invalidEmail', password: 'validation:required' });
  });

  it('treats a blank error_code and an empty errors map as absent', async () => {
    reply = () => ({ status: 422, body: { error_code: '  ', message: 'x', errors: {} } });
    const e = await post(thing, '/api/things').catch((x) => x);
    expect(e.errorCode).toBeUndefined();
    expect(e.fieldErrors).toEqual({});
    expect(e.isValidation).toBe(false);
    expect(errorInfo(e).code).toBeNull();
  });

  it('a body that does not match the schema is a SchemaError naming the path and the field', async () => {
    reply = () => ({ status: 200, body: { data: { id: 'seven', name: 'x' } } });
    const e = await get(thing, '/api/things/7').catch((x) => x);
    expect(e).toBeInstanceOf(SchemaError);
    expect(e.kind).toBe('schema');
    expect(e.path).toBe('/api/things/7');
    expect(e.field).toBe('data.id');
    expect(e.message).toContain('/api/things/7');
    expect(e.message).toContain('data.id');
  });

  it('module data that does not match its schema is a SchemaError too; non-JSON answers as well', async () => {
    setModulesLoaded(false);
    reply = () => ({ status: 200, body: { data: {}, loaded_modules: { ...moduleData(), company: null } } });
    const e = await get(z.object({}), '/api/a').catch((x) => x);
    expect(e).toBeInstanceOf(SchemaError);
    expect(e.field).toBe('loaded_modules.company');
    expect(hooks.onModules).not.toHaveBeenCalled();
    reply = () => ({ status: 200, raw: 'hello' });
    const f = await get(z.object({}), '/api/b').catch((x) => x);
    expect(f).toBeInstanceOf(SchemaError);
    expect(f.field).toBe('(root)');
  });
});

describe('hooks', () => {
  it.each([403, 500])('user_blocked on %i calls onUserBlocked', async (status) => {
    reply = () => ({ status, body: { error_code: 'user_blocked', message: 'Blocked', errors: {} } });
    const e = await get(thing, '/api/things').catch((x) => x);
    expect(e.isUserBlocked).toBe(true);
    expect(hooks.onUserBlocked).toHaveBeenCalledTimes(1);
    expect(hooks.onDemoBlocked).not.toHaveBeenCalled();
    expect(hooks.onUnauthorized).not.toHaveBeenCalled();
  });

  it.each([403, 500])('demo_blocked on %i calls onDemoBlocked', async (status) => {
    reply = () => ({ status, body: { error_code: 'demo_blocked', message: 'Demo', errors: {} } });
    const e = await post(thing, '/api/things').catch((x) => x);
    expect(e.isDemoBlocked).toBe(true);
    expect(hooks.onDemoBlocked).toHaveBeenCalledTimes(1);
    expect(hooks.onUserBlocked).not.toHaveBeenCalled();
  });

  it('401 on a GET signs out (onUnauthorized); not on a POST, nor on a quiet GET such as the auth check', async () => {
    reply = () => ({ status: 401, body: { error_code: 'unauthenticated', message: 'x', errors: {} } });
    await get(thing, '/api/things').catch(() => {});
    expect(hooks.onUnauthorized).toHaveBeenCalledTimes(1);
    await post(thing, '/api/things').catch(() => {});
    await get(thing, '/api/auth_check', undefined, { quiet401: true }).catch(() => {});
    expect(hooks.onUnauthorized).toHaveBeenCalledTimes(1);
  });
});
