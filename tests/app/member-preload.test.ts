/**
 * Getting the member area ready (src/app/member-preload.ts): the moment a member is signed in, the first calls
 * of the page they land on go out with their token, and the page's own calls take those answers instead of
 * asking again; the code and the page's translations are fetched next to them.
 */
import i18next from 'i18next';
import * as z from 'zod/mini';
import { configureClient, get, setModulesLoaded } from '../../src/api/client';
import { DASHBOARD_CALLS, DASHBOARD_SUMMARY_PATH } from '../../src/api/home-calls';
import { prepareMemberPage, prefetchMemberArea } from '../../src/app/member-preload';
import { loadNotificationCountAfterPage } from '../../src/machines/home.machine';
import { DASHBOARD_PATH } from '../../src/lib/paths';
import { storage } from '../../src/lib/storage';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
let network: ReturnType<typeof vi.fn>;
let loadNamespaces: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  await i18next.init({ lng: 'en', resources: {} });
});

beforeEach(() => {
  localStorage.clear();
  window.__uplineEarly = {};
  history.replaceState(null, '', '/login/continue');
  configureClient({ baseURL: '', appKey: 'preload-test-key', getRoute: () => location.pathname, onModules: () => {}, onUnauthorized: () => {} });
  setModulesLoaded(true);
  network = vi.fn(async (url: string) => json({ data: { wallet_balance: url.startsWith(`${DASHBOARD_SUMMARY_PATH}?`) ? '320.00' : '0.00' } }));
  vi.stubGlobal('fetch', network);
  loadNamespaces = vi.spyOn(i18next, 'loadNamespaces').mockResolvedValue(undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const requested = () => network.mock.calls.map(([url, init]) => ({ url: String(url), auth: (init as RequestInit).headers && ((init as RequestInit).headers as Record<string, string>).Authorization }));

test('a member signed in for the dashboard: the call of its figures goes out at once with the new token, the other two once it has answered, and the translations are asked for', async () => {
  storage.set('auth_token', 'fresh-token-0123456789');
  let answerSummary!: () => void;
  network.mockImplementationOnce(
    (url: string) => new Promise<Response>((resolve) => (answerSummary = () => resolve(json({ data: { wallet_balance: url.startsWith(`${DASHBOARD_SUMMARY_PATH}?`) ? '320.00' : '0.00' } })))),
  );
  const asked = (paths: readonly string[]) => paths.map((path) => ({ url: `${path}?route=${encodeURIComponent(DASHBOARD_PATH)}`, auth: 'Bearer fresh-token-0123456789' }));
  prepareMemberPage(DASHBOARD_PATH);
  expect(requested()).toEqual(asked([DASHBOARD_SUMMARY_PATH]));
  expect(loadNamespaces).toHaveBeenCalledWith(['dashboard', 'wallet']);
  await new Promise((r) => setTimeout(r, 0));
  expect(requested()).toEqual(asked([DASHBOARD_SUMMARY_PATH]));
  answerSummary();
  await vi.waitFor(() => expect(requested()).toEqual(asked(DASHBOARD_CALLS)));
});

test("the dashboard's other calls, asked once the figures' call has answered, are taken by the page's own: the server is asked once each", async () => {
  storage.set('auth_token', 'fresh-token-0123456789');
  prepareMemberPage(DASHBOARD_PATH);
  history.replaceState(null, '', DASHBOARD_PATH);
  const answers = await Promise.all(DASHBOARD_CALLS.map((path) => get(z.object({ wallet_balance: z.string() }), path)));
  expect(answers).toEqual([{ wallet_balance: '320.00' }, { wallet_balance: '0.00' }, { wallet_balance: '0.00' }]);
  for (const path of DASHBOARD_CALLS) expect(network.mock.calls.filter(([url]) => String(url).startsWith(`${path}?`))).toHaveLength(1);
});

test("the dashboard's own call takes the answer asked ahead: the server is asked once", async () => {
  storage.set('auth_token', 'fresh-token-0123456789');
  prepareMemberPage(DASHBOARD_PATH);
  history.replaceState(null, '', DASHBOARD_PATH);
  const summary = await get(z.object({ wallet_balance: z.string() }), DASHBOARD_SUMMARY_PATH);
  expect(summary).toEqual({ wallet_balance: '320.00' });
  expect(network.mock.calls.filter(([url]) => String(url).startsWith(`${DASHBOARD_SUMMARY_PATH}?`))).toHaveLength(1);
});

test('a page without first calls of its own asks nothing ahead', () => {
  storage.set('auth_token', 'fresh-token-0123456789');
  prepareMemberPage('/member/wallet/statement');
  expect(network).not.toHaveBeenCalled();
  expect(loadNamespaces).not.toHaveBeenCalled();
});

test('while the password is typed, the dashboard translations are fetched, and no call is made', () => {
  prefetchMemberArea();
  expect(loadNamespaces).toHaveBeenCalledWith(['dashboard', 'wallet']);
  expect(network).not.toHaveBeenCalled();
});

test("the menu badge's count is asked only once the dashboard's calls asked ahead have answered", async () => {
  storage.set('auth_token', 'fresh-token-0123456789');
  let answerSummary!: () => void;
  network.mockImplementation(async (url: string) => {
    if (url.startsWith(`${DASHBOARD_SUMMARY_PATH}?`)) return new Promise<Response>((resolve) => (answerSummary = () => resolve(json({ data: { wallet_balance: '320.00' } }))));
    if (url.startsWith('/api/home/notifications_count?')) return json({ data: { order_count: 1, payout_count: 0, message_count: 2, total_count: 3 } });
    return json({ data: { wallet_balance: '0.00' } });
  });
  const countAsked = () => network.mock.calls.filter(([url]) => String(url).startsWith('/api/home/notifications_count?')).length;
  prepareMemberPage(DASHBOARD_PATH);
  history.replaceState(null, '', DASHBOARD_PATH);
  const count = loadNotificationCountAfterPage();
  await new Promise((r) => setTimeout(r, 20));
  expect(countAsked()).toBe(0);
  answerSummary();
  await expect(count).resolves.toMatchObject({ total_count: 3 });
  expect(countAsked()).toBe(1);
  const order = network.mock.calls.map(([url]) => String(url).split('?')[0]);
  expect(order.indexOf('/api/home/notifications_count')).toBeGreaterThan(Math.max(...DASHBOARD_CALLS.map((path) => order.indexOf(path))));
});

test("on a page nothing was asked ahead for, the badge's count is asked without waiting for any call", async () => {
  storage.set('auth_token', 'fresh-token-0123456789');
  network.mockImplementation(async () => json({ data: { order_count: 0, payout_count: 0, message_count: 0, total_count: 0 } }));
  history.replaceState(null, '', '/member/wallet/statement');
  await expect(loadNotificationCountAfterPage()).resolves.toMatchObject({ total_count: 0 });
  expect(network.mock.calls.map(([url]) => String(url).split('?')[0])).toEqual(['/api/home/notifications_count']);
});
