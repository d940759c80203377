/**
 * Which card provider a server uses: Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set, else the
 * local Stripe-compatible test provider (server/payments-stub), started on first use inside this process
 * (PAYMENTS_STUB_PORT fixes its port, PAYMENTS_STUB_HOST the host name in its page links; default an
 * ephemeral port on localhost). Either way the application talks to it through the Stripe SDK.
 */
import type { AppContext } from '../app-context';
import { startStripeStub, STUB_SECRET_KEY, STUB_WEBHOOK_SECRET, type Deliver, type StripeStub } from '../../payments-stub/stripe-stub';
import type { CardProvider } from './card-provider';
import { createStripeProvider } from './stripe-provider';

interface Chosen {
  provider: Promise<CardProvider>;
  stub: Promise<StripeStub> | null;
}

const chosen = new WeakMap<AppContext, Chosen>();

export function stripeKeys(env: NodeJS.ProcessEnv = process.env): { secretKey: string; webhookSecret: string } | null {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  return secretKey && webhookSecret ? { secretKey, webhookSecret } : null;
}

/** The server's card provider (created once per server); `deliver` hands the local provider's events to the app. */
export function cardProviderOf(ctx: AppContext, deliver: Deliver): () => Promise<CardProvider> {
  return () => {
    let c = chosen.get(ctx);
    if (!c) {
      const keys = stripeKeys();
      if (keys) {
        c = { provider: Promise.resolve(createStripeProvider({ ...keys, kind: 'stripe' })), stub: null };
      } else {
        const stub = startStripeStub({
          deliver,
          port: process.env.PAYMENTS_STUB_PORT ? Number(process.env.PAYMENTS_STUB_PORT) : 0,
          publicHost: process.env.PAYMENTS_STUB_HOST || 'localhost',
        });
        c = {
          stub,
          provider: stub.then((s) =>
            createStripeProvider({ secretKey: STUB_SECRET_KEY, webhookSecret: STUB_WEBHOOK_SECRET, kind: 'local', api: { host: '127.0.0.1', port: s.port, protocol: 'http' } }),
          ),
        };
      }
      chosen.set(ctx, c);
    }
    return c.provider;
  };
}

/** The local test provider of a server, when it runs one (tests pay and replay through it). */
export function localStubOf(ctx: AppContext): Promise<StripeStub> | null {
  return chosen.get(ctx)?.stub ?? null;
}

/** Stop the local provider with its server. */
export async function closeCardProvider(ctx: AppContext): Promise<void> {
  const c = chosen.get(ctx);
  chosen.delete(ctx);
  if (c?.stub) await (await c.stub).close();
}
