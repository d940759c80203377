/**
 * Real e-mail through an SMTP server (SMTP_URL, e.g. smtp://user:pass@mail.example.com:587 or
 * smtps://…:465), with nodemailer. Text only. A subject or address that spans lines is refused here,
 * whatever the caller checked before: a line break in a header would let a value add headers of its own.
 */
import nodemailer from 'nodemailer';
import { hasControlCharacters } from '../../src/schemas/values.schema';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Thrown for a message that cannot go out as asked (a header with a line break or another control character). */
export class UnsafeHeaderError extends Error {
  constructor(readonly header: 'to' | 'subject') {
    super(`the ${header} of a mail may not hold line breaks or other control characters`);
  }
}

/** Refuses a header value with CR, LF or any other control character. */
export function assertHeaderSafe(header: 'to' | 'subject', value: string) {
  if (hasControlCharacters(value)) throw new UnsafeHeaderError(header);
}

export function createMailer(smtpUrl: string, from: string): Mailer {
  assertHeaderSafe('to', from);
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send({ to, subject, text }) {
      assertHeaderSafe('to', to);
      assertHeaderSafe('subject', subject);
      await transport.sendMail({ from, to, subject, text, disableUrlAccess: true, disableFileAccess: true });
    },
    close() {
      transport.close();
    },
  };
}
