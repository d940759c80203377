/**
 * A support snapshot holds the app's state, not its secrets: taken in the middle of a password change, a
 * payout request, a one-time-code step and a bank-details edit, none of the secrets typed or answered is
 * in it (searched for by value), while what support needs (route, states, the other values) is.
 */
import { createActor, type AnyActorRef, type AnyStateMachine } from 'xstate';
import { passwordChangeMachine } from '../../src/machines/account/password-change.machine';
import { payoutRequestMachine } from '../../src/machines/payout-request.machine';
import { emailChangeMachine } from '../../src/machines/account/contact-change.machine';
import { bankDetailsMachine } from '../../src/machines/account/bank-details.machine';
import { captureSupportSnapshot, type SnapshotEnv } from '../../src/lib/support-snapshot';
import { supportSnapshotSchema } from '../../src/schemas/support-snapshot.schema';
import { isSensitiveField, markSensitive, redact } from '../../src/lib/support-redaction';
import { supportTrail, TRAIL_LIMIT } from '../../src/lib/support-trail';
import { doneEvent, stubActors } from '../support/paths';
import { CODE_SENT } from '../support/form-samples';

const ENV: SnapshotEnv = {
  route: { path: '/member/account/bank-details', search: '' },
  language: 'es',
  currency: 'EUR',
  colourScheme: 'dark',
  viewport: { width: 360, height: 740 },
  appVersion: '0.1.0',
};

const SECRETS = {
  currentPassword: 'Old-Secret-2026!',
  newPassword: 'Brand-New-2027?',
  payoutPassword: 'Wallet-Pass-991',
  otp: '482913',
  emailPassword: 'Mail-Pass-5521',
  iban: 'ES9121000418450200051332',
  accountNumber: '000123456789',
  bankPassword: 'Bank-Pass-7788',
  token: 'tok_4f9a1c2e7b8d',
};

const PAYOUT_SETTINGS = {
  enabled: true, minimum_amount: '10', maximum_amount: '1000', fee_fixed: '1', fee_percent: '2', amount_decimals: 2, available_balance: '200',
  max_requestable: '195.09', kyc_required: false, kyc_status: 'approved', single_pending: true, pending_request: null, password_required: true,
};

const opened: Array<() => void> = [];
function openPage(key: string, machine: AnyStateMachine): AnyActorRef {
  const actor = createActor(stubActors(machine), { inspect: supportTrail.inspect });
  opened.push(supportTrail.openPage({ key, id: key, path: `/${key}`, actor }));
  actor.start();
  return actor;
}

afterEach(() => {
  opened.splice(0).forEach((close) => close());
  supportTrail.clear();
});

