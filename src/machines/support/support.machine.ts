/**
 * /member/support with the company's ticketing on: the member's tickets (a paged list, one status from the
 * URL), a new ticket (a form with files: category, priority, subject, description, attachments), and one
 * ticket's page — its conversation and trail (a load), a reply (a form with files), and reopen/close (a
 * one-click form whose value is the action). A reply or a change of status loads the ticket again.
 *
 * Chosen files live in memory only: the new-ticket and ticket pages are never saved to the tab.
 */
import { sendTo, setup } from 'xstate';
import * as z from 'zod/mini';
import { supportApi } from '../../api/support';
import { replyFormSchema, ticketFormSchema, type ReplyValues, type Ticket, type TicketStatus, type TicketSummary, type TicketValues } from '../../schemas/support.schema';
import { createFormMachine, type SubmitInput } from '../form.machine';
import { createLoadMachine } from '../load.machine';
import { createPagedListMachine, nextFromUrl } from '../paged-list.machine';
import { onPageNote, pageActions, reportToPage, tellPage, type Child, type PageNote } from '../resource.machine';

export interface TicketsSearch {
  status?: TicketStatus;
}

export const ticketsListMachine = createPagedListMachine<TicketSummary, TicketsSearch>('ticketsList', async ({ filters, next, signal }) => {
  const p = await supportApi.tickets({ ...(filters.status ? { status: filters.status } : {}), ...(next?.cursor ? { cursor: next.cursor } : {}) }, signal);
  return { items: p.items, next: nextFromUrl(p.next_page_url) };
});

export const EMPTY_TICKET: TicketValues = { category: '', priority: 'normal', subject: '', description: '', attachments: [] };

export const newTicketMachine = createFormMachine({
  id: 'newTicket',
  domain: 'ticket',
  initialValues: EMPTY_TICKET,
  schema: ticketFormSchema,
  submit: ({ values }): Promise<Ticket> => supportApi.open(values),
  successKey: 'support:tickets.opened',
  clearOnSuccess: true,
  applied: (_values, ticket) => ({ id: ticket.id }),
});

export const ticketDetailMachine = createLoadMachine('ticketDetail', (id: number) => supportApi.ticket(id));

export const EMPTY_REPLY: ReplyValues = { body: '', attachments: [] };

export const ticketReplyMachine = createFormMachine({
  id: 'ticketReply',
  domain: 'reply',
  initialValues: EMPTY_REPLY,
  schema: replyFormSchema,
  submit: ({ values, params }: SubmitInput<ReplyValues, never, number>): Promise<Ticket> => supportApi.reply(params!, values),
  successKey: 'support:tickets.replySent',
  clearOnSuccess: true,
});

export type TicketAction = 'reopen' | 'close';

export const ticketStatusMachine = createFormMachine({
  id: 'ticketStatus',
  domain: 'status',
  initialValues: { action: '' } as { action: string },
  schema: z.object({ action: z.enum(['reopen', 'close'], { error: 'validation:invalidChoice' }) }),
  submit: ({ values, params }: SubmitInput<{ action: string }, never, number>): Promise<Ticket> =>
    values.action === 'reopen' ? supportApi.reopen(params!) : supportApi.close(params!),
  successKey: 'support:tickets.statusChanged',
});

/** A reply or a change of status: the ticket is loaded again. */
const changed = (child: Child) => tellPage(child, { type: 'ticket.changed' } as never);

export type TicketPageEvent = PageNote | { type: 'ticket.changed' };

export const ticketPageMachine = setup({
  types: {
    input: {} as { params: number },
    context: {} as { id: number },
    events: {} as TicketPageEvent,
    children: {} as { ticket: 'ticket'; reply: 'reply'; status: 'status' },
  },
  actors: {
    ticket: ticketDetailMachine,
    reply: ticketReplyMachine.provide({ actions: { ...reportToPage, apply: changed } }),
    status: ticketStatusMachine.provide({ actions: { ...reportToPage, apply: changed } }),
  },
  actions: pageActions,
}).createMachine({
  id: 'ticketPage',
  context: ({ input }) => ({ id: input.params }),
  initial: 'showing',
  states: {
    /** The page is open: the ticket, the reply and the status change run for as long as it is. */
    showing: {
      invoke: [
        { id: 'ticket', src: 'ticket', input: ({ context }) => ({ params: context.id }) },
        { id: 'reply', src: 'reply', input: ({ context }) => ({ params: context.id }) },
        { id: 'status', src: 'status', input: ({ context }) => ({ params: context.id }) },
      ],
    },
  },
  on: {
    'ticket.changed': { actions: sendTo('ticket', { type: 'load.refresh' }) },
    ...onPageNote,
  },
});
