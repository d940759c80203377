/**
 * The support machines with their real children: a reply or a status change loads the ticket again and
 * clears the reply; a new ticket tells the page where it went; the calls are made with the ticket's id.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { supportApi } from '../../src/api/support';
import { newTicketMachine, ticketPageMachine, ticketsListMachine } from '../../src/machines/support/support.machine';
import type { Ticket } from '../../src/schemas/support.schema';

const ticket = (status: Ticket['status']): Ticket => ({
  id: 7,
  subject: 'Payout',
  category: 'payments',
  priority: 'high',
  status,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  messages: [],
  events: [],
});

describe('ticket page', () => {
  it('loads the ticket by id; a reply is sent for that id, cleared, and the ticket loads again', async () => {
    const load = vi.spyOn(supportApi, 'ticket').mockResolvedValueOnce(ticket('answered')).mockResolvedValueOnce(ticket('open'));
    const reply = vi.spyOn(supportApi, 'reply').mockResolvedValue(ticket('open'));
    const notify = vi.fn();
    const actor = createActor(ticketPageMachine.provide({ actions: { notify } }), { input: { params: 7 } }).start();
    const t = actor.getSnapshot().children.ticket!;
    await waitFor(t, (s) => s.matches('loaded'));
    expect(load).toHaveBeenCalledWith(7);
    const r = actor.getSnapshot().children.reply!;
    r.send({ type: 'reply.save', values: { body: 'Here', attachments: [] } });
    await waitFor(t, (s) => s.matches('loaded') && s.context.data?.status === 'open');
    expect(reply).toHaveBeenCalledWith(7, { body: 'Here', attachments: [] });
    expect(r.getSnapshot().context.values.body).toBe('');
    expect(notify).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ key: 'support:tickets.replySent' }));
    actor.stop();
    vi.restoreAllMocks();
  });

  it('closes or reopens by the chosen action', async () => {
    vi.spyOn(supportApi, 'ticket').mockResolvedValue(ticket('resolved'));
    const reopen = vi.spyOn(supportApi, 'reopen').mockResolvedValue(ticket('open'));
    const close = vi.spyOn(supportApi, 'close').mockResolvedValue(ticket('closed'));
    const actor = createActor(ticketPageMachine, { input: { params: 7 } }).start();
    const s = actor.getSnapshot().children.status!;
    s.send({ type: 'status.save', values: { action: 'reopen' } });
    await waitFor(s, (x) => x.matches('success'));
    s.send({ type: 'status.save', values: { action: 'close' } });
    await waitFor(s, (x) => x.matches('success') && close.mock.calls.length === 1);
    expect(reopen).toHaveBeenCalledWith(7);
    expect(close).toHaveBeenCalledWith(7);
    actor.stop();
    vi.restoreAllMocks();
  });
});

describe('new ticket', () => {
  it('refuses missing fields before sending, then applies the new ticket’s id', async () => {
    const open = vi.spyOn(supportApi, 'open').mockResolvedValue(ticket('open'));
    const apply = vi.fn();
    const actor = createActor(newTicketMachine.provide({ actions: { apply } })).start();
    actor.send({ type: 'ticket.submit' });
    expect(Object.keys(actor.getSnapshot().context.fieldErrors).sort()).toEqual(['category', 'description', 'subject']);
    expect(open).not.toHaveBeenCalled();
    actor.send({ type: 'ticket.save', values: { category: 'orders', priority: 'low', subject: 'Size', description: 'Wrong size', attachments: [] } });
    await waitFor(actor, (s) => s.matches('success'));
    expect(apply).toHaveBeenCalledWith(expect.anything(), { id: 7 });
    actor.stop();
    vi.restoreAllMocks();
  });
});

describe('tickets list', () => {
  it('asks for the status in its filters', async () => {
    const list = vi.spyOn(supportApi, 'tickets').mockResolvedValue({ items: [], next_page_url: null });
    const actor = createActor(ticketsListMachine.provide({ actors: {} }), { input: { filters: { status: 'answered' } } }).start();
    await waitFor(actor, (s) => s.matches('noItems'));
    expect(list).toHaveBeenCalledWith({ status: 'answered' }, expect.anything());
    actor.stop();
    vi.restoreAllMocks();
  });
});
