/**
 * Binning from a mail list: the message goes to the bin, the list and the badge follow, and the toast's
 * Undo restores it; a failed call says so. Restoring from the bin does the same without Undo.
 */
import { act, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { clearToasts } from '../../../src/lib/toast';
import ToastsHost from '../../../src/views/components/toasts-host';
import { binWithUndo, restoreFromBin } from '../../../src/app/member/routes/mail.routes';
import type { MailListItem } from '../../../src/schemas/mail.schema';
import { localeResources, renderUi } from '../../support/render-ui';

const item = { id: 4, thread_id: 9, box: 'inbox', subject: 'S', snippet: '', party: { username: 'a', first_name: 'A', last_name: null, avatar: null, company: false }, read: true, attachments: 0, created_at: '2026-01-01T00:00:00.000Z' } as MailListItem;

function actions(over: Partial<Record<'bin' | 'restore', () => Promise<unknown>>> = {}) {
  return { bin: vi.fn(over.bin ?? (() => Promise.resolve({ message: 'ok' }))), restore: vi.fn(over.restore ?? (() => Promise.resolve({ message: 'ok' }))), markUnread: vi.fn(), download: vi.fn(), recipients: vi.fn() };
}

// The toasts of the route's actions read the app's i18next instance.
beforeAll(async () => {
  await i18next.init({ lng: 'en', fallbackLng: 'en', resources: localeResources(), ns: ['mail', 'common'], initAsync: false });
});
afterEach(() => act(() => clearToasts()));

describe('bin with undo', () => {
  it('bins, reloads the list and the badge, and Undo restores it', async () => {
    renderUi(<ToastsHost />);
    const reload = vi.fn();
    const env = { refreshBadge: vi.fn() };
    const a = actions();
    await act(() => binWithUndo(item, reload, env, a as never));
    expect(a.bin).toHaveBeenCalledWith(4);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(env.refreshBadge).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Moved to the bin.')).toBeTruthy();
    const undo = await screen.findByRole('button', { name: 'Undo' });
    await act(async () => undo.click());
    await waitFor(() => expect(a.restore).toHaveBeenCalledWith(4));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(2));
  });

  it('a failed bin or restore says so and changes nothing', async () => {
    renderUi(<ToastsHost />);
    const reload = vi.fn();
    const a = actions({ bin: () => Promise.reject(new Error('offline')), restore: () => Promise.reject(Object.assign(new Error('slow down'), { status: 429 })) });
    await act(() => binWithUndo(item, reload, { refreshBadge: vi.fn() }, a as never));
    expect(await screen.findByText('That did not work. Check your connection and try again.')).toBeTruthy();
    await act(() => restoreFromBin(item, reload, { refreshBadge: vi.fn() }, a as never));
    expect(await screen.findByText('You sent many messages in a short time. Wait a few minutes and try again.')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });

  it('restoring from the bin reloads and says the message is back', async () => {
    renderUi(<ToastsHost />);
    const reload = vi.fn();
    const a = actions();
    await act(() => restoreFromBin(item, reload, { refreshBadge: vi.fn() }, a as never));
    expect(reload).toHaveBeenCalled();
    expect(await screen.findByText('The message is back.')).toBeTruthy();
  });
});
