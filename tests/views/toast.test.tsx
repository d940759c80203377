import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, promiseToast, showToast } from '../../src/lib/toast';
import { Toasts } from '../../src/views/components/toasts';
import ToastsHost from '../../src/views/components/toasts-host';
import { renderUi, setViewportWidth } from '../support/render-ui';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});
afterEach(() => {
  act(() => clearToasts());
  vi.useRealTimers();
  setViewportWidth(1024);
});

/** Lets time pass in small steps so timers scheduled by re-renders (exit transitions) run too. */
function advance(ms: number) {
  for (let passed = 0; passed < ms; passed += 50) {
    act(() => {
      vi.advanceTimersByTime(Math.min(50, ms - passed));
    });
  }
}

/** Exit transitions take 250 ms. */
const FADE = 300;

function toast(text: string) {
  return screen.getByText(text).closest('[role="alert"], [role="status"]') as HTMLElement;
}

describe('toasts', () => {
  it('success: closable, replaces toasts on screen, stays 5 s', () => {
    renderUi(<ToastsHost />);
    act(() => void showToast({ kind: 'info', message: 'Copied to clipboard' }));
    act(() => void showToast({ kind: 'success', message: 'Payout requested', title: 'Done' }));
    advance(FADE);
    expect(screen.queryByText('Copied to clipboard')).not.toBeInTheDocument();
    const t = toast('Payout requested');
    expect(within(t).getByText('Done')).toBeInTheDocument();
    expect(within(t).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    advance(4500 - FADE);
    expect(screen.getByText('Payout requested')).toBeInTheDocument();
    advance(500 + FADE);
    expect(screen.queryByText('Payout requested')).not.toBeInTheDocument();
  });

  it('error: announced as an alert, closable with its button, replaces a previous success', async () => {
    renderUi(<ToastsHost />);
    act(() => void showToast({ kind: 'success', message: 'Saved' }));
    act(() => void showToast({ kind: 'error', message: 'This feature is not available in the demo.' }));
    advance(FADE);
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
    const t = toast('This feature is not available in the demo.');
    expect(t).toHaveAttribute('role', 'alert');
    act(() => within(t).getByRole('button', { name: 'Close' }).click());
    advance(500);
    expect(screen.queryByText('This feature is not available in the demo.')).not.toBeInTheDocument();
  });

  it('info and warning: not closable, gone after 2 s, and they do not clear other toasts', () => {
    renderUi(<ToastsHost />);
    act(() => void showToast({ kind: 'success', message: 'Saved' }));
    act(() => void showToast({ kind: 'info', message: 'Link copied' }));
    act(() => void showToast({ kind: 'warning', message: 'Your session ends soon' }));
    expect(screen.getByText('Saved')).toBeInTheDocument();
    expect(within(toast('Link copied')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(toast('Your session ends soon')).queryByRole('button')).not.toBeInTheDocument();
    advance(1800);
    expect(screen.getByText('Link copied')).toBeInTheDocument();
    advance(200 + FADE);
    expect(screen.queryByText('Link copied')).not.toBeInTheDocument();
    expect(screen.queryByText('Your session ends soon')).not.toBeInTheDocument();
    expect(screen.getByText('Saved')).toBeInTheDocument();
  });

  it('loading stays until updated; a promise toast turns into success in place', async () => {
    renderUi(<ToastsHost />);
    let resolve!: (v: string) => void;
    const pending = new Promise<string>((r) => (resolve = r));
    let result: Promise<string>;
    act(() => {
      result = promiseToast(pending, { loading: 'Sending…', success: (v) => `Sent to ${v}`, error: 'Sending failed' });
    });
    expect(screen.getByText('Sending…')).toBeInTheDocument();
    advance(10000);
    expect(screen.getByText('Sending…')).toBeInTheDocument();
    await act(async () => {
      resolve('ana@example.com');
      await result;
    });
    expect(screen.queryByText('Sending…')).not.toBeInTheDocument();
    expect(screen.getAllByText(/Sen/)).toHaveLength(1);
    expect(within(toast('Sent to ana@example.com')).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('a failed promise toast turns into an error and the caller still sees the rejection', async () => {
    renderUi(<ToastsHost />);
    let caught: unknown;
    await act(async () => {
      await promiseToast(Promise.reject(new Error('offline')), {
        loading: 'Sending…',
        success: 'Sent',
        error: (e) => `Sending failed: ${(e as Error).message}`,
      }).catch((e) => (caught = e));
    });
    expect((caught as Error).message).toBe('offline');
    expect(toast('Sending failed: offline')).toHaveAttribute('role', 'alert');
    expect(screen.queryByText('Sending…')).not.toBeInTheDocument();
  });

  it('bottom-centre on narrow screens, top-right on wider ones, at most 560 px wide', () => {
    setViewportWidth(360);
    const narrow = renderUi(<ToastsHost />);
    act(() => void showToast({ kind: 'info', message: 'On a phone' }));
    const phoneContainer = screen.getByText('On a phone').closest('[data-position]')!;
    expect(phoneContainer).toHaveAttribute('data-position', 'bottom-center');
    narrow.unmount();
    act(() => clearToasts());

    setViewportWidth(1280);
    renderUi(<ToastsHost />);
    act(() => void showToast({ kind: 'info', message: 'On a desktop' }));
    const desktopContainer = screen.getByText('On a desktop').closest('[data-position]') as HTMLElement;
    expect(desktopContainer).toHaveAttribute('data-position', 'top-right');
    expect(desktopContainer.style.getPropertyValue('--notifications-container-width')).toMatch(/560px|35rem/);
  });

  it('close button is labelled in the active language', () => {
    renderUi(<ToastsHost />, { lng: 'es' });
    act(() => void showToast({ kind: 'success', message: 'Guardado' }));
    expect(within(toast('Guardado')).getByRole('button', { name: 'Cerrar' })).toBeInTheDocument();
  });

  it('<Toasts /> loads its host lazily and then shows toasts raised before it arrived', async () => {
    act(() => void showToast({ kind: 'error', message: 'Raised early' }));
    renderUi(<Toasts />);
    expect(await screen.findByText('Raised early')).toBeInTheDocument();
  });
});