describe('support snapshot redaction', () => {
  it('holds none of the secrets of a password change, a payout request, a code step and a bank-details edit', () => {
    localStorage.setItem('auth_token', SECRETS.token);
    // Password change: the policy loaded, the three passwords typed, the save sent and waiting.
    const password = openPage('account.password', passwordChangeMachine);
    password.send(doneEvent('load', { password_policy: { enabled: true, min_length: 8, lowercase: true, uppercase: true, number: true, special: false } }));
    password.send({ type: 'passwordChange.change', field: 'current_password', value: SECRETS.currentPassword });
    password.send({ type: 'passwordChange.save', values: { current_password: SECRETS.currentPassword, password: SECRETS.newPassword, password_confirmation: SECRETS.newPassword } });
    expect(password.getSnapshot().value).toBe('connecting');

    // Payout request: amount and the re-entered password typed.
    const payout = openPage('wallet.payout', payoutRequestMachine);
    payout.send(doneEvent('load', PAYOUT_SETTINGS));
    payout.send({ type: 'payout.change', field: 'amount', value: '73.50' });
    payout.send({ type: 'payout.change', field: 'password', value: SECRETS.payoutPassword });

    // E-mail change in its code step: the code typed, not sent yet.
    const email = openPage('account.email', emailChangeMachine);
    email.send(doneEvent('load', { email: 'old@example.com', email_verified: true }));
    email.send({ type: 'emailChange.change', field: 'password', value: SECRETS.emailPassword });
    email.send({ type: 'emailChange.save', values: { email: 'new@example.com' } });
    email.send(doneEvent('request', CODE_SENT));
    email.send({ type: 'emailChange.change', field: 'otp', value: SECRETS.otp });
    expect(JSON.stringify(email.getSnapshot().value)).toContain('code');

    // Bank details edit: the saved (masked) details loaded, a new IBAN and account number typed.
    const bank = openPage('account.bank', bankDetailsMachine);
    bank.send(doneEvent('load', { bank_details: { account_holder: 'Dana Demo', country: 'ES', iban: SECRETS.iban, account_number: '', routing_code: '', bic: 'CAIXESBBXXX', bank_name: 'CaixaBank' } }));
    bank.send({ type: 'bank.change', field: 'iban', value: SECRETS.iban });
    bank.send({ type: 'bank.change', field: 'account_number', value: SECRETS.accountNumber });
    bank.send({ type: 'bank.change', field: 'password', value: SECRETS.bankPassword });
    supportTrail.recordAnswer({ path: '/api/user/bank_details', query: '', data: { data: { iban: SECRETS.iban, bank_name: 'CaixaBank' } } });

    const snapshot = captureSupportSnapshot(ENV);
    const text = JSON.stringify(snapshot);
    for (const [name, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${name} is in the snapshot`).toBe(false);
    // Each secret once removed where it was, by name; the trail's copies by name or by value.
    expect(snapshot.redacted.length).toBeGreaterThan(8);

    // What support needs is there: where the member was, the states, the values that are not secret.
    expect(supportSnapshotSchema.safeParse(snapshot).success).toBe(true);
    expect(snapshot).toMatchObject({ route: ENV.route, language: 'es', currency: 'EUR', colour_scheme: 'dark', viewport: { width: 360, height: 740 }, app_version: '0.1.0' });
    const page = (key: string) => snapshot.pages.find((p) => p.key === key)!.snapshot as { value: unknown; context: { values: Record<string, string> } };
    expect(page('account.password').value).toBe('connecting');
    expect(page('account.password').context.values).toMatchObject({ current_password: '', password: '', password_confirmation: '' });
    expect(page('wallet.payout').context.values.amount).toBe('73.50');
    expect(page('account.email').context.values).toMatchObject({ email: 'new@example.com', otp: '' });
    expect(page('account.bank').context.values).toMatchObject({ account_holder: 'Dana Demo', bic: 'CAIXESBBXXX', bank_name: 'CaixaBank', iban: '', account_number: '' });
    const types = snapshot.events.map((e) => `${e.actor} ${e.type}`);
    expect(types).toEqual(expect.arrayContaining(['account.password passwordChange.save', 'wallet.payout payout.change', 'account.bank bank.change']));
    localStorage.removeItem('auth_token');
  });

  it('keeps the last 200 events with their times', () => {
    const payout = openPage('wallet.payout', payoutRequestMachine);
    supportTrail.setClock(() => new Date('2026-11-25T12:00:00.000Z'));
    for (let i = 0; i < TRAIL_LIMIT + 30; i++) payout.send({ type: 'payout.change', field: 'amount', value: String(i) });
    const events = captureSupportSnapshot(ENV).events;
    expect(events).toHaveLength(TRAIL_LIMIT);
    expect(events.at(-1)).toMatchObject({ at: '2026-11-25T12:00:00.000Z', actor: 'wallet.payout', type: 'payout.change', event: { value: String(TRAIL_LIMIT + 29) } });
    supportTrail.setClock(() => new Date());
  });

  it('holds the pages the member left in the tab as they were left (memory-kept ones too), where they were open, the newest state of each', () => {
    // A memory-kept page (nothing in sessionStorage): a payout form half typed, then left for the account hub.
    const payout: AnyActorRef = createActor(stubActors(payoutRequestMachine), { inspect: supportTrail.inspect });
    let where = '/member/wallet/request-payout?from=menu';
    const close = supportTrail.openPage({ key: 'wallet.requestPayout', id: 'wallet.requestPayout', path: '/wallet/request-payout', url: () => where, machine: payoutRequestMachine.id, steps: false, actor: payout });
    payout.start();
    payout.send(doneEvent('load', PAYOUT_SETTINGS));
    payout.send({ type: 'payout.change', field: 'amount', value: '73.50' });
    close();
    payout.stop();
    where = '/member/account';
    openPage('account.hub', emailChangeMachine);
    // An older saved state of the same key in the tab gives way to the state it was left in.
    sessionStorage.setItem('upline.page.wallet.requestPayout', JSON.stringify({ v: 1, snapshot: { value: 'old', context: {} }, path: '/wallet/request-payout' }));

    const snapshot = captureSupportSnapshot(ENV);
    expect(snapshot.pages.map((p) => p.key)).toEqual(['account.hub', 'wallet.requestPayout']);
    const left = snapshot.pages[1];
    expect(left).toMatchObject({ url: '/member/wallet/request-payout?from=menu', machine: payoutRequestMachine.id, path: '/wallet/request-payout' });
    expect((left.snapshot as { context: { values: { amount: string } } }).context.values.amount).toBe('73.50');
    expect(supportSnapshotSchema.safeParse(snapshot).success).toBe(true);
    // A page that says so keeps no state per event (a tree of tens of thousands of members), only its value.
    const change = snapshot.events.find((e) => e.actor === 'wallet.requestPayout' && e.type === 'payout.change')!;
    expect(change.value).toBeDefined();
    expect(change.snapshot).toBeUndefined();

    // Opened again, it is the open one; logout forgets what was left.
    sessionStorage.clear();
    supportTrail.clear();
    expect(captureSupportSnapshot(ENV).pages.map((p) => p.key)).toEqual(['account.hub']);
  });

  it.each([
    ['password', 'p4ss-word'], ['current_password', 'p4ss-word'], ['password_confirmation', 'p4ss-word'], ['wallet_password', 'p4ss-word'],
    ['auth_token', 'abc.def.ghi'], ['store_auth_token', 'abc'], ['sso_token', 'abc'], ['idempotencyKey', 'k-123'], ['secret', 'JBSWY3DP'],
    ['otpauth_uri', 'otpauth://totp/x'], ['qr_code', 'data:image/png;base64,AA'], ['otp', '123456'], ['recovery_code', 'ABCDE-12345'],
    ['recovery_codes', ['ABCDE-12345']], ['iban', 'ES91 2100'], ['account_number', '000123'], ['routing_code', '021000021'],
    ['card_number', '4242424242424242'], ['cvc', '123'], ['code', '123 456'],
  ])('removes %s', (field, value) => {
    const { value: out, removed } = redact({ form: { [field]: value } });
    expect(out.form[field]).toEqual(Array.isArray(value) ? [] : '');
    expect(removed).toEqual([`form.${field}`]);
  });

  it.each([
    ['password_policy', { min_length: 8 }], ['login_with_otp', true], ['password_required', true], ['code', 'validation_error'],
    ['recovery_codes_left', 10], ['email', 'dana@example.com'], ['amount', '73.50'], ['bank_name', 'CaixaBank'], ['password_kind', 'account'],
  ])('keeps %s', (field, value) => {
    expect(redact({ [field]: value }).value).toEqual({ [field]: value });
  });

  it('removes the value of an event that changes a sensitive field, and the same text anywhere else', () => {
    const { value } = redact({ event: { type: 'bank.change', field: 'iban', value: 'ES9121000418450200051332' }, message: 'IBAN ES9121000418450200051332 is not valid' });
    expect(value).toEqual({ event: { type: 'bank.change', field: 'iban', value: '' }, message: 'IBAN [redacted] is not valid' });
  });

  it('keeps the messages shown next to a sensitive field (they are not its value), and a setting’s word everywhere else', () => {
    const refused = {
      values: { amount: '50', password: 'Typed-Wrong-1' },
      fieldErrors: { password: 'The password is incorrect.' },
      error: { kind: 'validation', fields: { password: 'The password is incorrect.' }, body: { errors: { password: ['The password is incorrect.'] } } },
      loaded: { password_kind: 'account' },
      route: '/member/account',
    };
    const { value, removed } = redact(refused);
    expect(value).toEqual({ ...refused, values: { amount: '50', password: '' } });
    expect(removed).toEqual(['values.password']);
  });

  it('removes free text a form marks sensitive', () => {
    expect(isSensitiveField('medical_note')).toBe(false);
    markSensitive('medical_note');
    expect(redact({ values: { medical_note: 'asthma', subject: 'Help' } }).value).toEqual({ values: { medical_note: '', subject: 'Help' } });
  });
});
