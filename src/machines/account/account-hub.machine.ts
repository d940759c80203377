/**
 * /member/account: the hub loads who the member is (name, username, avatar, member since, KYC status) with
 * the generic load machine; its links come from the menu (src/lib/account-hub.ts). The personal data export
 * (on the hub and the delete page) is a request without fields on the form factory: connecting, success
 * (the file is saved, a toast says so), the connection, server and throttled errors with retry, and the
 * forced logout of a 401.
 */
import { accountHubApi } from '../../api/account-hub';
import { createFormMachine } from '../form.machine';
import { createLoadMachine } from '../load.machine';

export const accountHubMachine = createLoadMachine('accountHub', () => accountHubApi.summary());

export const dataExportMachine = createFormMachine({
  id: 'dataExport',
  domain: 'dataExport',
  initialValues: {},
  submit: () => accountHubApi.downloadData(),
  successKey: 'account:dataExport.downloaded',
});
