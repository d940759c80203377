// @vitest-environment node
/**
 * With SMTP_URL set, e-mails (one-time codes, notifications, demo requests) go out through a real SMTP
 * conversation — here with a small SMTP server of the test — and the outbox row is still written; SMS stay in
 * the outbox. A line break never reaches a mail header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../support/server';
import { startSmtpStandIn, type SmtpStandIn } from '../support/smtp-server';
import { bulkMembers, freshIp, outboxCount, post, rows } from './helpers';
import { announce } from '../../server/lib/member-notices';
import { createMailer, UnsafeHeaderError } from '../../server/lib/mailer';
import { Outbox } from '../../server/lib/outbox';
import type { FastifyBaseLogger } from 'fastify';

let smtp: SmtpStandIn;
let s: TestServer;
beforeAll(async () => {
  smtp = await startSmtpStandIn();
  s = await startTestServer({ smtpUrl: smtp.url, mailFrom: 'Upline <no-reply@upline.example>', rateLimitScale: 100 });
});
afterAll(async () => {
  await s?.close();
  await smtp?.close();
});

/** Mails received from now on. */
const received = () => {
  const start = smtp.mails.length;
  return {
    async next(n = 1) {
      await s.app.ctx.outbox.settled();
      return (await smtp.waitFor(start + n)).slice(start);
    },
    count: () => smtp.mails.length - start,
  };
};

describe('e-mail through SMTP', () => {
  it('a one-time code goes out by e-mail, the outbox keeps its row, and the mailed code signs the member in', async () => {
    const [m] = await bulkMembers(s.database, 1, 40);
    const mails = received();
    const sent = await post(s.app, '/api/auth/send_otp', { login_using: 'email', email: m.email }, { ip: freshIp() });
    expect(sent.status).toBe(200);
    const [mail] = await mails.next();
    expect(mail.to).toEqual([m.email]);
    expect(mail.from).toBe('no-reply@upline.example');
    expect(mail.headers.subject).toMatch(/sign-in code/);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await rows<{ subject: string; body: string }>(s.database, sql`SELECT subject, body FROM outbox WHERE destination = ${m.email} ORDER BY id DESC LIMIT 1`);
    expect(row.subject).toBe(mail.headers.subject);
    expect(row.body).toContain(code!);
    const signedIn = await post(s.app, '/api/auth/login_with_otp', { login_using: 'email', email: m.email, otp: code }, { ip: freshIp() });
    expect(signedIn.status).toBe(200);
  });

  it('a notification of an event goes out by e-mail', async () => {
    const [m] = await bulkMembers(s.database, 1, 41);
    const mails = received();
    await announce(s.app.ctx, m.id, 'payout_status', { key: 'payout_approved', values: { invoice: 'PO-000007', amount: '25.00' } });
    const [mail] = await mails.next();
    expect(mail.to).toEqual([m.email]);
    expect(mail.headers.subject).toBe('Payout PO-000007 approved');
    expect(mail.text).toContain('Your payout request PO-000007 of 25.00 is now approved.');
  });

  it('an SMS stays in the outbox', async () => {
    const [m] = await bulkMembers(s.database, 1, 42);
    const before = await outboxCount(s.database, `${m.mobile_code}${m.mobile}`);
    const mails = received();
    await s.app.ctx.outbox.send('sms', `${m.mobile_code}${m.mobile}`, 'Code', 'Your code is 123456.');
    await s.app.ctx.outbox.settled();
    expect(await outboxCount(s.database, `${m.mobile_code}${m.mobile}`)).toBe(before + 1);
    expect(mails.count()).toBe(0);
  });

  it('a demo request reaches the company by e-mail with the name in its subject', async () => {
    const mails = received();
    const res = await post(s.app, '/api/request_demo', { name: 'Rita Prospect', email: 'rita@prospect.example', mobile: '5550102000', platform: 'web' }, { ip: freshIp() });
    expect(res.status).toBe(200);
    const [mail] = await mails.next();
    expect(mail.to).toEqual(['info@upline.example']);
    expect(mail.headers.subject).toBe('Demo request from Rita Prospect');
  });
});

