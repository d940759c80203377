/**
 * /member/kyc as one page actor: `form` (the KYC form declared on the form factory: it loads the KYC details —
 * status, history, categories, attachments_limit, id_number_required/label — checks the values with the
 * shared schema under those settings, and sends the multipart submission) and `remove` (delete a pending
 * document, with confirmation). A submission or a delete loads the details again (`kyc.reset`: the new status
 * and history, an empty form). The page's `delete.*` events reach the delete.
 *
 * The chosen files are values of the form (`documents`): they live in memory only, so the page is kept in
 * memory, never saved to the tab's storage.
 */
import { sendTo, setup } from 'xstate';
import { kycApi } from '../../api/kyc';
import { kycFormSchema, type KycDetails, type KycDocument, type KycValues } from '../../schemas/kyc.schema';
import { createFormMachine } from '../form.machine';
import { createDeleteMachine, onPageNote, pageActions, reportToPage, tellPage, type Child, type DeleteEvent, type PageNote } from '../resource.machine';

export const EMPTY_KYC: KycValues = { category: '', id_number: '', documents: [] };

export const kycFormMachine = createFormMachine({
  id: 'kycSubmit',
  domain: 'kyc',
  initialValues: EMPTY_KYC,
  load: (): Promise<KycDetails> => kycApi.details(),
  schema: (details) => kycFormSchema(details),
  submit: ({ values }): Promise<KycDocument> => kycApi.submit(values),
  successKey: 'account:kyc.submitted',
  clearOnSuccess: true,
});

export const kycDeleteMachine = createDeleteMachine<number>('kycDelete', { remove: (id) => kycApi.remove(id) });

/** Save one of the member's own files (the download is a call of the API, bound where the page is declared). */
export const kycDownload = (url: string, name: string) => kycApi.downloadFile(url, name);

/** A submission or a delete changed the status and the history. */
const changed = (child: Child) => tellPage(child, { type: 'kyc.changed' } as never);
const DELETE_EVENTS = ['delete.request', 'delete.confirm', 'delete.cancel', 'delete.retry', 'delete.dismiss'] as const;

export type KycPageEvent = DeleteEvent<number> | PageNote | { type: 'kyc.changed' };

export const kycPageMachine = setup({
  types: {
    events: {} as KycPageEvent,
    children: {} as { form: 'form'; remove: 'remove' },
  },
  actors: {
    form: kycFormMachine.provide({ actions: { ...reportToPage, apply: changed } }),
    remove: kycDeleteMachine.provide({ actions: { ...reportToPage, removed: changed } }),
  },
  actions: pageActions,
}).createMachine({
  id: 'kycPage',
  initial: 'verifying',
  states: {
    /** The page is open: its form and its delete run for as long as it is. */
    verifying: {
      invoke: [
        { id: 'form', src: 'form' },
        { id: 'remove', src: 'remove' },
      ],
    },
  },
  on: {
    // A submission or a delete changed the status and the history: load them again (an empty form).
    'kyc.changed': { actions: sendTo('form', { type: 'kyc.reset' }) },
    ...onPageNote,
    ...Object.fromEntries(DELETE_EVENTS.map((type) => [type, { actions: sendTo('remove', ({ event }: { event: KycPageEvent }) => event) }])),
  },
});
