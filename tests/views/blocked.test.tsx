import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AccountBlockedView } from '../../src/views/public/account-blocked.view';
import { DemoBlockedView } from '../../src/views/public/demo-blocked.view';
import { renderUi } from '../support/render-ui';

const company = {
  name: 'Acme Network',
  support_email: 'help@acme.example',
  email: 'office@acme.example',
  phone: '+1 (555) 010-2030',
};

function link(name: RegExp | string) {
  return screen.getByRole('link', { name });
}

describe('AccountBlockedView', () => {
  const props = { company, authenticated: true, busy: false, onTryAgain: () => {}, onLogout: () => {} };

  it('shows the denied illustration, heading and how to contact support by e-mail, phone and messaging apps', () => {
    const { container } = renderUi(<AccountBlockedView {...props} />);
    expect(container.querySelector('img')).toHaveAttribute('src', '/images/denied.svg');
    expect(screen.getByRole('heading', { name: 'Your account is blocked' })).toBeInTheDocument();
    expect(screen.getByText(/please contact our support team/)).toBeInTheDocument();
    expect(link('E-mail: help@acme.example')).toHaveAttribute('href', 'mailto:help@acme.example');
    expect(link('Phone: +1 (555) 010-2030')).toHaveAttribute('href', 'tel:+15550102030');
    const whatsapp = link('WhatsApp: +1 (555) 010-2030');
    expect(whatsapp).toHaveAttribute('href', 'https://wa.me/15550102030');
    expect(whatsapp).toHaveAttribute('target', '_blank');
    expect(whatsapp).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link('Telegram: +1 (555) 010-2030')).toHaveAttribute('href', 'https://t.me/+15550102030');
  });

  it('uses the company e-mail when the support e-mail is not a valid address', () => {
    renderUi(<AccountBlockedView {...props} company={{ ...company, support_email: 'support at acme' }} />);
    expect(link(/^E-mail:/)).toHaveAttribute('href', 'mailto:office@acme.example');
    expect(screen.queryByText('support at acme')).not.toBeInTheDocument();
  });

  it('without a phone there are no phone or messaging links', () => {
    renderUi(<AccountBlockedView {...props} company={{ ...company, phone: null }} />);
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('Try again and Logout call back', async () => {
    const onTryAgain = vi.fn();
    const onLogout = vi.fn();
    renderUi(<AccountBlockedView {...props} onTryAgain={onTryAgain} onLogout={onLogout} />);
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onTryAgain).toHaveBeenCalledOnce();
    expect(onLogout).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('offers Logout only to signed-in members', () => {
    renderUi(<AccountBlockedView {...props} authenticated={false} />);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it('while busy shows the loading overlay and disables the buttons', () => {
    renderUi(<AccountBlockedView {...props} busy />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeDisabled();
  });

  it('renders in Spanish', () => {
    renderUi(<AccountBlockedView {...props} />, { lng: 'es' });
    expect(screen.getByRole('heading', { name: 'Tu cuenta está bloqueada' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Intentar de nuevo' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cerrar sesión' })).toBeInTheDocument();
    expect(link('Correo electrónico: help@acme.example')).toBeInTheDocument();
  });
});

describe('DemoBlockedView', () => {
  const demoInfo = {
    contact_email: 'sales@upline.example',
    contact_phone: '+34 600 111 222',
    contact_skype: 'upline.sales',
    messenger_name: 'Laura',
    privacy_policy_url: 'https://upline.example/privacy',
  };
  const props = { demoInfo, company, authenticated: false, busy: false, onTryAgain: () => {}, onLogout: () => {} };

  it('shows the support illustration, heading, contact person and messaging links from the demo contact phone', () => {
    const { container } = renderUi(<DemoBlockedView {...props} />);
    expect(container.querySelector('img')).toHaveAttribute('src', '/images/support.svg');
    expect(screen.getByRole('heading', { name: 'Your demo access has ended' })).toBeInTheDocument();
    expect(screen.getByText(/Ask for Laura\./)).toBeInTheDocument();
    expect(link('E-mail: sales@upline.example')).toHaveAttribute('href', 'mailto:sales@upline.example');
    expect(link('Phone: +34 600 111 222')).toHaveAttribute('href', 'tel:+34600111222');
    expect(link('WhatsApp: +34 600 111 222')).toHaveAttribute('href', 'https://wa.me/34600111222');
    expect(link('Telegram: +34 600 111 222')).toHaveAttribute('href', 'https://t.me/+34600111222');
    expect(link('Skype: upline.sales')).toHaveAttribute('href', 'skype:upline.sales?chat');
    const privacy = link('Privacy policy');
    expect(privacy).toHaveAttribute('href', 'https://upline.example/privacy');
    expect(privacy).toHaveAttribute('target', '_blank');
  });

  it('falls back to the company support e-mail and omits what the demo info lacks', () => {
    renderUi(
      <DemoBlockedView
        {...props}
        demoInfo={{ contact_email: null, contact_phone: null, contact_skype: null, messenger_name: null, privacy_policy_url: null }}
      />,
    );
    expect(link(/^E-mail:/)).toHaveAttribute('href', 'mailto:help@acme.example');
    expect(screen.getAllByRole('link')).toHaveLength(1);
    expect(screen.queryByText(/Ask for/)).not.toBeInTheDocument();
  });

  it('Logout only for signed-in visitors; Try again and Logout call back; busy overlay', async () => {
    const onTryAgain = vi.fn();
    const onLogout = vi.fn();
    const { rerender } = renderUi(<DemoBlockedView {...props} onTryAgain={onTryAgain} onLogout={onLogout} />);
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onTryAgain).toHaveBeenCalledOnce();

    rerender(<DemoBlockedView {...props} authenticated onTryAgain={onTryAgain} onLogout={onLogout} />);
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    expect(onLogout).toHaveBeenCalledOnce();

    rerender(<DemoBlockedView {...props} authenticated busy onTryAgain={onTryAgain} onLogout={onLogout} />);
    expect(within(document.body).getByRole('status')).toHaveTextContent('Loading…');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeDisabled();
  });
});
