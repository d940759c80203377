/**
 * The support pages with the calls faked: the tickets list (loading, rows, empty, connection and server
 * errors with retry, a 401), the new-ticket form (errors under their fields, files, the request's
 * failures), one ticket (conversation, trail, reply, reopen, close with confirmation, not found), and the
 * contacts shown when the company's ticketing is off — in Spanish and the dark scheme too.
 */
import { act, fireEvent, screen, within, waitFor as waitForUi, cleanup } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { Ticket, TicketSummary } from '../../../src/schemas/support.schema';
import { columnHeaders, findTableRows, renderUi, setViewportWidth } from '../../support/render-ui';

const api = vi.hoisted(() => ({ tickets: vi.fn(), ticket: vi.fn(), open: vi.fn(), reply: vi.fn(), reopen: vi.fn(), close: vi.fn(), downloadFile: vi.fn() }));
vi.mock('../../../src/api/support', () => ({ supportApi: api }));

const { newTicketMachine, ticketPageMachine, ticketsListMachine } = await import('../../../src/machines/support/support.machine');
const { NewTicketView, SupportContactView, TicketView, TicketsView } = await import('../../../src/views/support/support.view');

const ROW: TicketSummary = { id: 31, subject: 'Payout not received', category: 'payments', priority: 'high', status: 'answered', created_at: '2026-11-20T10:00:00.000Z', updated_at: '2026-11-21T10:00:00.000Z' };
const TICKET = (status: Ticket['status']): Ticket => ({
  ...ROW,
  status,
  messages: [
    { id: 1, author: 'member', body: 'Where is my payout?', created_at: '2026-11-20T10:00:00.000Z', attachments: [{ id: 9, name: 'receipt.pdf', content_type: 'application/pdf', size: 2048, url: '/api/uploads/9' }] },
    { id: 2, author: 'support', body: 'It left on Monday.', created_at: '2026-11-21T10:00:00.000Z', attachments: [] },
  ],
  events: [
    { from: null, to: 'open', actor: 'member', created_at: '2026-11-20T10:00:00.000Z' },
    { from: 'open', to: status, actor: 'support', created_at: '2026-11-21T10:00:00.000Z' },
  ],
});
const page = (items: TicketSummary[]) => ({ items, next_page_url: null });

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
});

