/**
 * Sample answers for path tests of form machines (createFormMachine): what the load, the request and the
 * code step's verify and resend can answer. The events are aimed at the factory's invoke ids.
 */
import { ApiError } from '../../src/api/errors';
import { doneEvent, errorEvent, memberCallFailures } from './paths';

export const CODE_SENT = { message: 'sent', destination: 'n***@example.com', expires_in: 600, resend_in: 1 };

/** A 422 refusal naming `field`. */
export const refusal = (field: string, key: string) => new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { [field]: [key] } });

/** What the code step's calls answer: the code sent or refused (`field` `key`), verified (`verified`) or not, resent or not. */
export const codeStepAnswers = (field: string, key: string, verified: unknown) => [
  doneEvent('request', CODE_SENT),
  ...memberCallFailures('request'),
  errorEvent('request', refusal(field, key)),
  doneEvent('verify', verified),
  ...memberCallFailures('verify'),
  errorEvent('verify', refusal('otp', 'validation:otpInvalid')),
  errorEvent('verify', refusal('otp', 'validation:otpExpired')),
  errorEvent('verify', refusal('otp', 'validation:otpTooManyAttempts')),
  errorEvent('verify', new ApiError('badRequest', 429, { error_code: 'rate_limited' })),
  doneEvent('resend', CODE_SENT),
  ...memberCallFailures('resend'),
  errorEvent('resend', new ApiError('badRequest', 429, { error_code: 'rate_limited' })),
];
