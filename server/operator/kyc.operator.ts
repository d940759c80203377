/** Identity verification as staff see it: what waits for review, and the decision on one document. */
import { sql } from 'drizzle-orm';
import { decideKyc, pendingKyc } from '../lib/kyc';
import { rowsOf } from '../lib/ledger';
import { KYC_STATUSES, type KycStatus } from '../../src/schemas/kyc.schema';
import { OperatorUsageError, type OperatorArea } from './registry';

const documentId = (text: string | undefined) => {
  if (!text || !/^\d{1,15}$/.test(text)) throw new OperatorUsageError('give the number of a KYC document (see: kyc list)');
  return Number(text);
};

export const kycOperator: OperatorArea = {
  name: 'kyc',
  summary: 'identity documents members sent',
  commands: {
    list: {
      usage: '[--member USERNAME] [--status pending|approved|rejected|not_submitted] [--limit N]',
      summary: 'documents waiting for review, oldest first (of one member with --member; or members in another KYC status)',
      options: { status: { type: 'string' }, limit: { type: 'string' }, member: { type: 'string' } },
      async run({ database }, { values }, io) {
        const limit = Math.min(Math.max(Number(values.limit ?? 100) || 100, 1), 10_000);
        const status = (values.status as string | undefined) ?? 'pending';
        if (!(KYC_STATUSES as readonly string[]).includes(status)) throw new OperatorUsageError(`--status is one of ${KYC_STATUSES.join(', ')}`);
        if (status === 'pending') {
          const rows = await pendingKyc(database.db, limit, typeof values.member === 'string' ? values.member : undefined);
          if (!rows.length) return io.out('No KYC documents wait for review.');
          for (const r of rows) io.out(`${r.id}\t${r.username}\t${r.category_name}\t${r.id_number ?? '-'}\t${r.files} file(s)\t${r.created_at}`);
          return;
        }
        const members = await rowsOf<{ id: number; username: string }>(
          database.db,
          sql`SELECT m.id, m.username FROM member_kyc k JOIN members m ON m.id = k.member_id
              WHERE k.status = ${status as KycStatus} AND m.status = 1 ORDER BY m.id LIMIT ${limit}`,
        );
        if (!members.length) return io.out(`No member is ${status}.`);
        for (const m of members) io.out(`${m.id}\t${m.username}\t${status}`);
      },
    },
    approve: {
      usage: 'ID',
      summary: 'approve a pending document: the member may request payouts',
      async run(services, { positionals }, io) {
        const id = documentId(positionals[0]);
        const r = await decideKyc(services, id, { approve: true });
        io.out(`KYC document ${id} approved; member ${r.memberId} is ${r.status}.`);
      },
    },
    reject: {
      usage: 'ID --reason "..."',
      summary: 'reject a pending document; the member reads the reason and may send again',
      options: { reason: { type: 'string' } },
      async run(services, { positionals, values }, io) {
        const id = documentId(positionals[0]);
        const reason = typeof values.reason === 'string' ? values.reason.trim() : '';
        if (!reason) throw new OperatorUsageError('a rejection needs --reason "..." (the member reads it)');
        const r = await decideKyc(services, id, { approve: false, reason });
        io.out(`KYC document ${id} rejected; member ${r.memberId} is ${r.status}.`);
      },
    },
  },
};
