import { fireEvent, screen } from '@testing-library/react';
import { Router, useLocation } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, fromPromise } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { SubmitInput } from '../../../src/machines/form.machine';
import { emailChangeMachine, phoneChangeMachine } from '../../../src/machines/account/contact-change.machine';
import type { ContactDetails, EmailChangeValues, EmailSettings, PhoneSettings } from '../../../src/schemas/contact.schema';
import { EmailCodeView, EmailView, PhoneView } from '../../../src/views/account/contact.view';
import { renderUi } from '../../support/render-ui';

const SENT = { message: 'sent', destination: 'n***@example.org', expires_in: 600, resend_in: 30 };
const DONE: ContactDetails = { email: 'new@example.org', mobile_code: '+1', mobile: '5550100' };
const taken = () => new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { email: ['validation:emailTaken'] } });

function showEmail(
  sendCode: () => Promise<typeof SENT>,
  lng = 'en',
  load: () => Promise<EmailSettings> = async () => ({ email: 'old@example.org' }),
  verify = vi.fn(async () => DONE),
) {
  const requested = vi.fn((input: SubmitInput<EmailChangeValues, EmailSettings>) => input);
  const actor = createActor(
    emailChangeMachine.provide({
      actors: {
        load: fromPromise(load),
        sendCode: fromPromise(async ({ input }) => {
          requested(input as SubmitInput<EmailChangeValues, EmailSettings>);
          return sendCode();
        }),
        submit: fromPromise(verify),
      },
    }),
  ).start();
  const memory = memoryLocation({ path: '/member/account/email', record: true });
  // Both URLs of the flow on one actor, as the route table gives them.
  renderUi(
    <Router hook={memory.hook}>
      <Both actor={actor} />
    </Router>,
    { lng },
  );
  return { actor, memory, requested, verify };
}

/** The two route entries of the flow on one actor: the address page, and the code page at …/otp. */
function Both({ actor }: { actor: Parameters<typeof EmailView>[0]['actor'] }) {
  const [location] = useLocation();
  return location.endsWith('/otp') ? <EmailCodeView actor={actor} /> : <EmailView actor={actor} />;
}

