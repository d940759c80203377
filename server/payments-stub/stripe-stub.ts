/**
 * A local, Stripe-compatible card payment provider for machines without internet. It speaks the part of the
 * Stripe REST API the SDK calls here (create and retrieve a Checkout Session, form-encoded, Bearer secret key,
 * Idempotency-Key), serves a hosted checkout page (card number field: 4242 4242 4242 4242 pays,
 * 4000 0000 0000 0002 is declined; Cancel goes back), and on payment delivers a
 * `checkout.session.completed` event signed with the webhook secret in the Stripe-Signature scheme.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const STUB_SECRET_KEY = 'sk_test_local_upline';
export const STUB_WEBHOOK_SECRET = 'whsec_local_upline';
export const TEST_CARD_PAYS = '4242424242424242';
export const TEST_CARD_DECLINED = '4000000000000002';

export interface StubSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  amount_total: number;
  currency: string;
  description: string;
  success_url: string;
  cancel_url: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  url: string | null;
  created: number;
  /** Set when the session is paid. */
  payment_intent: string | null;
}

export interface StubRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  status: 'succeeded';
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

/** Delivers a signed event to the application (over HTTP, or in-process). */
export type Deliver = (body: string, signature: string) => Promise<void>;

export interface StripeStub {
  readonly port: number;
  readonly baseUrl: string;
  sessions: Map<string, StubSession>;
  /** Every refund made, by id. */
  refunds: Map<string, StubRefund>;
  /** API paths (e.g. /v1/refunds) that answer 503 as during an outage of the provider (tests). */
  unavailable: Set<string>;
  /** Pay a session as the hosted page would (tests): marks it complete and delivers the event. */
  pay(id: string): Promise<StubSession>;
  /** The signed event of a session's completion, without delivering it (tests: replays, forgeries). */
  completedEvent(id: string): { body: string; signature: string };
  close(): Promise<void>;
}

