/**
 * Path tests of the invoice's page actor: the invoice (a load), mark sent and mark paid (form declarations)
 * as children; a done action loads the invoice again, toasts and a forced logout reach the page.
 */
import { invoicePageMachine } from '../../src/machines/crm/sales.machine';
import { describePaths, stubActors } from '../support/paths';

describePaths('invoice page (detail, mark sent, mark paid)', {
  machine: stubActors(invoicePageMachine),
  inputs: [{ params: 9 }],
  events: [
    { type: 'record.saved' },
    { type: 'detail.retry' },
    { type: 'page.notify', params: { kind: 'success', key: 'crm:invoices.markedSent' } },
    { type: 'page.forceLogout' },
  ],
});
