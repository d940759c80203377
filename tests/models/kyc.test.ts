/**
 * Generated paths of the KYC page's machines: the form (loads the details, files as values, multipart
 * submission), the delete of a pending document, and the page actor that holds both.
 */
import { ApiError, ConnectionError } from '../../src/api/errors';
import { kycDeleteMachine, kycFormMachine, kycPageMachine } from '../../src/machines/account/kyc.machine';
import type { KycDetails } from '../../src/schemas/kyc.schema';
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';

const DETAILS: KycDetails = {
  status: 'not_submitted',
  history: [],
  categories: [{ id: 1, name: 'Passport' }],
  attachments_limit: 2,
  id_number_required: true,
  id_number_label: 'Document number',
};
const png = new File([new Uint8Array([137, 80, 78, 71])], 'front.png', { type: 'image/png' });
const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
const failures = memberCallFailures;

describePaths('KYC form', {
  machine: stubActors(kycFormMachine),
  events: [
    doneEvent('load', DETAILS),
    errorEvent('load', new ConnectionError()),
    errorEvent('load', new ApiError('server', 500, {})),
    errorEvent('load', new ApiError('unauthorized', 401, {})),
    { type: 'kyc.save', values: { category: '1', id_number: 'X1', documents: [png] } },
    { type: 'kyc.save', values: { category: '1', id_number: 'T1', documents: [text] } },
    { type: 'kyc.change', field: 'documents', value: [png] },
    doneEvent('request', { id: 9 }),
    ...failures('request'),
    errorEvent('request', new ApiError('badRequest', 413, { error_code: 'validation_error', errors: { documents: ['account:upload.fileTooLarge'] } })),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.failure, s.context.saved, s.context.loaded !== null, (s.context.values.documents as File[]).map((f) => f.name)]),
});

describePaths('KYC delete of a pending document', {
  machine: stubActors(kycDeleteMachine),
  events: [{ type: 'delete.request', id: 4 }, doneEvent('remove'), ...failures('remove'), errorEvent('remove', new ApiError('notFound', 404, {}))],
});

describePaths('KYC page (form + delete)', {
  machine: stubActors(kycPageMachine),
  events: [
    { type: 'kyc.changed' },
    ...(['delete.request', 'delete.confirm', 'delete.cancel', 'delete.retry', 'delete.dismiss'] as const).map((type) => ({ type, id: 4 })),
    { type: 'page.notify', params: { kind: 'success', key: 'account:kyc.submitted' } },
    { type: 'page.forceLogout' },
  ],
});