describe('tickets list', () => {
  function show(search = {}, lng: 'en' | 'es' = 'en', colorScheme: 'light' | 'dark' = 'light') {
    const onSearch = vi.fn();
    const actor = createActor(ticketsListMachine, { input: { filters: search } }).start();
    renderUi(<TicketsView actor={actor} search={search} onSearch={onSearch} />, { lng, colorScheme });
    return { actor, onSearch };
  }

  it('shows a skeleton, then each ticket with its status linking to its page', async () => {
    let answer!: (v: unknown) => void;
    api.tickets.mockReturnValueOnce(new Promise((r) => (answer = r)));
    show();
    expect(document.querySelector('[data-list-status="initialLoading"]')).not.toBeNull();
    act(() => answer(page([ROW])));
    const link = await screen.findByRole('link', { name: 'Payout not received' });
    expect(link).toHaveAttribute('href', '/support/tickets/31');
    const row = link.closest('[data-ticket]') as HTMLElement;
    expect(within(row).getByText('Answered')).toBeTruthy();
    expect(row).toHaveTextContent('Payments and payouts');
    expect(screen.getAllByRole('link', { name: 'New ticket' })[0]).toHaveAttribute('href', '/support/new');
  });

  it('on a desktop the tickets are a table with their column headers, in Spanish and the dark scheme too; on a phone, cards', async () => {
    setViewportWidth(1280);
    try {
      api.tickets.mockResolvedValue(page([ROW]));
      const first = show({}, 'es', 'dark');
      const [row] = await findTableRows();
      expect(columnHeaders(screen.getByRole('table', { name: 'Filas' }))).toEqual(['Asunto', 'N.º', 'Categoría', 'Prioridad', 'Actualizado', 'Estado']);
      const cells = within(row).getAllByRole('cell');
      expect(within(cells[0]).getByRole('link')).toHaveAttribute('href', '/support/tickets/31');
      expect(cells[1]).toHaveTextContent('31');
      expect(cells[1]).toHaveStyle({ textAlign: 'right' });
      first.actor.stop();
      cleanup();
      setViewportWidth(360);
      show();
      const card = (await screen.findByRole('link', { name: 'Payout not received' })).closest('[data-ticket]') as HTMLElement;
      expect(card).toHaveAttribute('role', 'listitem');
      expect(screen.queryByRole('table')).toBeNull();
    } finally {
      setViewportWidth(1024);
    }
  });

  it('empty: says so with a way to open one; in Spanish and the dark scheme', async () => {
    api.tickets.mockResolvedValueOnce(page([]));
    show({}, 'es', 'dark');
    expect(await screen.findByText('Aún no tienes consultas')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Nueva consulta' }).length).toBe(2);
  });

  it('a connection or a server failure shows its error with a retry; a 401 ends in the forced logout without an error', async () => {
    api.tickets.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    const { actor } = show();
    expect(await screen.findByRole('heading', { name: 'No connection' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /try again|retry/i }));
    await vi.waitFor(() => expect(api.tickets).toHaveBeenCalledTimes(2));
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    await waitFor(actor, (s) => s.matches('forceLogout'));
    expect(screen.queryByRole('button', { name: /try again|retry/i })).toBeNull();
  });

  it('on a phone the status filter waits behind the Filters button, which counts it', async () => {
    setViewportWidth(360);
    try {
      api.tickets.mockResolvedValue(page([ROW]));
      show({ status: 'answered' });
      await screen.findByText('Payout not received');
      const button = screen.getByRole('button', { name: 'Filters, 1 set' });
      expect(screen.getAllByLabelText('Status').find((e) => e.tagName === 'INPUT')).not.toBeVisible();
      fireEvent.click(button);
      await waitForUi(() => expect(screen.getAllByLabelText('Status').find((e) => e.tagName === 'INPUT')).toBeVisible());
    } finally {
      setViewportWidth(1280);
    }
  });

  it('the status filter asks for the URL to change', async () => {
    api.tickets.mockResolvedValue(page([ROW]));
    const { onSearch } = show({ status: 'answered' });
    expect(api.tickets).toHaveBeenCalledWith({ status: 'answered' }, expect.anything());
    await screen.findByText('Payout not received');
    fireEvent.click(screen.getAllByLabelText('Status').find((e) => e.tagName === 'INPUT')!);
    fireEvent.click(await screen.findByRole('option', { name: 'All statuses' }));
    expect(onSearch).toHaveBeenCalledWith({});
  });
});

describe('new ticket', () => {
  const show = () => {
    const apply = vi.fn();
    const actor = createActor(newTicketMachine.provide({ actions: { apply: (_, p) => apply(p) } })).start();
    renderUi(<NewTicketView actor={actor} />);
    return { actor, apply };
  };

  it('shows what is missing under its fields and sends nothing', async () => {
    show();
    fireEvent.click(screen.getByRole('button', { name: 'Send ticket' }));
    expect(await screen.findAllByText(/required|choose/i)).not.toHaveLength(0);
    expect(api.open).not.toHaveBeenCalled();
  });

  it('sends the values and the chosen files; a connection failure can be retried without retyping', async () => {
    api.open.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce(TICKET('open'));
    const { actor, apply } = show();
    const file = new File([new Uint8Array([137, 80, 78, 71, 1, 2])], 'shot.png', { type: 'image/png' });
    act(() => actor.send({ type: 'ticket.change', field: 'category', value: 'technical' }));
    fireEvent.change(screen.getByRole('textbox', { name: /^Subject/ }), { target: { value: 'Cannot log in' } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Description/ }), { target: { value: 'It says my password is wrong.' } });
    fireEvent.change(screen.getByLabelText('Choose files'), { target: { files: [file] } });
    expect(await screen.findByText('shot.png')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send ticket' }));
    expect(await screen.findByText('We could not reach the server. Check your connection and try again.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(apply).toHaveBeenCalledWith({ id: 31 }));
    expect(api.open).toHaveBeenLastCalledWith(expect.objectContaining({ category: 'technical', priority: 'normal', subject: 'Cannot log in', attachments: [file] }));
  });

  it('a file of another type is named with its problem before anything is sent', async () => {
    const { actor } = show();
    const txt = new File(['x'], 'notes.txt', { type: 'text/plain' });
    act(() => actor.send({ type: 'ticket.change', field: 'attachments', value: [txt] }));
    expect((await screen.findByText('notes.txt')).closest('[data-chosen-file]')).toHaveTextContent('Only JPG, PNG, WebP or PDF files are accepted.');
    fireEvent.click(screen.getByRole('button', { name: 'Remove notes.txt' }));
    expect(screen.queryByText('notes.txt')).toBeNull();
  });
});

describe('one ticket', () => {
  const show = (lng: 'en' | 'es' = 'en') => {
    const download = vi.fn();
    const notify = vi.fn();
    const actor = createActor(ticketPageMachine.provide({ actions: { notify: (_, p) => notify(p) } }), { input: { params: 31 } }).start();
    renderUi(<TicketView actor={actor} download={download} />, { lng });
    return { actor, download, notify };
  };

  it('shows the conversation with the files, the trail, and replies (the ticket loads again)', async () => {
    api.ticket.mockResolvedValueOnce(TICKET('answered')).mockResolvedValueOnce(TICKET('open'));
    api.reply.mockResolvedValue(TICKET('open'));
    const { download } = show();
    expect(await screen.findByRole('heading', { name: 'Payout not received' })).toBeTruthy();
    expect(screen.getByText('Where is my payout?').closest('[data-author]')).toHaveAttribute('data-author', 'member');
    expect(screen.getByText('It left on Monday.').closest('[data-author]')).toHaveAttribute('data-author', 'support');
    fireEvent.click(screen.getByRole('button', { name: 'Download receipt.pdf' }));
    expect(download).toHaveBeenCalledWith('/api/uploads/9', 'receipt.pdf');
    expect(document.querySelectorAll('[data-trail]')).toHaveLength(2);
    fireEvent.change(screen.getByRole('textbox', { name: /^Message/ }), { target: { value: 'Thanks, it arrived.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await vi.waitFor(() => expect(api.ticket).toHaveBeenCalledTimes(2));
    expect(api.reply).toHaveBeenCalledWith(31, { body: 'Thanks, it arrived.', attachments: [] });
    expect(await screen.findByText('Our support team will answer soon.')).toBeTruthy();
  });

  it('a resolved ticket takes no reply and offers Reopen; Close asks first', async () => {
    api.ticket.mockResolvedValueOnce(TICKET('resolved')).mockResolvedValueOnce(TICKET('open')).mockResolvedValueOnce(TICKET('closed'));
    api.reopen.mockResolvedValue(TICKET('open'));
    api.close.mockResolvedValue(TICKET('closed'));
    show();
    await screen.findByRole('heading', { name: 'Payout not received' });
    expect(screen.queryByRole('button', { name: 'Send reply' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reopen ticket' }));
    expect(await screen.findByRole('button', { name: 'Send reply' })).toBeTruthy();
    expect(api.reopen).toHaveBeenCalledWith(31);
    fireEvent.click(screen.getByRole('button', { name: 'Close ticket' }));
    expect(await screen.findByText('Close this ticket?')).toBeTruthy();
    expect(api.close).not.toHaveBeenCalled();
    fireEvent.click(screen.getAllByRole('button', { name: 'Close ticket' }).at(-1)!);
    expect(await screen.findByText('This ticket is closed. Open a new one if you need more help.')).toBeTruthy();
    expect(api.close).toHaveBeenCalledWith(31);
    expect(screen.queryByRole('button', { name: 'Close ticket' })).toBeNull();
  });

  it('loading, then a connection and a server failure with retry; another member’s ticket reads as not found', async () => {
    api.ticket.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockRejectedValueOnce(new ApiError('notFound', 404, {}));
    show();
    expect(screen.getByRole('status', { name: 'Loading the ticket' })).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByRole('heading', { name: 'Ticket not found' })).toBeTruthy();
  });

  it('a 401 shows neither the ticket nor an error', async () => {
    api.ticket.mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    const { actor } = show();
    await waitFor(actor.getSnapshot().children.ticket!, (s) => s.matches('forceLogout'));
    expect(screen.queryByRole('button', { name: /try again|retry/i })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Payout not received' })).toBeNull();
  });

  it('in Spanish', async () => {
    api.ticket.mockResolvedValueOnce(TICKET('awaiting_member'));
    show('es');
    expect(await screen.findByText('Esperando tu respuesta')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Enviar respuesta' })).toBeTruthy();
  });
});

describe('ticketing off', () => {
  it('shows the support e-mail and phone with messaging links, and a message to support by mail', () => {
    renderUi(<SupportContactView email="help@upline.example" phone="+1 555 0100" company="Upline" />);
    expect(screen.getByRole('link', { name: /help@upline\.example/ })).toHaveAttribute('href', 'mailto:help@upline.example');
    expect(screen.getByRole('link', { name: /Phone/ })).toHaveAttribute('href', 'tel:+15550100');
    expect(screen.getByRole('link', { name: /WhatsApp/ })).toHaveAttribute('href', 'https://wa.me/15550100');
    expect(screen.getByRole('link', { name: 'Write to support' })).toHaveAttribute('href', '/mail/compose?to=company');
  });
});
