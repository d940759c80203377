/**
 * The account hub area's screens: the hub (profile, KYC status, every setting of the menu as a link, the
 * personal data download), the FAQ search, the intro video (and its absence when the switch is off) and
 * the delete page (confirmation, password, refusal, success).
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { createActor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { MEMBER_ROUTES } from '../../../src/app/member/route-table';
import { hubGroups } from '../../../src/lib/account-hub';
import { buildMenu, type MenuSwitches } from '../../../src/lib/menu';
import type { Faq } from '../../../src/schemas/account-hub.schema';
import { ACCOUNT_MEMBER } from '../../support/account-fixtures';
import { renderUi } from '../../support/render-ui';

const api = vi.hoisted(() => ({ summary: vi.fn(), faqs: vi.fn(), downloadData: vi.fn() }));
const auth = vi.hoisted(() => ({ deleteAccount: vi.fn() }));
vi.mock('../../../src/api/account-hub', () => ({ accountHubApi: api }));
vi.mock('../../../src/api/auth', async (original) => ({ ...(await original<object>()), authApi: auth }));

const { accountHubMachine, dataExportMachine } = await import('../../../src/machines/account/account-hub.machine');
const { accountDeletionMachine } = await import('../../../src/machines/account/account-deletion.machine');
const { faqsListMachine } = await import('../../../src/machines/account/faqs.machine');
const { AccountHubView } = await import('../../../src/views/account/account-hub.view');
const { FaqsView } = await import('../../../src/views/account/faqs.view');
const { IntroVideoView } = await import('../../../src/views/account/intro-video.view');
const { DeleteAccountView } = await import('../../../src/views/account/delete-account.view');
const { MoreView } = await import('../../../src/views/account/more.view');
const { moreEntries } = await import('../../../src/lib/account-hub');

const MEMBER = ACCOUNT_MEMBER;
const OFF: MenuSwitches = { store: false, crm: false, packages: true, internalStore: true, roi: false, kyc: false, supportMessage: false, stories: false, events: false, introVideo: false };
const affiliate = { role_id: 3, account_type: 'personal' } as const;
const groupsFor = (over: Partial<MenuSwitches> = {}) => hubGroups(buildMenu(MEMBER_ROUTES, { ...OFF, ...over }, affiliate));

beforeEach(() => {
  for (const f of [...Object.values(api), ...Object.values(auth)]) f.mockReset();
});

function showHub(over: Partial<MenuSwitches> = {}, lng = 'en') {
  const actor = createActor(accountHubMachine, { input: {} }).start();
  const notify = vi.fn();
  const exporter = createActor(dataExportMachine.provide({ actions: { notify: (_, p) => notify(p) } })).start();
  const groups = groupsFor(over);
  renderUi(<AccountHubView actor={actor} exporter={exporter} groups={groups} kycLink={over.kyc ? '/member/kyc' : null} />, { lng });
  return { actor, exporter, notify };
}

describe('account hub', () => {
  it('shows the member and links every setting of the menu, grouped', async () => {
    api.summary.mockResolvedValue(MEMBER);
    showHub({ kyc: true });
    expect(await screen.findByText('Lucía Gómez')).toBeTruthy();
    expect(screen.getByText('@lucia41')).toBeTruthy();
    expect(screen.getByText(/^Member since /)).toHaveTextContent('2025');
    const status = screen.getByText('Pending review');
    expect(status.closest('a')).toHaveAttribute('href', '/member/kyc');

    const link = (group: string, name: string) => within(screen.getByRole('region', { name: group })).getByRole('link', { name });
    expect(link('Profile', 'Profile')).toHaveAttribute('href', '/member/account/basic');
    expect(link('Profile', 'Addresses')).toHaveAttribute('href', '/member/account/addresses');
    expect(link('Profile', 'KYC')).toHaveAttribute('href', '/member/kyc');
    expect(link('Security', 'Password')).toHaveAttribute('href', '/member/account/password');
    expect(link('Security', 'Two-factor sign-in')).toHaveAttribute('href', '/member/account/two-factor');
    expect(link('Payouts', 'Bank details')).toHaveAttribute('href', '/member/account/bank');
    expect(link('Payouts', 'Payout settings')).toHaveAttribute('href', '/member/account/payout');
    expect(link('Preferences', 'Date format')).toHaveAttribute('href', '/member/account/date-format');
    expect(link('Preferences', 'Notification settings')).toHaveAttribute('href', '/member/account/notification');
    expect(link('Help', 'FAQs')).toHaveAttribute('href', '/member/account/faqs');
    expect(screen.getByRole('link', { name: 'Delete account' })).toHaveAttribute('href', '/account/delete');
    // The phone's "more" list is not a setting.
    expect(screen.queryByRole('link', { name: 'More' })).toBeNull();
  });

  it('leaves the intro video and KYC out when their switches are off, and lists them when on', async () => {
    api.summary.mockResolvedValue(MEMBER);
    showHub();
    await screen.findByText('Lucía Gómez');
    expect(screen.queryByRole('link', { name: 'Intro video' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'KYC' })).toBeNull();
    expect(screen.getByText('Pending review').closest('a')).toBeNull();
    const on = groupsFor({ introVideo: true }).find((g) => g.id === 'help')!;
    expect(on.links.map((l) => l.link)).toEqual(['/member/account/intro-video', '/member/account/faqs']);
  });

  it('reads in Spanish', async () => {
    api.summary.mockResolvedValue(MEMBER);
    showHub({}, 'es');
    expect(await screen.findByRole('heading', { name: 'Cuenta' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Seguridad' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descargar mis datos' })).toBeTruthy();
  });

  it('shows a failed load with a retry that loads again', async () => {
    api.summary.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(new ApiError('server', 500, {})).mockResolvedValueOnce(MEMBER);
    showHub();
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByText('Lucía Gómez')).toBeTruthy();
    expect(api.summary).toHaveBeenCalledTimes(3);
  });

  it('downloads the personal data, and says when the download is throttled', async () => {
    api.summary.mockResolvedValue(MEMBER);
    api.downloadData.mockResolvedValueOnce('upline-personal-data-lucia41.json').mockRejectedValueOnce(new ApiError('badRequest', 429, { error_code: 'rate_limited' }));
    const { notify } = showHub();
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() => expect(notify).toHaveBeenCalledWith(expect.objectContaining({ kind: 'success', key: 'account:dataExport.downloaded' })));
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText(/downloaded your data several times/)).toBeTruthy();
    expect(api.downloadData).toHaveBeenCalledTimes(2);
  });
});

describe('FAQ page', () => {
  const FAQS: Faq[] = [
    { id: 1, question: 'How do I request a payout?', answer: '<p>Open <strong>Wallet</strong>.</p><img src=x onerror="alert(1)">', created_at: '2026-01-15T09:00:00.000Z' },
    { id: 2, question: 'What are PV and TV?', answer: '<p>Volumes.</p>', created_at: '2026-01-15T08:59:00.000Z' },
  ];

  function showFaqs(keyword?: string) {
    const onSearch = vi.fn();
    const actor = createActor(faqsListMachine, { input: { filters: keyword ? { keyword } : {} } }).start();
    renderUi(<FaqsView actor={actor} search={keyword ? { keyword } : {}} onSearch={onSearch} />);
    return { actor, onSearch };
  }

  it('lists questions whose answers open, and searches by keyword', async () => {
    api.faqs.mockResolvedValue({ items: FAQS, next_page_url: null });
    const { onSearch } = showFaqs();
    const question = await screen.findByRole('button', { name: 'How do I request a payout?' });
    expect(question).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(question);
    expect(question).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Wallet').tagName).toBe('STRONG');
    expect(document.querySelector('[onerror]')).toBeNull();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search questions' }), { target: { value: '  payout ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search questions' }));
    expect(onSearch).toHaveBeenCalledWith({ keyword: 'payout' });
  });

  it('sends the keyword and says when nothing matches, with a way back', async () => {
    api.faqs.mockResolvedValue({ items: [], next_page_url: null });
    const { onSearch } = showFaqs('zebra');
    expect(await screen.findByText('Nothing matches “zebra”')).toBeTruthy();
    expect(api.faqs).toHaveBeenCalledWith({ keyword: 'zebra' }, expect.anything());
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear search' })[0]);
    expect(onSearch).toHaveBeenCalledWith({});
  });

  it('shows a failed load with retry', async () => {
    api.faqs.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce({ items: FAQS, next_page_url: null });
    showFaqs();
    fireEvent.click(await screen.findByRole('button', { name: /try again|retry/i }));
    expect(await screen.findByRole('button', { name: 'What are PV and TV?' })).toBeTruthy();
  });
});

describe('intro video page', () => {
  it('plays a YouTube address in the privacy-enhanced player with a title', () => {
    renderUi(<IntroVideoView url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" company="Upline" />);
    const frame = screen.getByTitle('Intro video of Upline');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0');
  });

  it('plays a video file in the browser\'s player', () => {
    renderUi(<IntroVideoView url="https://cdn.example.com/media/intro.mp4" company="Upline" />);
    const video = screen.getByLabelText('Intro video of Upline');
    expect(video.tagName).toBe('VIDEO');
    expect(video.querySelector('source')).toHaveAttribute('src', 'https://cdn.example.com/media/intro.mp4');
  });

  it('shows no player for a hostile or missing address', () => {
    const { unmount } = renderUi(<IntroVideoView url="javascript:alert(1)//.mp4" company="Upline" />);
    expect(screen.getByText(/cannot be shown here/)).toBeTruthy();
    expect(document.querySelector('iframe, video')).toBeNull();
    unmount();
    renderUi(<IntroVideoView url={null} company="Upline" />, { lng: 'es' });
    expect(screen.getByText('El vídeo de presentación no está disponible.')).toBeTruthy();
  });
});

describe('delete account page', () => {
  function showDelete() {
    const notify = vi.fn();
    const apply = vi.fn();
    const actor = createActor(accountDeletionMachine.provide({ actions: { notify: (_, p) => notify(p), apply } })).start();
    const exporter = createActor(dataExportMachine).start();
    renderUi(<DeleteAccountView actor={actor} exporter={exporter} />);
    return { actor, notify, apply };
  }
  const confirmation = () => screen.getByRole('textbox', { name: /Type your username \(lucia41\) to confirm/ });
  const password = () => screen.getByLabelText('Account password');
  const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));

  it('needs the username typed exactly and the password before it sends anything', async () => {
    api.summary.mockResolvedValue(MEMBER);
    showDelete();
    fireEvent.change(await screen.findByRole('textbox', { name: /to confirm/ }), { target: { value: 'lucia' } });
    submit();
    expect(await screen.findByText('Type your username exactly as shown.')).toBeTruthy();
    expect(auth.deleteAccount).not.toHaveBeenCalled();
  });

  it('shows a wrong password under its field and keeps what was typed', async () => {
    api.summary.mockResolvedValue(MEMBER);
    auth.deleteAccount.mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { password: ['validation:invalidPassword'] } }));
    const { apply } = showDelete();
    await screen.findByRole('textbox', { name: /to confirm/ });
    fireEvent.change(confirmation(), { target: { value: 'lucia41' } });
    fireEvent.change(password(), { target: { value: 'Wrong-pass-1' } });
    submit();
    await vi.waitFor(() => expect(auth.deleteAccount).toHaveBeenCalledWith('Wrong-pass-1'));
    expect(await screen.findByText(/password is (not correct|incorrect|wrong)/i)).toBeTruthy();
    expect(confirmation()).toHaveValue('lucia41');
    expect(apply).not.toHaveBeenCalled();
  });

  it('deletes, tells the member and signs out', async () => {
    api.summary.mockResolvedValue(MEMBER);
    auth.deleteAccount.mockResolvedValueOnce({ message: 'Your account was removed.' });
    const { notify, apply } = showDelete();
    await screen.findByRole('textbox', { name: /to confirm/ });
    fireEvent.change(confirmation(), { target: { value: 'lucia41' } });
    fireEvent.change(password(), { target: { value: 'Demo-pass-2026' } });
    act(() => submit());
    await vi.waitFor(() => expect(apply).toHaveBeenCalled());
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ kind: 'success', key: 'account:deleteAccount.deleted' }));
  });

  it('says so when the shop session is missing', async () => {
    api.summary.mockResolvedValue(MEMBER);
    auth.deleteAccount.mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'validation_error', errors: { store_token: ['validation:required'] } }));
    showDelete();
    await screen.findByRole('textbox', { name: /to confirm/ });
    fireEvent.change(confirmation(), { target: { value: 'lucia41' } });
    fireEvent.change(password(), { target: { value: 'Demo-pass-2026' } });
    submit();
    expect(await screen.findByText(/shop session has ended/)).toBeTruthy();
  });
});

describe('more page', () => {
  it('links the sections the bottom bar leaves out, with their pages', () => {
    const switches = { ...OFF, events: true };
    const menu = buildMenu(MEMBER_ROUTES, switches, affiliate);
    renderUi(<MoreView entries={moreEntries(menu, switches)} />);
    const nav = screen.getByRole('navigation', { name: 'More' });
    expect(within(nav).getByRole('link', { name: 'FAQs' })).toHaveAttribute('href', '/member/account/faqs');
    expect(within(nav).getByRole('link', { name: 'Events' })).toHaveAttribute('href', '/member/events');
    expect(within(nav).getByRole('link', { name: 'Promo links' })).toHaveAttribute('href', '/member/referral/summary');
    expect(within(nav).getByRole('link', { name: 'Top recruiters' })).toHaveAttribute('href', '/member/referral/recruiter');
    // What the bottom bar shows is not repeated.
    expect(within(nav).queryByRole('link', { name: 'Home' })).toBeNull();
  });
});
