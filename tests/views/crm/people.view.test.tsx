/**
 * The CSV import of contacts with its real machine and a faked API: the preview names the failing rows and
 * why and keeps the import button off; a connection failure while checking offers a retry; a clean file
 * imports. The calls log shows its empty state and a server failure with retry.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { renderUi } from '../../support/render-ui';

const contactApi = vi.hoisted(() => ({ importRows: vi.fn() }));
const callApi = vi.hoisted(() => ({ list: vi.fn() }));
vi.mock('../../../src/api/crm', () => ({ contactApi, callApi, meetingApi: {}, choicesApi: { get: vi.fn() }, leadApi: {} }));

const { contactImportMachine, calls } = await import('../../../src/machines/crm/people.machine');
const { ContactImportView, CallsView } = await import('../../../src/views/crm/people.view');

const file = (text: string) => new File([text], 'contacts.csv', { type: 'text/csv' });

beforeEach(() => {
  contactApi.importRows.mockReset();
  callApi.list.mockReset();
});

describe('contact import', () => {
  it('previews the rows, naming the failing ones and why; importing waits for a clean file', async () => {
    contactApi.importRows.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce({ imported: 0, valid: 1, failed: [{ row: 2, errors: { email: ['validation:invalidEmail'] } }] });
    const actor = createActor(contactImportMachine).start();
    renderUi(<ContactImportView actor={actor} />);
    act(() => actor.send({ type: 'import.file', file: file('Name,Email\nAna,ana@example.com\nBea,nope\n'), name: 'contacts.csv' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 rows are ready; 1 need fixing.')).toBeTruthy();
    expect(contactApi.importRows).toHaveBeenLastCalledWith([{ name: 'Ana', email: 'ana@example.com' }, { name: 'Bea', email: 'nope' }], true);
    expect(document.querySelector('[data-import-row="2"]')).toHaveTextContent('E-mail: Enter a valid e-mail address.');
    expect(screen.getByRole('button', { name: 'Import 1 contacts' })).toBeDisabled();
  });

  it('imports a clean file', async () => {
    contactApi.importRows.mockResolvedValueOnce({ imported: 0, valid: 1, failed: [] }).mockResolvedValueOnce({ imported: 1, valid: 1, failed: [] });
    const notify = vi.fn();
    const actor = createActor(contactImportMachine.provide({ actions: { notify: (_, p) => notify(p) } })).start();
    renderUi(<ContactImportView actor={actor} />);
    act(() => actor.send({ type: 'import.file', file: file('name\nAna\n'), name: 'contacts.csv' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Import 1 contacts' }));
    expect(await screen.findByText(/1 contacts imported\./)).toBeTruthy();
    expect(contactApi.importRows).toHaveBeenLastCalledWith([{ name: 'Ana' }], false);
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'crm:import.done' });
  });

  it('a file with no rows cannot be imported', async () => {
    const actor = createActor(contactImportMachine).start();
    renderUi(<ContactImportView actor={actor} />);
    act(() => actor.send({ type: 'import.file', file: file(''), name: 'empty.csv' }));
    expect(await screen.findByText('This file could not be read as CSV, or it has no rows.')).toBeTruthy();
    expect(contactApi.importRows).not.toHaveBeenCalled();
  });

  it('a 401 while checking signs the member out', async () => {
    contactApi.importRows.mockRejectedValueOnce(new ApiError('unauthorized', 401, {}));
    const actor = createActor(contactImportMachine).start();
    renderUi(<ContactImportView actor={actor} />);
    act(() => actor.send({ type: 'import.file', file: file('name\nAna\n'), name: 'contacts.csv' }));
    await waitFor(actor, (s) => s.matches('forceLogout'));
  });
});

describe('call log', () => {
  it('shows the empty state, and a server failure with a retry', async () => {
    callApi.list.mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce({ items: [], next_page_url: null });
    const actor = createActor(calls.book).start();
    renderUi(<CallsView actor={actor} datePattern={null} />);
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByText('No calls logged')).toBeTruthy();
  });
});
