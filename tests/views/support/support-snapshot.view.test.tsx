/**
 * "Send to support / download diagnostic" as the member meets it: on the unexpected-error screen and the
 * account hub's panel; sending shows the reference support asks for, a failure offers retry, the download
 * is a JSON file without the secrets of the page open at that moment.
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { ConnectionError } from '../../../src/api/errors';
import { supportApi } from '../../../src/api/support-snapshot';
import { supportTrail } from '../../../src/lib/support-trail';
import { passwordChangeMachine } from '../../../src/machines/account/password-change.machine';
import { RouterErrorBoundary } from '../../../src/views/components/router-error';
import { SupportSnapshotPanel } from '../../../src/views/support/support-snapshot.view';
import { stubActors } from '../../support/paths';
import { renderUi } from '../../support/render-ui';

const STORED = { snapshot: { id: 'Zx81kQ2mP0aLq', reason: 'error', route: '/member/account', size_bytes: 5120, created_at: '2026-11-25T12:00:00.000Z' } };

afterEach(() => vi.restoreAllMocks());

describe('support snapshot panel', () => {
  it('is offered on the unexpected-error screen and sends the snapshot with the error as its reason', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const send = vi.spyOn(supportApi, 'sendSnapshot').mockResolvedValue(STORED as never);
    function Boom(): never {
      throw new Error('Cannot read properties of undefined');
    }
    renderUi(
      <RouterErrorBoundary onReload={() => {}}>
        <Boom />
      </RouterErrorBoundary>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Send to support' }));
    expect(await screen.findByText('Zx81kQ2mP0aLq')).toBeInTheDocument();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0][0]).toMatchObject({ kind: 'upline.support-snapshot', reason: 'error', route: { path: location.pathname } });
  });

  it('says it was not sent on a lost connection, and sends again on retry', async () => {
    const send = vi.spyOn(supportApi, 'sendSnapshot').mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce(STORED as never);
    renderUi(<SupportSnapshotPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Send to support' }));
    expect(await screen.findByText(/No connection: it was not sent/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Zx81kQ2mP0aLq')).toBeInTheDocument();
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('downloads the diagnostic as JSON, without the password being typed on an open page', async () => {
    const actor = createActor(stubActors(passwordChangeMachine), { inspect: supportTrail.inspect });
    const close = supportTrail.openPage({ key: 'account.password', id: 'account.password', path: '/account/password', actor });
    actor.start();
    actor.send({ type: 'passwordChange.change', field: 'current_password', value: 'Typed-Secret-2026' });
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => (blobs.push(b), 'blob:x')) as never;
    URL.revokeObjectURL = vi.fn();
    renderUi(<SupportSnapshotPanel />, { lng: 'es' });
    await userEvent.click(screen.getByRole('button', { name: 'Descargar diagnóstico' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const text = await blobs[0].text();
    expect(blobs[0].type).toBe('application/json');
    expect(JSON.parse(text)).toMatchObject({ kind: 'upline.support-snapshot', reason: 'member', pages: [{ key: 'account.password' }] });
    expect(text).not.toContain('Typed-Secret-2026');
    close();
    actor.stop();
    supportTrail.clear();
  });
});