async function fillEmail(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText('New e-mail address'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/Account password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
}

describe('e-mail change pages', () => {
  it('shows the current address; an invalid address and a missing password are field errors, nothing is sent', async () => {
    const { requested } = showEmail(async () => SENT);
    expect(await screen.findByText('Current address: old@example.org')).toBeTruthy();
    await fillEmail('nope', '');
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(screen.getByLabelText('New e-mail address').closest('.mantine-TextInput-root')).toHaveTextContent('Enter a valid e-mail address.');
    expect(requested).not.toHaveBeenCalled();
    expect((screen.getByLabelText('New e-mail address') as HTMLInputElement).value).toBe('nope');
  });

  it('a taken address is shown under the field and what was typed stays', async () => {
    showEmail(async () => {
      throw taken();
    });
    await fillEmail('taken@example.org', 'Account-pass-1');
    expect(await screen.findByText('This e-mail is already registered.')).toBeTruthy();
    expect((screen.getByLabelText('New e-mail address') as HTMLInputElement).value).toBe('taken@example.org');
    expect((screen.getByLabelText(/Account password/) as HTMLInputElement).value).toBe('Account-pass-1');
  });

  it('once the code is sent the flow is at …/otp; the right code applies the change and goes back with the new address', async () => {
    const { memory, requested, verify } = showEmail(async () => SENT);
    await fillEmail('new@example.org', 'Account-pass-1');
    expect(await screen.findByText('Confirm your new e-mail address')).toBeTruthy();
    expect(memory.history?.at(-1)).toBe('/member/account/email/otp');
    expect(requested).toHaveBeenCalledWith(expect.objectContaining({ values: { email: 'new@example.org' }, password: 'Account-pass-1' }));
    expect(screen.getByTestId('resend-countdown')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Your e-mail address is now new@example.org.')).toBeTruthy();
    expect(memory.history?.at(-1)).toBe('/member/account/email');
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('a wrong code is shown under the code; "Use another address" goes back with the address kept', async () => {
    const verify = vi.fn(async (): Promise<ContactDetails> => {
      throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { otp: ['validation:otpInvalid'] } });
    });
    const { memory } = showEmail(async () => SENT, 'en', undefined, verify);
    await fillEmail('new@example.org', 'Account-pass-1');
    fireEvent.change(await screen.findByLabelText('Verification code'), { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('This code is not correct.')).toBeTruthy();
    expect((screen.getByLabelText('Verification code') as HTMLInputElement).value).toBe('111111');
    fireEvent.click(screen.getByRole('button', { name: 'Use another address' }));
    expect(await screen.findByLabelText('New e-mail address')).toBeTruthy();
    expect(memory.history?.at(-1)).toBe('/member/account/email');
    expect((screen.getByLabelText('New e-mail address') as HTMLInputElement).value).toBe('new@example.org');
  });

  it('a connection failure offers a retry and keeps what was typed', async () => {
    let fail = true;
    showEmail(async () => {
      if (fail) throw new ConnectionError();
      return SENT;
    });
    await fillEmail('new@example.org', 'Account-pass-1');
    expect(await screen.findByText('We could not reach the server. Check your connection and try again.')).toBeTruthy();
    expect((screen.getByLabelText('New e-mail address') as HTMLInputElement).value).toBe('new@example.org');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Confirm your new e-mail address')).toBeTruthy();
  });

  it('a failed load offers a retry', async () => {
    let fail = true;
    showEmail(async () => SENT, 'en', async () => {
      if (fail) throw new ConnectionError();
      return { email: 'old@example.org' };
    });
    const retry = await screen.findByRole('button', { name: /try again|retry/i });
    fail = false;
    fireEvent.click(retry);
    expect(await screen.findByText('Current address: old@example.org')).toBeTruthy();
  });

  it('reads in Spanish', async () => {
    showEmail(async () => SENT, 'es');
    expect(await screen.findByText('Dirección actual: old@example.org')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Enviar código' })).toBeTruthy();
  });

  it('the code page opened without a code sent goes to the address page', async () => {
    const actor = createActor(emailChangeMachine.provide({ actors: { load: fromPromise(async (): Promise<EmailSettings> => ({ email: 'old@example.org' })) } })).start();
    const memory = memoryLocation({ path: '/member/account/email/otp', record: true });
    renderUi(
      <Router hook={memory.hook}>
        <Both actor={actor} />
      </Router>,
    );
    expect(await screen.findByText('Current address: old@example.org')).toBeTruthy();
    expect(memory.history?.at(-1)).toBe('/member/account/email');
  });
});

describe('mobile change page', () => {
  it('offers the phone codes with the current one chosen, and shows a taken number under the field', async () => {
    const settings: PhoneSettings = {
      mobile_code: '+1',
      mobile: '5550100',
      countries: [
        { id: 1, name: 'United States', iso_code_2: 'US', iso_code_3: 'USA', phone_code: '+1' },
        { id: 2, name: 'United Kingdom', iso_code_2: 'GB', iso_code_3: 'GBR', phone_code: '+44' },
      ],
    };
    const actor = createActor(
      phoneChangeMachine.provide({
        actors: {
          load: fromPromise(async () => settings),
          sendCode: fromPromise(async (): Promise<typeof SENT> => {
            throw new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { mobile: ['validation:phoneTaken'] } });
          }),
        },
      }),
    ).start();
    renderUi(<PhoneView actor={actor} />);
    expect(await screen.findByText('Current number: +1 5550100')).toBeTruthy();
    expect((screen.getByLabelText('Code') as HTMLSelectElement).value).toBe('+1');
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: '+44' } });
    fireEvent.change(screen.getByLabelText('New mobile number'), { target: { value: '700900123' } });
    fireEvent.change(screen.getByLabelText(/Account password/), { target: { value: 'Account-pass-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    const message = await screen.findByText('This mobile number is already registered.');
    expect(message).toBeTruthy();
    expect((screen.getByLabelText('New mobile number') as HTMLInputElement).value).toBe('700900123');
    expect((screen.getByLabelText('Code') as HTMLSelectElement).value).toBe('+44');
  });
});
