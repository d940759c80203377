import * as z from 'zod/mini';
import { ApiError, ConnectionError } from '../../src/api/errors';
import { createFormMachine } from '../../src/machines/form.machine';
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';

/** A form with every step on: loaded, password re-entry, one-time code, idempotency key. */
const machine = stubActors(
  createFormMachine({
    id: 'emailChange',
    initialValues: { email: '' },
    load: async () => ({ email: 'old@example.com' }),
    valuesFrom: (loaded) => ({ email: loaded.email }),
    schema: z.object({ email: z.string().check(z.trim(), z.email('validation:invalidEmail')) }),
    submit: async () => ({ ok: true }),
    sendCode: async () => SENT,
    steps: { password: true, code: true, idempotent: true },
  }),
);

const SENT = { message: 'sent', destination: 'n***@example.com', expires_in: 600, resend_in: 1 };
const validation = (field: string, key: string) => new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { [field]: [key] } });
const failures = memberCallFailures;

describePaths('form machine with every step on', {
  machine,
  events: [
    doneEvent('load', { email: 'old@example.com' }),
    errorEvent('load', new ConnectionError()),
    errorEvent('load', new ApiError('server', 500, {})),
    errorEvent('load', new ApiError('unauthorized', 401, {})),
    { type: 'form.change', field: 'password', value: 'secret' },
    { type: 'form.change', field: 'otp', value: '123456' },
    { type: 'form.save', values: { email: 'not-an-email' } },
    { type: 'form.save', values: { email: 'new@example.com' } },
    doneEvent('request', SENT),
    ...failures('request'),
    errorEvent('request', validation('email', 'validation:emailTaken')),
    doneEvent('verify', { ok: true }),
    ...failures('verify'),
    errorEvent('verify', validation('otp', 'validation:otpInvalid')),
    errorEvent('verify', validation('otp', 'validation:otpExpired')),
    errorEvent('verify', validation('otp', 'validation:otpTooManyAttempts')),
    errorEvent('verify', new ApiError('badRequest', 429, { error_code: 'rate_limited' })),
    doneEvent('resend', SENT),
    ...failures('resend'),
    errorEvent('resend', new ApiError('badRequest', 429, { error_code: 'rate_limited' })),
  ],
  // Identified by status, what the steps depend on (password and code given, saved once), not by data.
  serializeState: (s) =>
    JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.password !== '', s.context.values.otp !== '', s.context.values.email, s.context.resendIn]),
});
