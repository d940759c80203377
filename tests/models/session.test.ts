import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { sessionMachine } from '../../src/machines/session.machine';
import { areaOf, isBlockedPath, isMemberPath } from '../../src/lib/paths';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { describePaths, doneEvent, errorEvent, stubActors } from '../support/paths';
import { loginResponse, moduleData, user } from '../support/session-fixtures';

const ROUTES = [
  '/',
  '/login',
  '/login/continue',
  '/login/otp',
  '/password/forgot',
  '/signup?referral=demo',
  '/request-demo',
  '/sso_login?token=abc',
  '/sso_logout?token=abc',
  '/member/home/dashboard',
  '/account-blocked',
  '/demo-blocked',
  '/no-such-page',
].map((to) => {
  const [path, query] = to.split('?');
  return { type: 'route.changed', path, search: query ? `?${query}` : '' };
});

const FLOW_OUTPUTS = [
  { type: 'loggedIn', response: loginResponse() },
  { type: 'loggedIn', response: loginResponse({ user_status: 0, token: '' }) },
  { type: 'loggedIn', response: loginResponse({ user_allowed: false, token: '' }) },
  { type: 'loggedOut' },
  { type: 'done' },
];
const FLOWS = ['login', 'otpLogin', 'passwordReset', 'signup', 'requestDemo', 'ssoLogin', 'ssoLogout', 'blockedLogout'];

const events: AnyEventObject[] = [
  ...ROUTES,
  { type: 'modules.loaded', modules: moduleData() },
  doneEvent('boot', { user: null, expired: false }),
  doneEvent('boot', { user: user(), expired: false }),
  doneEvent('boot', { user: user({ status: 0 }), expired: false }),
  errorEvent('boot', new ConnectionError()),
  errorEvent('boot', new ApiError('server', 500, { error_code: 'server_error' })),
  errorEvent('boot', new ApiError('forbidden', 403, { error_code: 'user_blocked' })),
  doneEvent('logout'),
  errorEvent('logout', new ConnectionError()),
  errorEvent('logout', new ApiError('unauthorized', 401, {})),
  ...FLOWS.flatMap((id) => FLOW_OUTPUTS.map((output) => doneEvent(id, output))),
  { type: 'language.change', code: 'es' },
  { type: 'menu.select', id: 'wallet' },
  { type: 'session.verify' },
  doneEvent('verify', user()),
  doneEvent('verify', user({ status: 0 })),
  errorEvent('verify', new ApiError('unauthorized', 401, {})),
  errorEvent('verify', new ApiError('forbidden', 403, { error_code: 'user_blocked' })),
  errorEvent('verify', new ConnectionError()),
  errorEvent('verify', new ApiError('server', 500, { error_code: 'server_error' })),
];

function placeOf(path: string): string {
  return areaOf(path) ?? (path === '/' ? 'root' : isMemberPath(path) ? 'member' : isBlockedPath(path) ? path : 'other');
}

const demoOver = moduleData({
  is_demo: true,
  demo_info: { contact_email: null, contact_phone: null, contact_skype: null, user_allowed: false, messenger_name: null, privacy_policy_url: null },
});

describePaths('session machine paths', {
  machine: stubActors(sessionMachine),
  inputs: [
    { path: '/', search: '', moduleData: moduleData() },
    { path: '/member/home/dashboard', search: '', moduleData: demoOver },
  ],
  events,
  // Paths of one area (or kind of page) behave alike, so states are told apart by that.
  serializeState: (s: AnyMachineSnapshot) =>
    JSON.stringify([
      s.value,
      placeOf(s.context.path),
      s.context.authenticated,
      s.context.redirect,
      s.context.moduleData?.demo_info?.user_allowed ?? null,
    ]),
});