describe('line breaks never reach a header', () => {
  it('a CR/LF in the name of a demo request is refused (422) and nothing is sent', async () => {
    const before = await outboxCount(s.database, 'info@upline.example');
    const mails = received();
    for (const name of ['Rita\r\nBcc: victim@example.com', 'Rita\nBcc: victim@example.com', 'Rita\rX', 'Rita\u2028X', 'Rita\u0000']) {
      const res = await post(s.app, '/api/request_demo', { name, email: 'rita@prospect.example', mobile: '5550102000', platform: 'web' }, { ip: freshIp() });
      expect(res.status, JSON.stringify(name)).toBe(422);
      expect(res.body.errors).toEqual({ name: ['validation:invalidFormat'] });
    }
    await s.app.ctx.outbox.settled();
    expect(mails.count()).toBe(0);
    expect(await outboxCount(s.database, 'info@upline.example')).toBe(before);
  });

  it('the mailer refuses a subject or an address of more than one line', async () => {
    const mailer = createMailer(smtp.url, 'Upline <no-reply@upline.example>');
    const mails = received();
    try {
      await expect(mailer.send({ to: 'a@b.example', subject: 'Hello\r\nBcc: victim@example.com', text: 'x' })).rejects.toBeInstanceOf(UnsafeHeaderError);
      await expect(mailer.send({ to: 'a@b.example\nBcc: victim@example.com', subject: 'Hello', text: 'x' })).rejects.toBeInstanceOf(UnsafeHeaderError);
      expect(() => createMailer(smtp.url, 'x@y.example\r\nBcc: victim@example.com')).toThrow(UnsafeHeaderError);
    } finally {
      mailer.close();
    }
    expect(mails.count()).toBe(0);
  });

  it('a multi-line subject handed to the outbox is kept for the operator but not mailed', async () => {
    const mails = received();
    await s.app.ctx.outbox.send('email', 'someone@example.net', 'Hello\r\nBcc: victim@example.com', 'text');
    await s.app.ctx.outbox.settled();
    expect(mails.count()).toBe(0);
    expect(await outboxCount(s.database, 'someone@example.net')).toBe(1);
  });
});

describe('an e-mail leaves only once its transaction commits', () => {
  const quietLog = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {}, trace: () => {}, fatal: () => {}, child: () => quietLog } as unknown as FastifyBaseLogger;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const sentTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address)).length;

  it('a transaction that fails after queueing an order e-mail sends nothing and leaves no outbox row', async () => {
    const [m] = await bulkMembers(s.database, 1, 43);
    const mails = received();
    await expect(
      s.database.db.transaction(async (tx) => {
        await announce(s.app.ctx, m.id, 'order_status', { key: 'order_paid', values: { invoice: 'INV-1', amount: '10.00' } }, tx as never);
        await pause(150);
        throw new Error('sold out meanwhile');
      }),
    ).rejects.toThrow('sold out meanwhile');
    await s.app.ctx.outbox.settled();
    await pause(300);
    await s.app.ctx.outbox.settled();
    expect(mails.count()).toBe(0);
    expect(await outboxCount(s.database, m.email!)).toBe(0);
  });

  it('an e-mail queued in a transaction waits for its commit, then goes out once', async () => {
    const [m] = await bulkMembers(s.database, 1, 44);
    await s.database.db.transaction(async (tx) => {
      await announce(s.app.ctx, m.id, 'order_status', { key: 'order_paid', values: { invoice: 'INV-2', amount: '10.00' } }, tx as never);
      await pause(300);
      expect(sentTo(m.email!)).toBe(0);
    });
    await s.app.ctx.outbox.settled();
    await smtp.waitFor(smtp.mails.length + (sentTo(m.email!) ? 0 : 1));
    expect(sentTo(m.email!)).toBe(1);
    const [row] = await rows<{ mail_pending: boolean }>(s.database, sql`SELECT mail_pending FROM outbox WHERE destination = ${m.email}`);
    expect(row.mail_pending).toBe(false);
  });

  it('two servers on one database mail a committed e-mail once', async () => {
    const [m] = await bulkMembers(s.database, 1, 45);
    const mailer = createMailer(smtp.url, 'Upline <no-reply@upline.example>');
    const other = new Outbox(s.database.db, quietLog, { mailer });
    const stop = await other.follow(s.database);
    try {
      for (let i = 0; i < 5; i++) await announce(s.app.ctx, m.id, 'order_status', { key: 'order_paid', values: { invoice: `INV-${i}`, amount: '10.00' } });
      await Promise.all([s.app.ctx.outbox.settled(), other.settled()]);
      await pause(200);
      await Promise.all([s.app.ctx.outbox.settled(), other.settled()]);
      expect(smtp.mails.filter((x) => x.to.includes(m.email!)).map((x) => x.headers.subject).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `Your order INV-${i} is paid`));
    } finally {
      await stop();
      mailer.close();
    }
  });

  it('without SMTP, a rolled-back transaction leaves no outbox row and a committed one leaves its row', async () => {
    const [m] = await bulkMembers(s.database, 1, 46);
    const plain = new Outbox(s.database.db, quietLog);
    await expect(
      s.database.db.transaction(async (tx) => {
        await plain.send('email', m.email!, 'Order paid', 'Being processed.', tx as never);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await outboxCount(s.database, m.email!)).toBe(0);
    await s.database.db.transaction(async (tx) => plain.send('email', m.email!, 'Order paid', 'Being processed.', tx as never));
    const [row] = await rows<{ mail_pending: boolean }>(s.database, sql`SELECT mail_pending FROM outbox WHERE destination = ${m.email}`);
    expect(row.mail_pending).toBe(false);
  });
});
