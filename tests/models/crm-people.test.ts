/**
 * Path tests of the contact's page actor and the CSV import of contacts (read, check, preview, import;
 * unreadable and oversized files, refused rows, connection and server failures, a 401).
 */
import { contactImportMachine, contactPageMachine } from '../../src/machines/crm/people.machine';
import { ApiError } from '../../src/api/errors';
import { describePaths, doneEvent, errorEvent, memberCallFailures, stubActors } from '../support/paths';

const file = new Blob(['name\nAna\n'], { type: 'text/csv' });
const good = { imported: 0, valid: 1, failed: [] };
const bad = { imported: 0, valid: 0, failed: [{ row: 1, errors: { name: ['validation:required'] } }] };

describePaths('contact import', {
  machine: stubActors(contactImportMachine),
  events: [
    { type: 'import.file', file, name: 'contacts.csv' },
    doneEvent('read', [{ name: 'Ana' }]),
    doneEvent('read', Array.from({ length: 1001 }, () => ({ name: 'x' }))),
    errorEvent('read', new Error('unreadable')),
    doneEvent('check', good),
    doneEvent('check', bad),
    ...memberCallFailures('check'),
    { type: 'import.confirm' },
    { type: 'import.retry' },
    { type: 'import.reset' },
    doneEvent('save', { ...good, imported: 1 }),
    ...memberCallFailures('save'),
    errorEvent('save', new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { 'rows.1.name': ['validation:required'] } })),
  ],
  serializeState: (s) => JSON.stringify([s.value, s.context.result?.failed.length ?? null, s.context.problem]),
});

describePaths('contact page (detail, note and delete)', {
  machine: stubActors(contactPageMachine),
  inputs: [{ params: 7 }],
  events: [
    { type: 'record.saved' },
    { type: 'record.removed' },
    { type: 'detail.retry' },
    ...(['delete.request', 'delete.confirm', 'delete.cancel', 'delete.retry', 'delete.undo', 'delete.dismiss'] as const).map((type) => ({ type, id: 7 })),
    { type: 'page.notify', params: { kind: 'success', key: 'crm:leads.noteAdded' } },
    { type: 'page.forceLogout' },
  ],
});
