/** Stand-in for e-mail and SMS: each message is a row of `outbox` and a log line. */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';

export class Outbox {
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(channel: 'email' | 'sms', destination: string, subject: string, body: string) {
    await this.db.insert(outbox).values({ channel, destination, subject, body });
    this.log.info({ outbox: { channel, destination, subject } }, `outbox → ${channel} ${destination}: ${body}`);
  }
}
