/**
 * /member/kyc in the browser: the status and history (a rejection's reason), the form's previews (image
 * thumbnail, PDF icon + name + size, removable), its translated errors for wrong type, size and count, the
 * server's field errors, the load errors with retry, and the delete of a pending document.
 */
import { act, fireEvent, screen, waitFor as waitForDom, within } from '@testing-library/react';
import { createActor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { KycDetails, KycDocument } from '../../../src/schemas/kyc.schema';
import { renderUi } from '../../support/render-ui';

const api = vi.hoisted(() => ({ details: vi.fn(), submit: vi.fn(), remove: vi.fn(), downloadFile: vi.fn(), documents: vi.fn(), categories: vi.fn() }));
vi.mock('../../../src/api/kyc', () => ({ kycApi: api }));

const { kycPageMachine } = await import('../../../src/machines/account/kyc.machine');
const { KycView } = await import('../../../src/views/account/kyc.view');

const REJECTED: KycDocument = {
  id: 3,
  status: 'rejected',
  category_name: 'Passport',
  created_at: '2026-09-01T10:00:00.000Z',
  documents: [{ id: 8, name: 'front.png', content_type: 'image/png', size: 2048, url: '/api/uploads/8' }],
  id_number: 'X1',
  reason: 'The photo is blurred.',
  decided_at: '2026-09-02T10:00:00.000Z',
};
const details = (over: Partial<KycDetails> = {}): KycDetails => ({
  status: 'rejected',
  history: [REJECTED],
  categories: [
    { id: 1, name: 'Passport' },
    { id: 2, name: 'Driving licence' },
  ],
  attachments_limit: 2,
  id_number_required: true,
  id_number_label: 'Passport number',
  ...over,
});

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});

function show() {
  const notify = vi.fn();
  const actor = createActor(kycPageMachine.provide({ actions: { notify: (_, p) => notify(p) } })).start();
  const download = vi.fn();
  renderUi(<KycView actor={actor} download={download} />);
  return { actor, notify, download };
}

const png = (name = 'front.png', size = 1500) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const pdf = (name = 'scan.pdf', size = 3 * 1024 * 1024) => new File([new Uint8Array(size)], name, { type: 'application/pdf' });
const drop = (files: File[]) => fireEvent.change(document.querySelector('[data-kyc-input]')!, { target: { files } });

