/**
 * The signed-in member's contact details and wallet password (spec §2 Account settings: email, phone,
 * wallet-password), always about the caller:
 *
 * - GET /api/user/email, PUT /api/user/email (new address + account password → a code to the new
 *   address), POST /api/user/email/resend, POST /api/user/email/verify (the code → the change applies,
 *   the old address is told); the same under /api/user/phone with a code by SMS;
 * - GET /api/user/wallet_password (set or not, the policy, where a reset code goes), POST (set, with the
 *   account password), PUT (change, with the current wallet password), POST …/reset_code and …/reset
 *   (forgotten: a code to the member's e-mail).
 *
 * Code sends and verification tries are throttled per member on top of the codes' own limits (a resend
 * no sooner than 30 s, five tries per code); changes are refused in demo mode.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../lib/app-context';
import { envelope } from '../../src/schemas/common.schema';
import { otpSentSchema } from '../../src/schemas/auth.schema';
import {
  contactDetailsSchema,
  contactVerifyRequestSchema,
  emailChangeRequestSchema,
  emailSettingsSchema,
  phoneChangeRequestSchema,
  phoneSettingsSchema,
  walletPasswordChangeRequestSchema,
  walletPasswordResetRequestSchema,
  walletPasswordSetRequestSchema,
  walletPasswordStatusSchema,
} from '../../src/schemas/contact.schema';
import { protectedAction, requireAuth } from '../lib/auth';
import { phoneSettings, requestEmailChange, requestPhoneChange, resendChangeCode, verifyChange, type ContactKind } from '../lib/contact';
import { MINUTE, routeLimits } from '../lib/rate-limit';
import { changeWalletPassword, resetWalletPassword, sendWalletResetCode, setWalletPassword, walletPasswordStatus } from '../lib/wallet-password';

/** Counted per member: many addresses gain nothing. */
const perMember = (what: string) => (req: FastifyRequest) => `${what}|${req.member?.id ?? req.ip}`;

export async function contactRoutes(base: FastifyInstance, ctx: AppContext) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const limit = routeLimits(ctx.config);
  const tags = ['users'];
  const signedIn = { preHandler: requireAuth };
  // Signed in and not in demo mode, before the body is even read (spec §6).
  const changing = { preValidation: [requireAuth, protectedAction(ctx.isDemo)] };

  app.get(
    '/api/user/email',
    { ...signedIn, schema: { tags, description: "The signed-in member's e-mail address.", response: { 200: envelope(emailSettingsSchema) } } },
    async (req) => ctx.envelope(req, { email: req.member!.email }),
  );
  app.get(
    '/api/user/phone',
    {
      ...signedIn,
      schema: { tags, description: "The signed-in member's mobile number and the phone codes that may be chosen.", response: { 200: envelope(phoneSettingsSchema) } },
    },
    async (req) => ctx.envelope(req, await phoneSettings(ctx, req.member!)),
  );

  const kinds: { kind: ContactKind; what: string; channel: string }[] = [
    { kind: 'email', what: 'e-mail address', channel: 'e-mail to the new address' },
    { kind: 'phone', what: 'mobile number', channel: 'SMS to the new number' },
  ];
  for (const { kind, what, channel } of kinds) {
    const path = `/api/user/${kind}`;
    const request = kind === 'email' ? emailChangeRequestSchema : phoneChangeRequestSchema;
    app.put(
      path,
      {
        ...changing,
        config: limit(5, 10 * MINUTE, perMember(`${kind}.send`)),
        schema: {
          tags,
          description:
            `Ask to change the ${what}: the new one and the account \`password\`. A one-time code goes by ${channel}; ` +
            `nothing changes until POST ${path}/verify. A new request replaces a pending one.`,
          body: request,
          response: { 200: envelope(otpSentSchema) },
        },
      },
      async (req) => {
        const body = req.body as never;
        const sent = kind === 'email' ? await requestEmailChange(ctx, req.member!, body, req.ip) : await requestPhoneChange(ctx, req.member!, body, req.ip);
        return ctx.envelope(req, sent);
      },
    );
    app.post(
      `${path}/resend`,
      {
        ...changing,
        config: limit(5, 10 * MINUTE, perMember(`${kind}.send`)),
        schema: { tags, description: `A new code for the pending ${what} change (no sooner than 30 s after the last).`, response: { 200: envelope(otpSentSchema) } },
      },
      async (req) => ctx.envelope(req, await resendChangeCode(ctx, req.member!, kind)),
    );
    app.post(
      `${path}/verify`,
      {
        ...changing,
        config: limit(20, 10 * MINUTE, perMember(`${kind}.verify`)),
        schema: {
          tags,
          description: `Apply the pending ${what} change with its code (\`otp\`): single use, expiring, five tries. The old one is told of the change.`,
          body: contactVerifyRequestSchema,
          response: { 200: envelope(contactDetailsSchema) },
        },
      },
      async (req) => ctx.envelope(req, await verifyChange(ctx, req.member!, kind, req.body, req.ip)),
    );
  }

  const WALLET = '/api/user/wallet_password';
  const status = { 200: envelope(walletPasswordStatusSchema) };
  app.get(
    WALLET,
    {
      ...signedIn,
      schema: {
        tags,
        description: 'Whether the member has a wallet password (payouts then ask for it instead of the account password), its policy, and where a reset code goes.',
        response: status,
      },
    },
    async (req) => ctx.envelope(req, await walletPasswordStatus(ctx, req.member!)),
  );
  app.post(
    WALLET,
    {
      ...changing,
      config: limit(10, 10 * MINUTE, perMember('wallet_password')),
      schema: { tags, description: 'Set the first wallet password, with the account `password`.', body: walletPasswordSetRequestSchema, response: status },
    },
    async (req) => ctx.envelope(req, await setWalletPassword(ctx, req.member!, req.body, req.ip)),
  );
  app.put(
    WALLET,
    {
      ...changing,
      config: limit(10, 10 * MINUTE, perMember('wallet_password')),
      schema: {
        tags,
        description: 'Change the wallet password with the current one. Five wrong ones in a row lock it for 15 minutes (429).',
        body: walletPasswordChangeRequestSchema,
        response: status,
      },
    },
    async (req) => ctx.envelope(req, await changeWalletPassword(ctx, req.member!, req.body, req.ip)),
  );
  app.post(
    `${WALLET}/reset_code`,
    {
      ...changing,
      config: limit(5, 10 * MINUTE, perMember('wallet_password.send')),
      schema: { tags, description: "A forgotten wallet password: a one-time code to the member's e-mail.", response: { 200: envelope(otpSentSchema) } },
    },
    async (req) => ctx.envelope(req, await sendWalletResetCode(ctx, req.member!)),
  );
  app.post(
    `${WALLET}/reset`,
    {
      ...changing,
      config: limit(20, 10 * MINUTE, perMember('wallet_password.verify')),
      schema: { tags, description: 'A new wallet password with the code sent by POST …/reset_code.', body: walletPasswordResetRequestSchema, response: status },
    },
    async (req) => ctx.envelope(req, await resetWalletPassword(ctx, req.member!, req.body, req.ip)),
  );
}
