import { act, fireEvent, screen, within } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { Address } from '../../../src/schemas/account.schema';
import type { Country } from '../../../src/schemas/common.schema';
import { renderUi } from '../../support/render-ui';

const api = vi.hoisted(() => ({
  list: vi.fn(),
  get: vi.fn(),
  create: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
  restore: vi.fn(),
}));
const countries = vi.hoisted(() => vi.fn());
vi.mock('../../../src/api/account', () => ({ addressApi: api, accountApi: {} }));
vi.mock('../../../src/api/auth', () => ({ authApi: { loginFields: countries } }));

const { addresses } = await import('../../../src/machines/account/addresses.machine');
const addressBookMachine = addresses.book;
const addressFormPageMachine = addresses.formPage;
const { AddressBookView, AddressFormView } = await import('../../../src/views/account/addresses.view');

const SPAIN: Country = { id: 11, name: 'Spain', iso_code_2: 'ES', iso_code_3: 'ESP', phone_code: '+34' };
const HOME: Address = {
  id: 7,
  first_name: 'Lucía',
  last_name: 'Gómez',
  company: '',
  address_1: 'Calle Mayor 10',
  address_2: '',
  city: 'Madrid',
  postcode: '28013',
  email: 'lucia@example.com',
  phone: '34911222333',
  country_id: 11,
  zone_id: null,
  country_name: 'Spain',
  zone_name: '',
  created_at: '2026-09-01T10:00:00.000Z',
};
const page = (items: Address[]) => ({ items, next_page_url: null });

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  countries.mockReset().mockResolvedValue({ countries: [SPAIN] });
});

function showBook() {
  const notify = vi.fn();
  const actor = createActor(addressBookMachine.provide({ actions: { notify: (_, p) => notify(p) } })).start();
  renderUi(<AddressBookView actor={actor} />);
  return { actor, notify };
}

describe('address book page', () => {
  it('shows the addresses as cards, and the empty state with its call to action', async () => {
    api.list.mockResolvedValueOnce(page([HOME]));
    const { actor } = showBook();
    const card = (await screen.findByText('Lucía Gómez')).closest('[data-address-id]') as HTMLElement;
    expect(card).toHaveTextContent('Calle Mayor 10');
    expect(card).toHaveTextContent('28013 Madrid');
    expect(card).toHaveTextContent('Spain');
    expect(within(card).getByRole('link', { name: 'Edit the address of Lucía Gómez' })).toHaveAttribute('href', '/account/addresses/7');

    api.list.mockResolvedValueOnce(page([]));
    act(() => actor.getSnapshot().children.list!.send({ type: 'list.refresh' }));
    expect(await screen.findByText('No addresses yet')).toBeTruthy();
    const adds = screen.getAllByRole('link', { name: 'Add address' });
    expect(adds).toHaveLength(2);
    for (const a of adds) expect(a).toHaveAttribute('href', '/account/addresses/new');
  });

  it('a connection or server failure shows its error with a retry that loads again', async () => {
    api.list.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(page([HOME]));
    showBook();
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    await vi.waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByText('Lucía Gómez')).toBeTruthy();
  });

  it('deletes after confirmation, offers undo, and undo brings the address back', async () => {
    api.list.mockResolvedValueOnce(page([HOME])).mockResolvedValueOnce(page([])).mockResolvedValueOnce(page([HOME]));
    api.remove.mockResolvedValue({ id: 7 });
    api.restore.mockResolvedValue(HOME);
    const { actor, notify } = showBook();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the address of Lucía Gómez' }));
    expect(await screen.findByText('Delete this address?')).toBeTruthy();
    expect(api.remove).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete address' }));
    expect(await screen.findByText('No addresses yet')).toBeTruthy();
    expect(api.remove).toHaveBeenCalledWith(7);
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ kind: 'success', key: 'common:resource.deletedUndo' }));

    act(() => actor.send({ type: 'delete.undo' }));
    expect(await screen.findByText('Lucía Gómez')).toBeTruthy();
    expect(api.restore).toHaveBeenCalledWith(7);
  });

  it('cancelling the confirmation deletes nothing', async () => {
    api.list.mockResolvedValueOnce(page([HOME]));
    showBook();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete the address of Lucía Gómez' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByText('Delete this address?')).toBeNull());
    expect(api.remove).not.toHaveBeenCalled();
    expect(screen.getByText('Lucía Gómez')).toBeTruthy();
  });
});

describe('address form pages', () => {
  const field = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label}`) }) as HTMLInputElement;

  it('shows the schema’s errors under their fields and sends nothing', async () => {
    const actor = createActor(addressFormPageMachine, { input: {} }).start();
    renderUi(<AddressFormView actor={actor} />);
    await screen.findByRole('heading', { name: 'New address' });
    fireEvent.change(field('E-mail'), { target: { value: 'not-mail' } });
    fireEvent.change(field('Phone'), { target: { value: '+34 (91)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findAllByText('This field is required.')).toHaveLength(4);
    expect(screen.getByText('Enter a valid e-mail address.')).toBeTruthy();
    expect(screen.getByText('Enter a valid mobile number (digits only).')).toBeTruthy();
    expect(field('E-mail').value).toBe('not-mail');
    expect(api.create).not.toHaveBeenCalled();
  });

  it('sends the address and shows the server’s field map under the fields', async () => {
    api.create.mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { country_id: ['validation:invalidChoice'] } }));
    const actor = createActor(addressFormPageMachine, { input: {} }).start();
    renderUi(<AddressFormView actor={actor} />);
    await screen.findByRole('heading', { name: 'New address' });
    fireEvent.change(field('First name'), { target: { value: 'Lucía' } });
    fireEvent.change(field('Address$'), { target: { value: 'Calle Mayor 10' } });
    fireEvent.change(field('City'), { target: { value: 'Madrid' } });
    act(() => actor.getSnapshot().children.form!.send({ type: 'form.change', field: 'country_id', value: '11' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText('Choose one of the options.')).toBeTruthy();
    expect(api.create).toHaveBeenCalledWith(expect.objectContaining({ first_name: 'Lucía', address_1: 'Calle Mayor 10', city: 'Madrid', country_id: '11' }));
    expect(field('First name').value).toBe('Lucía');
  });

  it('the edit form loads the address; a missing or foreign one is not found', async () => {
    api.get.mockResolvedValueOnce(HOME);
    const edit = createActor(addressFormPageMachine, { input: { params: 7 } }).start();
    const { unmount } = renderUi(<AddressFormView actor={edit} />);
    await screen.findByRole('heading', { name: 'Edit address' });
    expect(field('City').value).toBe('Madrid');
    expect(api.get).toHaveBeenCalledWith(7);
    unmount();

    api.get.mockRejectedValueOnce(new ApiError('notFound', 404, { error_code: 'not_found' }));
    const missing = createActor(addressFormPageMachine, { input: { params: 99 } }).start();
    renderUi(<AddressFormView actor={missing} />);
    expect(await screen.findByText('Address not found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to addresses' })).toHaveAttribute('href', '/account/addresses');
    await waitFor(missing.getSnapshot().children.form!, (s) => s.matches('loadError'));
  });
});
