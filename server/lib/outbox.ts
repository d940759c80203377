/**
 * E-mail and SMS: each message is a row of `outbox` (so the operator sees what was sent) and a log line.
 * With a mailer (SMTP_URL set) e-mails also go out for real, in the background so that an answer takes
 * as long whether or not a message was sent; SMS stay in the outbox.
 *
 * The log line names the channel, the masked destination and the subject; the text (which may hold a
 * one-time code) only in demo mode.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { Executor } from './ledger';
import { outbox } from '../db/schema';
import type { Mailer } from './mailer';
import { maskDestination } from './members';

export interface OutboxOptions {
  /** In demo mode the log shows each message's text (codes included); otherwise never. */
  isDemo?: () => boolean;
  /** Sends the e-mails; without one they stay in the outbox table. */
  mailer?: Mailer | null;
}

export class Outbox {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly opts: OutboxOptions = {},
  ) {}

  /** `ex`: the transaction the message belongs to (its row commits with it); by default the database. */
  async send(channel: 'email' | 'sms', destination: string, subject: string, body: string, ex: Executor = this.db) {
    await ex.insert(outbox).values({ channel, destination, subject, body });
    const shown = maskDestination(channel, destination);
    const demo = this.opts.isDemo?.() ?? false;
    this.log.info({ outbox: { channel, destination: shown, subject } }, demo ? `outbox → ${channel} ${shown}: ${body}` : `outbox → ${channel} ${shown}`);
    const mailer = this.opts.mailer;
    if (channel === 'email' && mailer) this.deliver(mailer, destination, subject, body, shown);
  }

  /** Resolves once every e-mail handed over so far was delivered or given up. */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
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
