/**
 * Generated paths of the support machines: the new ticket (files as values, multipart submission), a reply
 * on a ticket, the one-click reopen/close, and the ticket page that holds the ticket's load, the reply and
 * the status change.
 */
import { ApiError } from '../../src/api/errors';
import { newTicketMachine, ticketPageMachine, ticketReplyMachine, ticketStatusMachine } from '../../src/machines/support/support.machine';
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';

const png = new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', { type: 'image/png' });
const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
const refused = errorEvent('request', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { _body: ['support:tickets.errors.closed'] } }));

describePaths('new support ticket', {
  machine: stubActors(newTicketMachine),
  events: [
    { type: 'ticket.save', values: { category: 'payments', priority: 'high', subject: 'Payout', description: 'Where is it?', attachments: [png] } },
    { type: 'ticket.save', values: { category: 'payments', priority: 'high', subject: 'Payout with a text file', description: 'Where is it?', attachments: [text] } },
    { type: 'ticket.change', field: 'subject', value: '' },
    doneEvent('request', { id: 12 }),
    ...memberCallFailures('request'),
    refused,
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, (s.context.values.attachments as File[]).map((f) => f.name)]),
});

describePaths('reply on a ticket', {
  machine: stubActors(ticketReplyMachine),
  inputs: [{ params: 7 }],
  events: [
    { type: 'reply.save', values: { body: 'Here it is', attachments: [png] } },
    { type: 'reply.save', values: { body: '', attachments: [] } },
    doneEvent('request', { id: 7 }),
    ...memberCallFailures('request'),
    refused,
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved]),
});

describePaths('reopen or close a ticket', {
  machine: stubActors(ticketStatusMachine),
  inputs: [{ params: 7 }],
  events: [{ type: 'status.save', values: { action: 'close' } }, { type: 'status.save', values: { action: 'reopen' } }, { type: 'status.save', values: { action: 'delete' } }, doneEvent('request', { id: 7 }), ...memberCallFailures('request'), refused],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved]),
});

describePaths('ticket page (ticket, reply, status)', {
  machine: stubActors(ticketPageMachine),
  inputs: [{ params: 7 }],
  events: [{ type: 'ticket.changed' }, { type: 'page.notify', params: { kind: 'success', key: 'support:tickets.replySent' } }, { type: 'page.forceLogout' }],
});
