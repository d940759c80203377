/**
 * Identity verification (spec §3 "KYC document", "KYC details"; §5 "KYC submit"; §7 the KYC calls) and the
 * rules of the files a member sends (the upload pipeline's KYC policy): JPG, PNG or PDF, 10 MB each, at most
 * `attachments_limit` of them. The server reads the type from the bytes; the form checks what the browser
 * says so that a wrong file is named before anything is sent.
 */
import * as z from 'zod/mini';
import { idSchema } from './common.schema';

export const KYC_STATUSES = ['not_submitted', 'pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
export const kycStatusSchema = z.enum(KYC_STATUSES);

/** What identity documents may be: the types and the size of each file. */
export const KYC_FILE_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
export const KYC_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** One file of a KYC document, downloaded by its owner from `url`. */
export const kycAttachmentSchema = z.object({
  id: idSchema,
  name: z.string(),
  content_type: z.string(),
  size: z.number(),
  url: z.string(),
});
export type KycAttachment = z.infer<typeof kycAttachmentSchema>;

/** Spec §3 "KYC document", with the reason of a rejection. */
export const kycDocumentSchema = z.object({
  id: idSchema,
  status: z.enum(['pending', 'approved', 'rejected']),
  category_name: z.string(),
  created_at: z.string(),
  documents: z.array(kycAttachmentSchema),
  id_number: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  decided_at: z.nullable(z.string()),
});
export type KycDocument = z.infer<typeof kycDocumentSchema>;

export const kycCategorySchema = z.object({ id: idSchema, name: z.string() });
export type KycCategory = z.infer<typeof kycCategorySchema>;

/** Spec §3 "KYC details": GET /api/kyc. */
export const kycDetailsSchema = z.object({
  status: kycStatusSchema,
  history: z.array(kycDocumentSchema),
  categories: z.array(kycCategorySchema),
  attachments_limit: z.number().check(z.int(), z.positive()),
  id_number_required: z.boolean(),
  id_number_label: z.string(),
});
export type KycDetails = z.infer<typeof kycDetailsSchema>;

/** GET /api/kyc/kyc_details and GET /api/kyc/kyc_category. */
export const kycDocumentListSchema = z.array(kycDocumentSchema);
export const kycCategoryListSchema = z.array(kycCategorySchema);

/** What the KYC form lets a member send right now: nothing while a document waits or once approved. */
export function kycCanSubmit(status: KycStatus): boolean {
  return status === 'not_submitted' || status === 'rejected';
}

/** The i18n key of what is wrong with one chosen file (by what the browser says of it), or null. */
export function kycFileProblem(file: { type: string; size: number }): string | null {
  if (!(KYC_FILE_TYPES as readonly string[]).includes(file.type)) return 'account:upload.fileType';
  if (file.size > KYC_MAX_FILE_BYTES) return 'account:upload.fileTooLarge';
  if (file.size === 0) return 'account:upload.fileEmpty';
  return null;
}

/** The text fields of POST /api/kyc (the files come under documents[]); `category` as sent (form text). */
const idNumberText = z.string().check(z.trim(), z.maxLength(64, 'validation:tooLong'));
export const kycFieldsSchema = z.object({
  category: z.coerce.number<unknown>().check(z.int('validation:required'), z.positive('validation:required'), z.lte(2_147_483_647, 'validation:invalidChoice')),
  id_number: z.optional(idNumberText),
});
export type KycFields = z.infer<typeof kycFieldsSchema>;

/** The KYC form's values: the category's id as its select's value, the number as typed, the chosen files. */
export interface KycValues {
  [field: string]: string | undefined | readonly File[];
  category: string;
  id_number: string;
  documents: readonly File[];
}

/**
 * The form under the member's KYC settings: a category, the number when required, 1 to
 * `attachments_limit` files each of an allowed type and size. The server applies the same rules.
 */
export function kycFormSchema(details: Pick<KycDetails, 'attachments_limit' | 'id_number_required'> | null) {
  const limit = details?.attachments_limit ?? 1;
  return z.object({
    category: z.string().check(z.minLength(1, 'validation:required')),
    id_number: details?.id_number_required ? idNumberText.check(z.minLength(1, 'validation:required')) : idNumberText,
    documents: z.array(z.custom<File>()).check(
      z.superRefine((files, ctx) => {
        if (files.length === 0) return ctx.addIssue('account:kyc.errors.documentsRequired');
        if (files.length > limit) return ctx.addIssue('account:upload.tooManyFiles');
        for (const f of files) {
          const problem = kycFileProblem(f);
          if (problem) return ctx.addIssue(problem);
        }
      }),
    ),
  });
}
