/** Over-the-counter payments as staff see them: what waits for a decision, and the decision on one request. */
import { OTC_STATUSES, type OtcStatus } from '../../src/schemas/otc.schema';
import { decideOtc, listOtc } from '../lib/otc';
import '../lib/packages';
import { OperatorUsageError, type OperatorArea } from './registry';

const requestId = (text: string | undefined) => {
  if (!text || !/^\d{1,15}$/.test(text)) throw new OperatorUsageError('give the number of a payment request (see: otc list)');
  return Number(text);
};

export const otcOperator: OperatorArea = {
  name: 'otc',
  summary: 'over-the-counter payments members asked for or sent',
  commands: {
    list: {
      usage: '[--status open|awaiting_payment|submitted|approved|rejected|expired] [--limit N]',
      summary: 'payment requests, oldest first (default: the open ones: awaiting payment and submitted)',
      options: { status: { type: 'string' }, limit: { type: 'string' } },
      async run({ database }, { values }, io) {
        const limit = Math.min(Math.max(Number(values.limit ?? 100) || 100, 1), 10_000);
        const status = (values.status as string | undefined) ?? 'open';
        if (status !== 'open' && !(OTC_STATUSES as readonly string[]).includes(status)) throw new OperatorUsageError(`--status is open or one of ${OTC_STATUSES.join(', ')}`);
        const rows = await listOtc(database.db, status as OtcStatus | 'open', limit);
        if (!rows.length) return io.out('No payment requests.');
        for (const r of rows) io.out(`${r.id}\t${r.username}\t${r.purpose}\t${r.amount}\t${r.method}\t${r.reference}\t${r.status}\t${r.transaction_ref ?? '-'}\t${r.created_at}`);
      },
    },
    approve: {
      usage: 'ID',
      summary: 'approve a payment: the package, order or top-up takes effect (once)',
      async run(services, { positionals }, io) {
        const id = requestId(positionals[0]);
        const r = await decideOtc(services, id, { approve: true });
        io.out(`Payment request ${id} (${r.reference}) approved for member ${r.memberId}.`);
      },
    },
    reject: {
      usage: 'ID --reason "..."',
      summary: 'reject a payment; the member reads the reason',
      options: { reason: { type: 'string' } },
      async run(services, { positionals, values }, io) {
        const id = requestId(positionals[0]);
        const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
        if (!reason) throw new OperatorUsageError('a rejection needs --reason "..." (the member reads it)');
        const r = await decideOtc(services, id, { approve: false, reason });
        io.out(`Payment request ${id} (${r.reference}) rejected for member ${r.memberId}.`);
      },
    },
  },
};