const signer = new Stripe(STUB_SECRET_KEY);
const token = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`;

/** Nested form fields (`line_items[0][price_data][currency]=usd`) as a plain object. */
function parseForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((s) => s !== '');
    let node = out as Record<string, unknown>;
    path.forEach((seg, i) => {
      if (i === path.length - 1) node[seg] = value;
      else node = (node[seg] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      data += c;
      if (data.length > 64 * 1024) req.destroy();
    });
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json') {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const stripeError = (res: ServerResponse, status: number, message: string, param?: string) =>
  send(res, status, { error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } });

function page(s: StubSession, error?: string) {
  const amount = `${(s.amount_total / 100).toFixed(2)} ${s.currency.toUpperCase()}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Pay ${escapeHtml(amount)} · Test payments</title>
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1rem;color:#1a1b1e;background:#fff}
label,input,button{display:block;width:100%;box-sizing:border-box;font-size:1rem}input{padding:.6rem;margin:.3rem 0 1rem;border:1px solid #868e96;border-radius:4px}
button{padding:.7rem;border-radius:4px;border:0;background:#1c7ed6;color:#fff;margin-bottom:.6rem;cursor:pointer}button.secondary{background:#e9ecef;color:#1a1b1e}
.error{color:#c92a2a;font-weight:600}.note{color:#495057;font-size:.9rem}</style></head>
<body><main><h1>Test payment</h1><p>${escapeHtml(s.description)}</p><p><strong>${escapeHtml(amount)}</strong></p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/pay/${s.id}"><label for="card">Card number</label>
<input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required placeholder="4242 4242 4242 4242">
<button type="submit" name="action" value="pay">Pay ${escapeHtml(amount)}</button></form>
<form method="post" action="/pay/${s.id}"><button class="secondary" type="submit" name="action" value="cancel">Cancel and go back</button></form>
<p class="note">Local test provider: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.</p></main></body></html>`;
}

export async function startStripeStub(opts: { deliver: Deliver; port?: number; host?: string; publicHost?: string; log?: (msg: string) => void }): Promise<StripeStub> {
  const sessions = new Map<string, StubSession>();
  const byKey = new Map<string, string>();
  const refunds = new Map<string, StubRefund>();
  const refundByKey = new Map<string, string>();
  const unavailable = new Set<string>();
  let base = '';

  const completedEvent = (id: string) => {
    const s = sessions.get(id)!;
    const body = JSON.stringify({
      id: token('evt'),
      object: 'event',
      type: 'checkout.session.completed',
      api_version: null,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object: s },
    });
    return { body, signature: signer.webhooks.generateTestHeaderString({ payload: body, secret: STUB_WEBHOOK_SECRET }) };
  };

  const pay = async (id: string) => {
    const s = sessions.get(id);
    if (!s) throw new Error('no such session');
    if (s.status === 'open') {
      s.status = 'complete';
      s.payment_status = 'paid';
      s.payment_intent = token('pi');
      s.url = null;
      const { body, signature } = completedEvent(id);
      // Delivery failures are the application's to retry by confirming on its success page.
      await opts.deliver(body, signature).catch((e: unknown) => opts.log?.(`webhook delivery failed: ${(e as Error).message}`));
    }
    return s;
  };

  /** POST /v1/refunds: payment_intent, optional amount (minor units), metadata; one refund per Idempotency-Key. */
  const refund = async (req: IncomingMessage, res: ServerResponse) => {
    const f = parseForm(await readBody(req));
    // From here on nothing waits: concurrent requests with one key make one refund.
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string' && refundByKey.has(key)) return send(res, 200, refunds.get(refundByKey.get(key)!));
    const pi = typeof f.payment_intent === 'string' ? f.payment_intent : '';
    const s = pi ? [...sessions.values()].find((x) => x.payment_intent === pi) : undefined;
    if (!s) return stripeError(res, 404, `No such payment_intent: '${pi}'`, 'payment_intent');
    const already = [...refunds.values()].filter((r) => r.payment_intent === pi).reduce((sum, r) => sum + r.amount, 0);
    const amount = f.amount === undefined ? s.amount_total - already : Number(f.amount);
    if (already >= s.amount_total) return send(res, 400, { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge for ${pi} has already been refunded.` } });
    if (!Number.isInteger(amount) || amount <= 0 || amount > s.amount_total - already) {
      return stripeError(res, 400, `Refund amount (${f.amount}) is greater than unrefunded amount on charge (${s.amount_total - already})`, 'amount');
    }
    const r: StubRefund = {
      id: token('re'),
      object: 'refund',
      amount,
      currency: s.currency,
      payment_intent: pi,
      charge: null,
      status: 'succeeded',
      reason: typeof f.reason === 'string' ? f.reason : null,
      metadata: (f.metadata ?? {}) as Record<string, string>,
      created: Math.floor(Date.now() / 1000),
    };
    refunds.set(r.id, r);
    if (typeof key === 'string') refundByKey.set(key, r.id);
    return send(res, 200, r);
  };

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (req.headers.authorization !== `Bearer ${STUB_SECRET_KEY}`) return stripeError(res, 401, 'Invalid API Key provided');
    if (unavailable.has(url.pathname)) return send(res, 503, { error: { type: 'api_error', message: 'The service is temporarily unavailable.' } });
    if (url.pathname === '/v1/refunds' && req.method === 'POST') return refund(req, res);
    const m = url.pathname.match(/^\/v1\/checkout\/sessions(?:\/([A-Za-z0-9_]+))?$/);
    if (!m) return stripeError(res, 404, 'Unrecognized request URL');
    if (req.method === 'GET' && m[1]) {
      const s = sessions.get(m[1]);
      return s ? send(res, 200, s) : stripeError(res, 404, `No such checkout.session: '${m[1]}'`, 'id');
    }
    if (req.method !== 'POST' || m[1]) return stripeError(res, 404, 'Unrecognized request URL');
    const key = req.headers['idempotency-key'];
    if (typeof key === 'string' && byKey.has(key)) return send(res, 200, sessions.get(byKey.get(key)!));
    const f = parseForm(await readBody(req));
    const line = ((f.line_items as Record<string, unknown> | undefined)?.['0'] ?? {}) as { price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } }; quantity?: string };
    const amount = Number(line.price_data?.unit_amount) * Number(line.quantity ?? 1);
    if (!Number.isInteger(amount) || amount <= 0) return stripeError(res, 400, 'Invalid unit_amount', 'line_items[0][price_data][unit_amount]');
    if (typeof f.success_url !== 'string' || typeof f.cancel_url !== 'string') return stripeError(res, 400, 'Missing success_url or cancel_url', 'success_url');
    const id = token('cs_test');
    const s: StubSession = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: amount,
      currency: String(line.price_data?.currency ?? 'usd'),
      description: String(line.price_data?.product_data?.name ?? 'Payment'),
      success_url: f.success_url,
      cancel_url: f.cancel_url,
      client_reference_id: typeof f.client_reference_id === 'string' ? f.client_reference_id : null,
      metadata: (f.metadata ?? {}) as Record<string, string>,
      url: `${base}/pay/${id}`,
      created: Math.floor(Date.now() / 1000),
      payment_intent: null,
    };
    sessions.set(id, s);
    if (typeof key === 'string') byKey.set(key, id);
    return send(res, 200, s);
  };

  const hosted = async (req: IncomingMessage, res: ServerResponse, id: string) => {
    const s = sessions.get(id);
    if (!s) return send(res, 404, '<!doctype html><title>Not found</title><p>This payment page does not exist.</p>', 'text/html; charset=utf-8');
    if (s.status !== 'open') {
      res.writeHead(303, { location: s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id) });
      return res.end();
    }
    if (req.method === 'GET') return send(res, 200, page(s), 'text/html; charset=utf-8');
    const form = new URLSearchParams(await readBody(req));
    if (form.get('action') === 'cancel') {
      res.writeHead(303, { location: s.cancel_url.replace('{CHECKOUT_SESSION_ID}', s.id) });
      return res.end();
    }
    const card = (form.get('card') ?? '').replace(/[\s-]/g, '');
    if (card === TEST_CARD_DECLINED) return send(res, 402, page(s, 'Your card was declined.'), 'text/html; charset=utf-8');
    if (card !== TEST_CARD_PAYS) return send(res, 400, page(s, 'Your card number is invalid.'), 'text/html; charset=utf-8');
    await pay(id);
    res.writeHead(303, { location: s.success_url.replace('{CHECKOUT_SESSION_ID}', s.id) });
    res.end();
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const pageMatch = url.pathname.match(/^\/pay\/([A-Za-z0-9_]+)$/);
    const work = url.pathname.startsWith('/v1/') ? api(req, res, url) : pageMatch ? hosted(req, res, pageMatch[1]) : Promise.resolve(stripeError(res, 404, 'Not found'));
    work.catch(() => {
      if (!res.headersSent) stripeError(res, 500, 'Internal error');
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://${opts.publicHost ?? 'localhost'}:${port}`;
  return {
    port,
    baseUrl: base,
    sessions,
    refunds,
    unavailable,
    pay,
    completedEvent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
