/**
 * Toasts raised before the toasts' chunk (store and host) has arrived: nothing here imports that chunk, so
 * what src/lib/toast.ts is asked waits for it and is handed over, in order, once <Toasts /> has fetched it.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { clearToasts, hideToast, showToast, updateToast } from '../../src/lib/toast';
import { Toasts } from '../../src/views/components/toasts';
import { renderUi } from '../support/render-ui';

describe('toasts raised before their code has arrived', () => {
  it('are shown, updated, hidden and replaced in the order they were asked for', async () => {
    act(() => {
      showToast({ kind: 'info', message: 'Link copied' });
      const id = showToast({ kind: 'loading', message: 'Signing out…' });
      showToast({ id: 'brief', kind: 'info', message: 'Shown and hidden' });
      hideToast('brief');
      updateToast(id, { kind: 'error', message: 'Signing out failed' });
    });
    renderUi(<Toasts />);
    const toast = (await screen.findByText('Signing out failed')).closest('[role="alert"]') as HTMLElement;
    expect(within(toast).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(screen.queryByText('Signing out…')).not.toBeInTheDocument();
    expect(screen.queryByText('Shown and hidden')).not.toBeInTheDocument();
    expect(screen.getByText('Link copied')).toBeInTheDocument();
    // The store is there now: a success replaces what is on screen.
    act(() => void showToast({ kind: 'success', message: 'Signed out' }));
    expect(screen.getByText('Signed out')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Signing out failed')).not.toBeInTheDocument());
    act(() => clearToasts());
  });
});
