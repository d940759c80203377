import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SsoStatusView } from '../../src/views/public/sso.view';
import { NotFoundView } from '../../src/views/public/not-found.view';
import { renderUi } from '../support/render-ui';

describe('SsoStatusView', () => {
  it('while connecting shows a loader and a message, no retry', () => {
    renderUi(<SsoStatusView status="connecting" onRetry={() => {}} />);
    expect(screen.getByRole('status')).toHaveTextContent('Connecting to your store account…');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('connection error shows the connection-error view; retry calls back', async () => {
    const onRetry = vi.fn();
    renderUi(<SsoStatusView status="connectionError" onRetry={onRetry} />);
    expect(screen.getByRole('heading', { name: 'No connection' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('server error shows the server-error view; retry calls back', async () => {
    const onRetry = vi.fn();
    renderUi(<SsoStatusView status="serverError" onRetry={onRetry} />, { lng: 'es' });
    expect(screen.getByRole('heading', { name: 'Algo salió mal' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});

describe('NotFoundView', () => {
  it('explains the page is missing and links back home', () => {
    renderUi(<NotFoundView />);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });
});
