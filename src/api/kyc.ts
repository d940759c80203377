/**
 * Identity verification calls (spec §7 "Orders and KYC"): the KYC details, the multipart submission
 * (files under documents[], category, id_number only when given), the delete of a pending document and the
 * download of one of the member's own files.
 */
import { del, get, postMultipart } from './client';
import { download } from './download';
import { messageSchema } from '../schemas/login.schema';
import { kycCategoryListSchema, kycDetailsSchema, kycDocumentListSchema, kycDocumentSchema, type KycValues } from '../schemas/kyc.schema';

/** The form's values as the multipart body of POST /api/kyc. */
export function kycFormData(values: Pick<KycValues, 'category' | 'id_number' | 'documents'>): FormData {
  const form = new FormData();
  form.append('category', values.category);
  // Spec §5: id_number is sent only when given.
  if (values.id_number.trim()) form.append('id_number', values.id_number.trim());
  for (const f of values.documents) form.append('documents[]', f, f.name);
  return form;
}

export const kycApi = {
  details: () => get(kycDetailsSchema, '/api/kyc'),
  documents: () => get(kycDocumentListSchema, '/api/kyc/kyc_details'),
  categories: () => get(kycCategoryListSchema, '/api/kyc/kyc_category'),
  submit: (values: KycValues) => postMultipart(kycDocumentSchema, '/api/kyc', kycFormData(values)),
  remove: (id: number) => del(messageSchema, `/referrals/delete_kyc/${encodeURIComponent(String(id))}`),
  /** One of the member's own files (GET /api/uploads/{id}), saved under its name. */
  downloadFile: (url: string, name: string) => download(url, undefined, name),
};

export type KycApi = typeof kycApi;
