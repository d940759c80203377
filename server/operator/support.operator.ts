/** Support tickets as the company's support staff handle them: what waits, an answer, closing. */
import { closeAsSupport, replyAsSupport, SUPPORT_REPLY_STATUSES, ticketsForSupport, type SupportReplyStatus } from '../lib/support';
import { TICKET_STATUSES, type TicketStatus } from '../../src/schemas/support.schema';
import { OperatorUsageError, type OperatorArea } from './registry';

const ticketId = (text: string | undefined) => {
  if (!text || !/^\d{1,9}$/.test(text)) throw new OperatorUsageError('give the number of a ticket (see: ticket list)');
  return Number(text);
};

export const supportOperator: OperatorArea = {
  name: 'ticket',
  summary: "members' support tickets",
  commands: {
    list: {
      usage: '[--status open|awaiting_member|answered|resolved|closed|all] [--limit N]',
      summary: 'tickets waiting for support (open), oldest change first; or those in another status',
      options: { status: { type: 'string' }, limit: { type: 'string' } },
      async run({ database }, { values }, io) {
        const status = (values.status as string | undefined) ?? 'open';
        if (status !== 'all' && !(TICKET_STATUSES as readonly string[]).includes(status)) throw new OperatorUsageError(`--status is one of ${TICKET_STATUSES.join(', ')}, all`);
        const limit = Math.min(Math.max(Number(values.limit ?? 100) || 100, 1), 10_000);
        const rows = await ticketsForSupport(database.db, { status: status as TicketStatus | 'all', limit });
        if (!rows.length) return io.out(status === 'open' ? 'No ticket waits for support.' : `No ticket is ${status}.`);
        for (const r of rows) io.out(`${r.id}\t${r.username}\t${r.status}\t${r.priority}\t${r.category}\t${r.subject}\t${new Date(r.updated_at).toISOString()}`);
      },
    },
    reply: {
      usage: 'ID "answer" [--status answered|awaiting_member|resolved]',
      summary: 'answer a ticket (answered by default; awaiting_member asks the member for something); the member is told',
      options: { status: { type: 'string' } },
      async run(services, { positionals, values }, io) {
        const id = ticketId(positionals[0]);
        const body = positionals.slice(1).join(' ').trim();
        if (!body) throw new OperatorUsageError('an answer needs its text: ticket reply ID "..."');
        const status = (values.status as string | undefined) ?? 'answered';
        if (!(SUPPORT_REPLY_STATUSES as readonly string[]).includes(status)) throw new OperatorUsageError(`--status is one of ${SUPPORT_REPLY_STATUSES.join(', ')}`);
        const t = await replyAsSupport(services, id, body, status as SupportReplyStatus);
        io.out(`Ticket ${id} answered; it is ${t.status}.`);
      },
    },
    close: {
      usage: 'ID',
      summary: 'close a ticket',
      async run(services, { positionals }, io) {
        const id = ticketId(positionals[0]);
        await closeAsSupport(services, id);
        io.out(`Ticket ${id} closed.`);
      },
    },
  },
};
