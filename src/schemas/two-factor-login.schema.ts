/**
 * Two-factor sign-in as the sign-in page sees it: the challenge a right password may answer, and the two kinds of
 * code the member types then. The settings page's schemas and the request bodies are in two-factor.schema.ts (which
 * re-exports these).
 */
import * as z from 'zod/mini';

/** Six digits from the authenticator app (spaces typed between groups are ignored). */
export const totpCodeField = z.string().check(
  z.overwrite((v) => v.replace(/\s+/g, '')),
  z.regex(/^\d{6}$/, 'validation:twoFactorCodeFormat'),
);

/** A recovery code: ten letters and digits, typed with or without its dash, in any case. */
export const recoveryCodeField = z.string().check(
  z.overwrite((v) => v.replace(/[\s-]+/g, '').toUpperCase()),
  z.regex(/^[0-9A-Z]{10}$/, 'validation:recoveryCodeFormat'),
);

/** What POST /api/auth/login answers instead of a session when the member has two-factor sign-in on. */
export const twoFactorChallengeSchema = z.object({
  two_factor_required: z.literal(true),
  /** Random, single-use, five minutes; sent back in the body of /api/auth/login/two_factor, never in a URL. */
  challenge: z.string(),
  expires_in: z.number(),
});
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeSchema>;

export const isTwoFactorChallenge = (answer: object): answer is TwoFactorChallenge =>
  (answer as Partial<TwoFactorChallenge>).two_factor_required === true;