describe('KYC page', () => {
  it('shows the status, the reason of the rejection and the history, with the form labelled by the settings', async () => {
    api.details.mockResolvedValueOnce(details());
    const { download } = show();
    expect(await screen.findByText('Send a new document')).toBeTruthy();
    expect(document.querySelector('[data-kyc-current]')).toHaveTextContent('Rejected');
    expect(document.querySelector('[data-kyc-latest-reason]')).toHaveTextContent('The photo is blurred.');
    expect(screen.getByRole('textbox', { name: /Passport number/ })).toBeTruthy();
    const item = document.querySelector('[data-kyc-document="3"]') as HTMLElement;
    fireEvent.click(within(item).getByRole('button', { name: 'Download front.png' }));
    expect(download).toHaveBeenCalledWith('/api/uploads/8', 'front.png');
  });

  it('an optional number says so; approved and pending members see no form; nothing sent yet says so', async () => {
    api.details.mockResolvedValueOnce(details({ status: 'not_submitted', history: [], id_number_required: false }));
    show();
    expect(await screen.findByRole('textbox', { name: 'Passport number (optional)' })).toBeTruthy();
    expect(screen.getByText('You have not sent any document yet.')).toBeTruthy();
  });

  it('previews each chosen file (thumbnail, PDF icon, name and size) and removes one before sending', async () => {
    api.details.mockResolvedValueOnce(details());
    show();
    await screen.findByText('Send a new document');
    await act(async () => drop([png(), pdf()]));
    expect(await screen.findByRole('img', { name: 'Preview of front.png' })).toHaveAttribute('src', 'blob:preview');
    const scan = document.querySelector('[data-kyc-file="scan.pdf"]') as HTMLElement;
    expect(scan).toHaveTextContent('scan.pdf');
    expect(scan).toHaveTextContent('3 MB');
    expect(screen.getByText('2 of 2 files')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove front.png' }));
    expect(document.querySelector('[data-kyc-file="front.png"]')).toBeNull();
    expect(screen.getByText('1 of 2 files')).toBeTruthy();
  });

  it('names what is wrong before sending: type, size, count, and the required fields', async () => {
    api.details.mockResolvedValueOnce(details());
    show();
    await screen.findByText('Send a new document');
    fireEvent.click(screen.getByRole('button', { name: 'Send for review' }));
    expect(await screen.findByText('Add at least one file.')).toBeTruthy();
    expect(screen.getAllByText('This field is required.').length).toBeGreaterThanOrEqual(1);

    await act(async () => drop([new File(['x'], 'notes.txt', { type: 'text/plain' }), pdf('big.pdf', 11 * 1024 * 1024), png('a.png'), png('b.png')]));
    expect(document.querySelector('[data-kyc-file="notes.txt"]')).toHaveTextContent('Only JPG, PNG or PDF files are accepted.');
    expect(document.querySelector('[data-kyc-file="big.pdf"]')).toHaveTextContent('A file is larger than 10 MB.');
    fireEvent.click(screen.getByRole('button', { name: 'Send for review' }));
    expect(await screen.findByText('Too many files: remove some before sending.')).toBeTruthy();
    expect(api.submit).not.toHaveBeenCalled();
  });

  it('sends the form, then shows the new status; a refusal of the server shows its field message', async () => {
    api.details.mockResolvedValueOnce(details());
    const { notify } = show();
    await screen.findByText('Send a new document');
    const combo = screen.getAllByLabelText(/Document type/).find((e) => e.tagName === 'INPUT')!;
    fireEvent.click(combo);
    fireEvent.click(await screen.findByRole('option', { name: 'Driving licence' }));
    fireEvent.change(screen.getByRole('textbox', { name: /Passport number/ }), { target: { value: 'DL-9' } });
    await act(async () => drop([png()]));
    api.submit.mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { documents: ['account:upload.fileType'] } }));
    fireEvent.click(screen.getByRole('button', { name: 'Send for review' }));
    expect(await screen.findByText('Only JPG, PNG or PDF files are accepted.', { selector: '[data-kyc-documents-error]' })).toBeTruthy();
    expect(api.submit.mock.calls[0][0]).toMatchObject({ category: '2', id_number: 'DL-9' });

    api.submit.mockResolvedValueOnce({ ...REJECTED, id: 4, status: 'pending', reason: null });
    api.details.mockResolvedValueOnce(details({ status: 'pending', history: [{ ...REJECTED, id: 4, status: 'pending', reason: null, decided_at: null }, REJECTED] }));
    fireEvent.click(screen.getByRole('button', { name: 'Send for review' }));
    await waitForDom(() => expect(document.querySelector('[data-kyc-current]')).toHaveTextContent('Under review'));
    expect(screen.queryByRole('button', { name: 'Send for review' })).toBeNull();
    expect(notify).toHaveBeenCalledWith({ kind: 'success', key: 'account:kyc.submitted' });
  });

  it('deletes a pending document after confirmation', async () => {
    const pending = { ...REJECTED, id: 4, status: 'pending' as const, reason: null, decided_at: null };
    api.details.mockResolvedValueOnce(details({ status: 'pending', history: [pending] }));
    show();
    const item = (await screen.findByText('Passport')).closest('[data-kyc-document]') as HTMLElement;
    fireEvent.click(within(item).getByRole('button', { name: 'Delete' }));
    api.remove.mockResolvedValueOnce({ message: 'ok' });
    api.details.mockResolvedValueOnce(details({ status: 'not_submitted', history: [] }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this document?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitForDom(() => expect(api.remove).toHaveBeenCalledWith(4));
    expect(await screen.findByText('You have not sent any document yet.')).toBeTruthy();
  });

  it('a failed load offers a retry (connection and server)', async () => {
    api.details.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(details());
    show();
    fireEvent.click(await screen.findByRole('button', { name: /retry/i }));
    fireEvent.click(await screen.findByRole('button', { name: /retry/i }));
    expect(await screen.findByText('Send a new document')).toBeTruthy();
  });
});
