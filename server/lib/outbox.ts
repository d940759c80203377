/**
 * E-mail and SMS: each message is a row of `outbox` (so the operator sees what was sent) and a log line.
 * With a mailer (SMTP_URL set) e-mails also go out for real — but only once the row is committed: a message
 * written in a transaction (an order's payment, a decision) that then rolls back never leaves. The row is
 * written `mail_pending`; its insert sends a NOTIFY on `upline_outbox`, which the database delivers only at
 * COMMIT; every server following the channel then claims the committed pending rows (one process each row,
 * FOR UPDATE SKIP LOCKED) and hands them to the mailer in the background, so that an answer takes as long
 * whether or not a message was sent. SMS stay in the outbox.
 *
 * The log line names the channel, the masked destination and the subject; the text (which may hold a
 * one-time code) only in demo mode.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { rowsOf, type Executor } from './ledger';
import { outbox } from '../db/schema';
import type { Mailer } from './mailer';
import { maskDestination } from './members';

/** The channel a committed pending e-mail is announced on (migration 0031). */
export const OUTBOX_CHANNEL = 'upline_outbox';

/** Rows claimed at a time. */
const BATCH = 50;

export interface OutboxOptions {
  /** In demo mode the log shows each message's text (codes included); otherwise never. */
  isDemo?: () => boolean;
  /** Sends the e-mails; without one they stay in the outbox table. */
  mailer?: Mailer | null;
}

export class Outbox {
  private readonly inFlight = new Set<Promise<void>>();
  private draining: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: OutboxOptions = {},
  ) {}

  /**
   * `ex`: the transaction the message belongs to (its row commits with it, and an e-mail is mailed only after
   * that commit); by default the database.
   */
  async send(channel: 'email' | 'sms', destination: string, subject: string, body: string, ex: Executor = this.db) {
    const mailPending = channel === 'email' && !!this.opts.mailer;
    await ex.insert(outbox).values({ channel, destination, subject, body, mailPending });
    const shown = maskDestination(channel, destination);
    const demo = this.opts.isDemo?.() ?? false;
    this.log.info({ outbox: { channel, destination: shown, subject } }, demo ? `outbox → ${channel} ${shown}: ${body}` : `outbox → ${channel} ${shown}`);
    // Outside a transaction the row is committed already; inside one, the NOTIFY of its commit starts the mailing.
    if (mailPending && ex === this.db) this.drain();
  }

  /**
   * Mail what is pending now and whenever a transaction commits a pending e-mail (from any process on the
   * database). Does nothing without a mailer. Returns the way to stop.
   */
  async follow(database: Pick<Database, 'listen'>): Promise<() => Promise<void>> {
    if (!this.opts.mailer) return async () => {};
    const stop = await database.listen(OUTBOX_CHANNEL, () => this.drain());
    this.drain();
    return stop;
  }

  /** Resolves once every e-mail committed so far was claimed and delivered or given up. */
  async settled(): Promise<void> {
    if (this.opts.mailer) await this.drain();
    await Promise.all([...this.inFlight]);
  }

  /** Claims and mails the committed pending rows; one drain at a time, again if asked meanwhile. */
  private drain(): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    const run = async () => {
      do {
        this.again = false;
        let claimed: number;
        do claimed = await this.claimBatch();
        while (claimed === BATCH);
      } while (this.again);
    };
    this.draining = run()
      .catch((err: { name?: string; code?: string }) => {
        this.log.error({ mail: { error: err?.name, code: err?.code } }, 'pending e-mails could not be read');
      })
      .finally(() => {
        this.draining = null;
      });
    return this.draining;
  }

  private async claimBatch(): Promise<number> {
    const mailer = this.opts.mailer;
    if (!mailer) return 0;
    const rows = await rowsOf<{ destination: string; subject: string; body: string }>(
      this.db,
      sql`UPDATE outbox SET mail_pending = false
          WHERE id IN (SELECT id FROM outbox WHERE mail_pending ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING id, destination, subject, body`,
    );
    for (const r of rows) this.deliver(mailer, r.destination, r.subject, r.body, maskDestination('email', r.destination));
    return rows.length;
  }

  private deliver(mailer: Mailer, to: string, subject: string, text: string, shown: string) {
    const delivery = mailer
      .send({ to, subject, text })
      .catch((err: { name?: string; code?: string; responseCode?: number }) => {
        // The error's message may quote the address or the server's answer: only its kind is logged.
        this.log.error({ mail: { destination: shown, error: err?.name, code: err?.code, responseCode: err?.responseCode } }, 'an e-mail could not be sent');
      })
      .finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }
}
