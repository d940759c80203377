/** /member/account/basic: name errors and save, the avatar's type check, the crop frame and what is sent. */
import { act, fireEvent, screen, waitFor as waitForDom } from '@testing-library/react';
import { createActor } from 'xstate';
import { ConnectionError } from '../../../src/api/errors';
import type { User } from '../../../src/schemas/common.schema';
import { renderUi } from '../../support/render-ui';

const api = vi.hoisted(() => ({ get: vi.fn(), update: vi.fn(), avatar: vi.fn(), removeAvatar: vi.fn() }));
vi.mock('../../../src/api/profile', () => ({ profileApi: api }));

const { basicPageMachine } = await import('../../../src/machines/account/basic.machine');
const { BasicView } = await import('../../../src/views/account/basic.view');

const USER: User = { id: 2, username: 'demo', account_type: 'personal', first_name: 'Dana', last_name: 'Demo', avatar: null, status: 1, role_id: 3, date_format: null, customer_id: null, referral_link: '/signup', email: null };

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
  URL.createObjectURL = vi.fn(() => 'blob:photo');
  URL.revokeObjectURL = vi.fn();
});

function show() {
  const userChanged = vi.fn();
  const actor = createActor(basicPageMachine.provide({ actions: { userChanged: (_, p) => userChanged(p.user) } })).start();
  renderUi(<BasicView actor={actor} user={USER} />);
  return { actor, userChanged };
}

describe('basic details page', () => {
  it('loads the name, names an empty first name, saves and hands the new user record on', async () => {
    api.get.mockResolvedValueOnce({ user: USER });
    const { userChanged } = show();
    const first = await screen.findByRole('textbox', { name: /First name/ });
    expect(first).toHaveValue('Dana');
    expect(screen.getByRole('textbox', { name: 'Last name (optional)' })).toHaveValue('Demo');
    fireEvent.change(first, { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(api.update).not.toHaveBeenCalled();
    fireEvent.change(first, { target: { value: 'Ana' } });
    api.update.mockResolvedValueOnce({ user: { ...USER, first_name: 'Ana' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await waitForDom(() => expect(userChanged).toHaveBeenCalledWith({ ...USER, first_name: 'Ana' }));
    expect(api.update).toHaveBeenCalledWith({ first_name: 'Ana', last_name: 'Demo' });
  });

  it('a failed load offers a retry', async () => {
    api.get.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce({ user: USER });
    show();
    fireEvent.click(await screen.findByRole('button', { name: /retry/i }));
    expect(await screen.findByRole('textbox', { name: /First name/ })).toHaveValue('Dana');
  });

  it('refuses a file that is not a picture; a picture opens the crop frame and sends the chosen square', async () => {
    api.get.mockResolvedValueOnce({ user: USER });
    const { userChanged } = show();
    await screen.findByRole('textbox', { name: /First name/ });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await act(async () => fireEvent.change(input, { target: { files: [new File(['%PDF'], 'me.pdf', { type: 'application/pdf' })] } }));
    expect(await screen.findByText('Choose a JPG, PNG or WebP image.')).toBeTruthy();

    const photo = new File([new Uint8Array(10)], 'me.png', { type: 'image/png' });
    await act(async () => fireEvent.change(input, { target: { files: [photo] } }));
    const img = await screen.findByAltText('Your new picture, as it will be kept');
    Object.defineProperty(img, 'naturalWidth', { value: 300 });
    Object.defineProperty(img, 'naturalHeight', { value: 200 });
    fireEvent.load(img);
    expect(screen.getByText('Zoom')).toBeTruthy();
    api.avatar.mockResolvedValueOnce({ user: { ...USER, avatar: '/media/avatars/a.webp' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save picture' }));
    await waitForDom(() => expect(userChanged).toHaveBeenCalledWith({ ...USER, avatar: '/media/avatars/a.webp' }));
    // The centre square of a 300×200 picture.
    expect(api.avatar).toHaveBeenCalledWith(photo, { crop_x: 50, crop_y: 0, crop_size: 200 });
  });
});
