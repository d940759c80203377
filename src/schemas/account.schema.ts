/**
 * Account settings (spec §2 "Account settings"): the password change of /member/account/password
 * (PUT /api/user/password), and the address book of /member/account/addresses (/api/user/addresses). The new password meets the company's password policy — the one signup
 * and password reset apply (passwordPolicyErrors) — and is typed twice.
 */
import * as z from 'zod/mini';
import { emailField, mobileField, passwordField, passwordPolicyErrors, passwordPolicySchema, type PasswordPolicy } from './auth-fields.schema';
import { idSchema } from './common.schema';
import { cursorParam, limitParam } from './list-query.schema';

/** GET /api/user/password: what the password form needs to know before it is filled in. */
export const passwordChangeSettingsSchema = z.object({ password_policy: passwordPolicySchema });
export type PasswordChangeSettings = z.infer<typeof passwordChangeSettingsSchema>;

/** Body of PUT /api/user/password. */
export const passwordChangeRequestSchema = z.strictObject({
  current_password: passwordField,
  password: passwordField,
  password_confirmation: passwordField,
});
export type PasswordChangeRequest = z.infer<typeof passwordChangeRequestSchema>;

/**
 * The request under `policy`: every unmet rule is an issue of `password` (its i18n key), a different
 * confirmation an issue of `password_confirmation`. The server checks the body with it, the form its values.
 */
export function passwordChangeSchema(policy: PasswordPolicy | null) {
  return z
    .strictObject({
      ...passwordChangeRequestSchema.shape,
      password: passwordField.check(
        z.superRefine((password, ctx) => {
          for (const key of policy ? passwordPolicyErrors(policy, password) : []) ctx.addIssue(key);
        }),
      ),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (v.password !== v.password_confirmation) ctx.addIssue({ code: 'custom', message: 'validation:passwordMismatch', path: ['password_confirmation'], input: v });
      }),
    );
}

// ── Address book (/member/account/addresses, spec §3 "Address") ─────────────────────────────────────

/** Text of at most `max` characters, trimmed; `required` ones cannot be empty. */
const addressText = (max: number, required = false) =>
  z.string().check(z.trim(), ...(required ? [z.minLength(1, 'validation:required')] : []), z.maxLength(max, 'validation:tooLong'));
/** Empty, or a value `field` accepts (its own message, `key` otherwise). */
const blankOr = (field: z.ZodMiniType<string>, key: string) =>
  z.string().check(z.trim(), z.maxLength(191, 'validation:tooLong'), z.refine((v) => v === '' || z.safeParse(field, v).success, key));

/**
 * Body of POST /api/user/addresses and PUT /api/user/addresses/{id}, and the check of the address form.
 * `country_id` is one of the countries the signup offers; it may come as text (a form's select).
 */
export const addressRequestSchema = z.strictObject({
  first_name: addressText(64, true),
  last_name: z.optional(addressText(64)),
  company: z.optional(addressText(120)),
  address_1: addressText(160, true),
  address_2: z.optional(addressText(160)),
  city: addressText(96, true),
  postcode: z.optional(addressText(16)),
  email: z.optional(blankOr(emailField, 'validation:invalidEmail')),
  phone: z.optional(blankOr(mobileField, 'validation:invalidMobile')),
  country_id: z.coerce.number<unknown>().check(z.int('validation:required'), z.positive('validation:required'), z.lte(2_147_483_647, 'validation:invalidChoice')),
  zone_id: z.optional(z.nullable(idSchema)),
  zone_name: z.optional(addressText(96)),
});
export type AddressRequest = z.infer<typeof addressRequestSchema>;

/** The address form's values: text as typed (the country's id as its select's value; no zone list yet). */
export type AddressValues = Omit<{ [K in keyof AddressRequest]-?: string }, 'zone_id'>;

export const EMPTY_ADDRESS: AddressValues = {
  first_name: '',
  last_name: '',
  company: '',
  address_1: '',
  address_2: '',
  city: '',
  postcode: '',
  email: '',
  phone: '',
  country_id: '',
  zone_name: '',
};

/** One address as answered (spec §3 "Address"). */
export const addressSchema = z.object({
  id: idSchema,
  first_name: z.string(),
  last_name: z.string(),
  company: z.string(),
  address_1: z.string(),
  address_2: z.string(),
  city: z.string(),
  postcode: z.string(),
  email: z.string(),
  phone: z.string(),
  country_id: idSchema,
  zone_id: z.nullable(idSchema),
  country_name: z.string(),
  zone_name: z.string(),
  created_at: z.string(),
});
export type Address = z.infer<typeof addressSchema>;

export const addressPageSchema = z.object({ items: z.array(addressSchema), next_page_url: z.nullable(z.string()) });

/** GET /api/user/addresses: newest first, cursor-paged. */
export const addressListQuerySchema = z.object({ cursor: z.optional(cursorParam()), limit: z.optional(limitParam()) });
