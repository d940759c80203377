/**
 * The CSV import of contacts with its real machine and a faked API: the preview names the failing rows and
 * why and keeps the import button off; a connection failure while checking offers a retry; a clean file
 * imports. The calls log shows its empty state and a server failure with retry.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { columnHeaders, findTableRows, renderUi, setViewportWidth } from '../../support/render-ui';

const contactApi = vi.hoisted(() => ({ importRows: vi.fn(), list: vi.fn() }));
const callApi = vi.hoisted(() => ({ list: vi.fn() }));
const meetingApi = vi.hoisted(() => ({ agenda: vi.fn() }));
vi.mock('../../../src/api/crm', () => ({ contactApi, callApi, meetingApi, choicesApi: { get: vi.fn() }, leadApi: {} }));

const { contactImportMachine, calls, contacts, meetings } = await import('../../../src/machines/crm/people.machine');
const { ContactImportView, CallsView, ContactsListView, MeetingsView } = await import('../../../src/views/crm/people.view');

const file = (text: string) => new File([text], 'contacts.csv', { type: 'text/csv' });

beforeEach(() => {
  contactApi.importRows.mockReset();
  contactApi.list.mockReset();
  callApi.list.mockReset();
  meetingApi.agenda.mockReset();
  setViewportWidth(1280);
});

afterAll(() => setViewportWidth(1024));

const CALL = { id: 4, who: 'Lucía Gómez', contact_id: 2, lead_id: null, direction: 'outbound', outcome: 'answered', called_at: '2026-11-02T10:00:00.000Z', duration_minutes: 12, notes: 'Wants the starter pack.' };
const MEETING = {
  id: 6, title: 'Starter pack demo', date: '2026-12-03', time: '18:30', time_zone: 'Europe/Madrid', duration_minutes: 45, place: 'Café Central', link: 'https://meet.example.com/abc', notes: '',
  invitees: [{ kind: 'contact', id: 2, name: 'Lucía Gómez' }],
};

describe('contacts, calls and meetings: a table on desktops, cards on phones', () => {
  it('contacts: the table names its columns and each name opens its contact; a phone shows cards', async () => {
    const contact = { id: 2, name: 'Lucía Gómez', company: 'Globex', email: 'lucia@example.com', phone: '', city: 'Madrid' };
    contactApi.list.mockResolvedValue({ items: [contact], next_page_url: null });
    const view = renderUi(<ContactsListView actor={createActor(contacts.list, { input: { filters: {} } }).start()} filters={{}} onFilters={vi.fn()} onDownload={vi.fn()} />);
    const [row] = await findTableRows();
    expect(columnHeaders()).toEqual(['Name', 'Company', 'E-mail', 'Phone', 'City']);
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Lucía Gómez', 'Globex', 'lucia@example.com', '—', 'Madrid']);
    expect(within(row).getByRole('link', { name: 'Lucía Gómez' })).toHaveAttribute('href', '/crm/contacts/2');
    view.unmount();
    setViewportWidth(360);
    renderUi(<ContactsListView actor={createActor(contacts.list, { input: { filters: {} } }).start()} filters={{}} onFilters={vi.fn()} onDownload={vi.fn()} />, { lng: 'es' });
    const card = await screen.findByRole('listitem');
    expect(screen.queryByRole('table')).toBeNull();
    expect(card).toHaveTextContent('Globex · lucia@example.com · Madrid');
  });

  it('calls: the minutes are right-aligned under their header, in Spanish too; a phone shows cards', async () => {
    callApi.list.mockResolvedValue({ items: [CALL], next_page_url: null });
    const view = renderUi(<CallsView actor={createActor(calls.book).start()} datePattern={null} />, { lng: 'es' });
    const [row] = await findTableRows();
    expect(columnHeaders()).toEqual(['Quién', 'Fecha', 'Dirección', 'Resultado', 'Minutos', 'Notas']);
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('Lucía Gómez');
    expect(cells[4]).toHaveTextContent('12 min');
    expect(cells[4]).toHaveStyle({ textAlign: 'right' });
    expect(cells[5]).toHaveTextContent('Wants the starter pack.');
    view.unmount();
    setViewportWidth(360);
    renderUi(<CallsView actor={createActor(calls.book).start()} datePattern={null} />);
    const card = await screen.findByRole('listitem');
    expect(screen.queryByRole('table')).toBeNull();
    expect(card).toHaveTextContent('12 min');
  });

  it('meetings: when, place, minutes, who is invited (each a link) and the video link in their columns; a phone shows cards', async () => {
    meetingApi.agenda.mockResolvedValue({ items: [MEETING], next_page_url: null });
    const view = renderUi(<MeetingsView actor={createActor(meetings.book).start()} />);
    const [row] = await findTableRows();
    expect(columnHeaders()).toEqual(['Title', 'When', 'Place', 'Minutes', 'Invitees', 'Video link']);
    const cells = within(row).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent('2026-12-03 18:30 (Europe/Madrid)');
    expect(cells[3]).toHaveStyle({ textAlign: 'right' });
    expect(within(cells[4]).getByRole('link', { name: 'Lucía Gómez' })).toHaveAttribute('href', '/crm/contacts/2');
    expect(within(cells[5]).getByRole('link', { name: 'https://meet.example.com/abc' })).toBeTruthy();
    view.unmount();
    setViewportWidth(360);
    renderUi(<MeetingsView actor={createActor(meetings.book).start()} />);
    const card = await screen.findByRole('listitem');
    expect(screen.queryByRole('table')).toBeNull();
    expect(card).toHaveTextContent('Café Central · 45 min');
  });
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
