/**
 * The company's mailbox as staff use it: a message from the company to a member, what members wrote to the
 * company, and the company's answer in a thread — through the same functions the API uses (the member is
 * told by the channels they keep on, and reads it under Mail and Notifications).
 */
import { companyInbox, companyMember, markThread, replyMail, sendMail } from '../lib/mail';
import { htmlToText } from '../lib/sanitize';
import { OperatorUsageError, type OperatorArea } from './registry';

/** Plain text as the body's HTML: one paragraph per line, every character escaped. */
export const textToHtml = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`))
    .map((l) => `<p>${l}</p>`)
    .join('');

const bodyOf = (positionals: string[]) => {
  const text = positionals.join(' ').trim();
  if (!text) throw new OperatorUsageError('give the text of the message in quotes');
  return textToHtml(text);
};

export const mailOperator: OperatorArea = {
  name: 'message',
  summary: "the company's mailbox",
  commands: {
    send: {
      usage: '--to USERNAME [--subject "..."] "TEXT"',
      summary: 'write to a member from the company (a new thread)',
      options: { to: { type: 'string' }, subject: { type: 'string' } },
      async run(services, { positionals, values }, io) {
        const to = typeof values.to === 'string' ? values.to.trim() : '';
        if (!to) throw new OperatorUsageError('name the member with --to USERNAME');
        const body = bodyOf(positionals);
        const subject = typeof values.subject === 'string' && values.subject.trim() ? values.subject.trim() : 'A message from the company';
        const company = await companyMember(services.database.db);
        const r = await sendMail(services, company, { fields: { to, subject, body }, files: [] }, null);
        io.out(`Message ${r.messageId} sent to ${to} in thread ${r.threadId}.`);
      },
    },
    inbox: {
      usage: '[--unread] [--limit N]',
      summary: 'what members wrote to the company, newest first: thread, member, subject, text',
      options: { unread: { type: 'boolean' }, limit: { type: 'string' } },
      async run({ database }, { values }, io) {
        const limit = Math.min(Math.max(Number(values.limit ?? 50) || 50, 1), 1000);
        const rows = await companyInbox(database.db, limit, values.unread === true);
        if (!rows.length) return io.out(values.unread ? 'No unread messages.' : 'No messages.');
        for (const r of rows) {
          io.out(`${r.thread_id}\t${r.username}\t${r.read_at ? 'read' : 'unread'}\t${r.subject}\t${htmlToText(r.body).slice(0, 120)}\t${new Date(r.created_at).toISOString()}`);
        }
      },
    },
    reply: {
      usage: 'THREAD "TEXT"',
      summary: "answer in a thread of the company's mailbox (its messages to the company are marked read)",
      async run(services, { positionals }, io) {
        const [thread, ...text] = positionals;
        if (!thread || !/^\d{1,15}$/.test(thread)) throw new OperatorUsageError('give the number of a thread (see: message inbox)');
        const body = bodyOf(text);
        const company = await companyMember(services.database.db);
        const r = await replyMail(services, company, Number(thread), { fields: { body }, files: [] }, null);
        await markThread(services.database.db, company.id, r.threadId, true);
        io.out(`Reply ${r.messageId} sent in thread ${r.threadId}.`);
      },
    },
  },
};
