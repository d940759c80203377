/**
 * A small SMTP server on 127.0.0.1 for tests: it speaks enough of RFC 5321 (EHLO/HELO, MAIL, RCPT,
 * DATA, RSET, NOOP, QUIT) for a real client to deliver to it, and keeps every message it accepted.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent (headers, blank line, body), dot-unstuffed, CRLF line ends. */
  data: string;
  /** Header name (lower case) → value, unfolded. */
  headers: Record<string, string>;
  /** The body as sent (transfer-encoded). */
  body: string;
  /** The body decoded (quoted-printable or base64 undone). */
  text: string;
}

export interface SmtpStandIn {
  url: string;
  mails: ReceivedMail[];
  /** Calls `listener` with each message accepted from now on. */
  onMail(listener: (mail: ReceivedMail) => void): void;
  /** Resolves when `count` messages were received (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

function parse(from: string, to: string[], data: string): ReceivedMail {
  const split = data.indexOf('\r\n\r\n');
  const head = split < 0 ? data : data.slice(0, split);
  const body = split < 0 ? '' : data.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8')
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { from, to, data, headers, body, text };
}

export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const mails: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const listeners: Array<(mail: ReceivedMail) => void> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let from = '';
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 stand-in ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const mail = parse(from, to, data.join('\r\n'));
            mails.push(mail);
            listeners.forEach((l) => l(mail));
            waiters.splice(0).forEach((w) => w());
            reply('250 2.0.0 queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-stand-in\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 PIPELINING\r\n');
        else if (verb === 'HELO') reply('250 stand-in');
        else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          to = [];
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          data = [];
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('502 5.5.2 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    onMail(listener) {
      listeners.push(listener);
    },
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, received ${mails.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return mails;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
