/**
 * /member/account/email and /member/account/phone with their /otp steps, declared on the form factory:
 * the new address (or phone code + number) and the re-entered account password ask for a code
 * (PUT /api/user/email|phone), which goes to the NEW address or number; the code step (resend countdown,
 * expired, too many tries) sends it to POST /api/user/email|phone/verify, and only then does the change
 * apply. A taken address, a wrong password or the current address come back as field errors; what was
 * typed stays.
 *
 * One actor for both URLs of a change: /email and /email/otp are two route entries sharing this machine
 * and one saved-state key, so the page at /otp starts from the snapshot /email left (in its code step)
 * and a reload of either URL finds the same state. Each view shows only the states that belong to its
 * URL and sends the member to the other one otherwise (the address page once a code is out, the code
 * page back to the address once the change applied or was cancelled): the URL always says where the
 * flow is. The saved state holds no password and no code; after a reload the code step asks for a new
 * code without the password (POST …/resend: the pending change was re-authenticated when asked for).
 */
import * as z from 'zod/mini';
import { contactApi, type ContactKind } from '../../api/contact';
import { emailField, mobileField, phoneCodeField } from '../../schemas/auth-fields.schema';
import type { ContactDetails, EmailChangeValues, EmailSettings, PhoneChangeValues, PhoneSettings } from '../../schemas/contact.schema';
import { createFormMachine, type SubmitInput } from '../form.machine';

/** The first request with the password; a resend after a reload (no password kept) asks for a new code of the pending change. */
const askOrResend = <V>(kind: ContactKind, ask: (values: V, password: string) => ReturnType<typeof contactApi.requestEmail>) =>
  ({ values, password }: SubmitInput<V, unknown>) => (password ? ask(values, password) : contactApi.resend(kind));

export const emailChangeMachine = createFormMachine<EmailChangeValues, EmailSettings, ContactDetails, { values: EmailChangeValues; result: ContactDetails }, 'emailChange'>({
  id: 'emailChange',
  domain: 'emailChange',
  initialValues: { email: '' },
  load: () => contactApi.email(),
  schema: z.object({ email: emailField }),
  sendCode: askOrResend<EmailChangeValues>('email', (values, password) => contactApi.requestEmail({ email: values.email.trim(), password })),
  submit: ({ code }) => contactApi.verify('email', code ?? ''),
  steps: { password: true, code: true },
  successKey: 'account:email.changed',
});

export const phoneChangeMachine = createFormMachine<PhoneChangeValues, PhoneSettings, ContactDetails, { values: PhoneChangeValues; result: ContactDetails }, 'phoneChange'>({
  id: 'phoneChange',
  domain: 'phoneChange',
  initialValues: { mobile_code: '', mobile: '' },
  load: () => contactApi.phone(),
  // The current phone code is chosen at first; the number is typed.
  valuesFrom: (loaded, values) => ({ mobile_code: values.mobile_code || loaded.mobile_code || loaded.countries[0]?.phone_code || '', mobile: values.mobile }),
  schema: z.object({ mobile_code: phoneCodeField, mobile: mobileField }),
  sendCode: askOrResend<PhoneChangeValues>('phone', (values, password) => contactApi.requestPhone({ mobile_code: values.mobile_code, mobile: values.mobile.trim(), password })),
  submit: ({ code }) => contactApi.verify('phone', code ?? ''),
  steps: { password: true, code: true },
  successKey: 'account:phone.changed',
});
