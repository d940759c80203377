/**
 * Bank details of /member/account/bank (GET/PUT /api/user/bank_details): the account holder, the
 * country of the account, the IBAN — or, for a country without IBANs, the account number and its
 * routing / sort code — the SWIFT/BIC and the bank's name. The same schema checks the form and the
 * server's body: IBAN and BIC go through ibantools (format, length per country, checksum), and every
 * problem is the i18n key of its field (account:bank.errors.*).
 */
import * as z from 'zod/mini';
import { electronicFormatIBAN, getCountrySpecifications, validateBIC, validateIBAN, ValidationErrorsIBAN } from 'ibantools';

const ERR = 'account:bank.errors';

/** Countries whose accounts are identified by an IBAN (ibantools' registry). */
export function usesIban(country: string): boolean {
  const spec = getCountrySpecifications()[country.toUpperCase()];
  return !!spec?.chars && !!spec.IBANRegistry;
}

/** An IBAN or account number as stored: no spaces, upper case. */
export const compactAccount = (text: string) => (electronicFormatIBAN(text) ?? '').toUpperCase();

/** The i18n key of what is wrong with `iban` for an account in `country`, or null. */
export function ibanError(iban: string, country: string): string | null {
  const compact = compactAccount(iban);
  if (!compact) return 'validation:required';
  const result = validateIBAN(compact);
  if (!result.valid) {
    const checksum = result.errorCodes.some(
      (c) => c === ValidationErrorsIBAN.WrongIBANChecksum || c === ValidationErrorsIBAN.ChecksumNotNumber || c === ValidationErrorsIBAN.WrongAccountBankBranchChecksum,
    );
    const onlyChecksum = checksum && result.errorCodes.every((c) => c === ValidationErrorsIBAN.WrongIBANChecksum || c === ValidationErrorsIBAN.ChecksumNotNumber || c === ValidationErrorsIBAN.WrongAccountBankBranchChecksum);
    return onlyChecksum ? `${ERR}.ibanChecksum` : `${ERR}.ibanFormat`;
  }
  if (country && compact.slice(0, 2) !== country.toUpperCase()) return `${ERR}.ibanCountry`;
  return null;
}

/** The i18n key of what is wrong with a SWIFT/BIC, or null. */
export function bicError(bic: string): string | null {
  const compact = bic.replace(/\s+/g, '').toUpperCase();
  if (!compact) return 'validation:required';
  return validateBIC(compact).valid ? null : `${ERR}.bicInvalid`;
}

const ACCOUNT_NUMBER = /^[0-9A-Z]{4,34}$/;
const ROUTING_CODE = /^[0-9A-Z]{3,15}$/;
/** Account numbers and routing codes as stored: no spaces or hyphens, upper case. */
export const compactCode = (text: string) => text.replace(/[\s-]+/g, '').toUpperCase();

const text = (max: number) => z.string().check(z.trim(), z.minLength(1, 'validation:required'), z.maxLength(max, 'validation:tooLong'));
const optionalText = z.optional(z.string().check(z.maxLength(64, 'validation:tooLong')));

/** The bank details as typed (the form's values, and the body of PUT without its password). */
export const bankDetailsFieldsSchema = z.strictObject({
  account_holder: text(120),
  country: z.string().check(z.trim(), z.regex(/^[A-Za-z]{2}$/, 'validation:required')),
  iban: optionalText,
  account_number: optionalText,
  routing_code: optionalText,
  bic: z.string().check(z.maxLength(16, 'validation:tooLong')),
  bank_name: text(120),
});
export type BankDetailsFields = z.infer<typeof bankDetailsFieldsSchema>;

/** The form's values: every field as text. */
export type BankDetailsValues = { [K in keyof BankDetailsFields]-?: string };
export const EMPTY_BANK_DETAILS: BankDetailsValues = { account_holder: '', country: '', iban: '', account_number: '', routing_code: '', bic: '', bank_name: '' };

/** The whole check: the IBAN where the country has them, else account number and routing code; the BIC. */
export const bankDetailsSchema = bankDetailsFieldsSchema.check(
  z.superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [path], input: v });
    const country = v.country.trim().toUpperCase();
    if (/^[A-Z]{2}$/.test(country)) {
      if (usesIban(country)) {
        const e = ibanError(v.iban ?? '', country);
        if (e) issue('iban', e);
      } else {
        const account = compactCode(v.account_number ?? '');
        const routing = compactCode(v.routing_code ?? '');
        if (!account) issue('account_number', 'validation:required');
        else if (!ACCOUNT_NUMBER.test(account)) issue('account_number', `${ERR}.accountNumberInvalid`);
        if (!routing) issue('routing_code', 'validation:required');
        else if (!ROUTING_CODE.test(routing)) issue('routing_code', `${ERR}.routingCodeInvalid`);
      }
    } else if ((v.iban ?? '').trim()) {
      // No country chosen yet: the IBAN is still checked on its own.
      const e = ibanError(v.iban ?? '', '');
      if (e) issue('iban', e);
    }
    const b = bicError(v.bic);
    if (b) issue('bic', b);
  }),
);

/** Body of PUT /api/user/bank_details: the details and the account password re-entered. */
export const bankDetailsRequestSchema = z.strictObject({ ...bankDetailsFieldsSchema.shape, password: z.string().check(z.maxLength(128, 'validation:tooLong')) });
export type BankDetailsRequest = z.infer<typeof bankDetailsRequestSchema>;

/** Saved bank details as answered: the number masked to its last four characters. */
export const maskedBankDetailsSchema = z.object({
  account_holder: z.string(),
  country: z.string(),
  /** 'iban' or 'account' (account number + routing code). */
  kind: z.enum(['iban', 'account']),
  /** e.g. "•••• 4300". */
  account_masked: z.string(),
  routing_code: z.nullable(z.string()),
  bic: z.string(),
  bank_name: z.string(),
  updated_at: z.string(),
});
export type MaskedBankDetails = z.infer<typeof maskedBankDetailsSchema>;

export const bankCountrySchema = z.object({ iso_code_2: z.string(), name: z.string(), iban: z.boolean() });
export type BankCountry = z.infer<typeof bankCountrySchema>;

/** GET and PUT /api/user/bank_details answer: the saved details (masked) or null, and the countries to choose from. */
export const bankDetailsAnswerSchema = z.object({
  bank_details: z.nullable(maskedBankDetailsSchema),
  countries: z.array(bankCountrySchema),
});
export type BankDetailsAnswer = z.infer<typeof bankDetailsAnswerSchema>;

/** The last four characters of an account number, masked: "•••• 4300". */
export const maskLastFour = (value: string) => `•••• ${value.slice(-4)}`;
