import { fireEvent, screen } from '@testing-library/react';
import { createActor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { renderUi } from '../../support/render-ui';

const api = vi.hoisted(() => ({ status: vi.fn(), setup: vi.fn(), confirm: vi.fn(), disable: vi.fn(), renewRecoveryCodes: vi.fn() }));
vi.mock('../../../src/api/two-factor', () => ({ twoFactorApi: api }));

const { twoFactorSettingsMachine } = await import('../../../src/machines/account/two-factor.machine');
const { TwoFactorView } = await import('../../../src/views/account/two-factor.view');

const OFF = { enabled: false, enabled_at: null, recovery_codes_left: 0 };
const ON = { enabled: true, enabled_at: '2026-11-25T10:00:00.000Z', recovery_codes_left: 7 };
const SETUP = { secret: 'ABCD EFGH IJKL MNOP', otpauth_uri: 'otpauth://totp/Upline:jdoe?secret=ABCDEFGHIJKLMNOP', qr_code: 'data:image/png;base64,AAAA' };
const CODES = { recovery_codes: Array.from({ length: 10 }, (_, i) => `AAAA${i + 2}-BBBBB`) };

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
});

function show(lng: 'en' | 'es' = 'en', colorScheme: 'light' | 'dark' = 'light') {
  const forceLogout = vi.fn();
  const actor = createActor(twoFactorSettingsMachine.provide({ actions: { forceLogout: () => forceLogout() } })).start();
  renderUi(<TwoFactorView actor={actor} />, { lng, colorScheme });
  return { actor, forceLogout };
}

describe('two-factor settings page', () => {
  it('off: turning it on shows the QR code and key after the password, then the recovery codes once', async () => {
    api.status.mockResolvedValueOnce(OFF).mockResolvedValueOnce({ ...ON, recovery_codes_left: 10 });
    api.setup.mockResolvedValue(SETUP);
    api.confirm.mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { code: ['validation:twoFactorCodeInvalid'] } }));
    api.confirm.mockResolvedValueOnce(CODES);
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Account password'), { target: { value: 'Secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('img', { name: 'QR code to add this account to an authenticator app' })).toHaveAttribute('src', SETUP.qr_code);
    expect(screen.getByText(SETUP.secret)).toBeTruthy();
    const code = screen.getByLabelText('6-digit code from the app');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByText('This code is not correct, or it was already used. Wait for the next one.')).toBeTruthy();
    expect(screen.getByLabelText('6-digit code from the app')).toHaveValue('123456');
    fireEvent.change(screen.getByLabelText('6-digit code from the app'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByRole('heading', { name: 'Your recovery codes' })).toBeTruthy();
    for (const c of CODES.recovery_codes) expect(screen.getByText(c)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(await screen.findByText('10 unused recovery codes left.')).toBeTruthy();
    expect(screen.queryByText(CODES.recovery_codes[0])).toBeNull();
    expect(screen.queryByText(SETUP.secret)).toBeNull();
  });

  it('on, in Spanish and the dark scheme: status, and turning it off with a recovery code', async () => {
    api.status.mockResolvedValue(ON);
    api.disable.mockResolvedValue({ message: 'off' });
    show('es', 'dark');
    expect(await screen.findByText('Te quedan 7 códigos de recuperación sin usar.')).toBeTruthy();
    expect(screen.getByText('Activada')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Desactivar' }));
    fireEvent.change(screen.getByLabelText('Contraseña de la cuenta'), { target: { value: 'Secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Usar un código de recuperación' }));
    fireEvent.change(screen.getByLabelText('Código de recuperación'), { target: { value: 'abcde-23456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Desactivar' }));
    expect(await screen.findByText('Desactivada')).toBeTruthy();
    expect(api.disable).toHaveBeenCalledWith({ password: 'Secret-1', recovery_code: 'ABCDE23456' });
  });

  it('a connection or server failure while loading shows its error with a retry; a 401 signs out', async () => {
    api.status.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    const { forceLogout } = show();
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(forceLogout).toHaveBeenCalledTimes(1));
    expect(api.status).toHaveBeenCalledTimes(3);
  });

  it('a failed request on a step can be retried without retyping', async () => {
    api.status.mockResolvedValue(ON);
    api.renewRecoveryCodes.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce(CODES);
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'New recovery codes' }));
    fireEvent.change(screen.getByLabelText('Account password'), { target: { value: 'Secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'New recovery codes' }));
    expect(await screen.findByText('We could not reach the server. Check your connection and try again.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Your recovery codes' })).toBeTruthy();
    expect(api.renewRecoveryCodes).toHaveBeenLastCalledWith('Secret-1');
  });
});
