/**
 * The mail pages in the browser with their calls faked: the inbox (unread rows stand out, search and the
 * unread switch reach the URL, bin and restore), empty and no-match states, a lost connection and a server
 * error with retry; a conversation (opened read, hostile HTML shown harmless, files downloaded, the reply);
 * compose (recipient search, a refused recipient on its field, a lost connection kept with Try again); a
 * sent item; Spanish.
 */
import userEvent from '@testing-library/user-event';
import { act, fireEvent, screen, waitFor as waitForDom, within, cleanup } from '@testing-library/react';
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import type { MailConversation, MailListItem, MailMessage, MailRecipient } from '../../../src/schemas/mail.schema';
import { columnHeaders, findTableRows, renderUi, setViewportWidth } from '../../support/render-ui';

const api = vi.hoisted(() => ({
  list: vi.fn(),
  counts: vi.fn(),
  recipients: vi.fn(),
  conversation: vi.fn(),
  markRead: vi.fn(),
  sentItem: vi.fn(),
  send: vi.fn(),
  reply: vi.fn(),
  bin: vi.fn(),
  restore: vi.fn(),
  downloadAttachment: vi.fn(),
}));
vi.mock('../../../src/api/mail', () => ({ mailApi: api }));

const { mailInboxMachine, mailConversationMachine, mailComposeMachine, mailSentItemMachine } = await import('../../../src/machines/mail/mail.machine');
const { MailListView } = await import('../../../src/views/mail/mail-list.view');
const { MailConversationView } = await import('../../../src/views/mail/mail-conversation.view');
const { MailComposeView } = await import('../../../src/views/mail/mail-compose.view');
const { MailSentItemView } = await import('../../../src/views/mail/mail-sent-item.view');

const dana = { username: 'demo', first_name: 'Dana', last_name: 'Demo', avatar: null, company: false };
const company = { username: '@company', first_name: 'Company', last_name: 'Admin', avatar: null, company: true };
const item = (id: number, over: Partial<MailListItem> = {}): MailListItem => ({
  id,
  thread_id: 100 + id,
  box: 'inbox',
  subject: `Subject ${id}`,
  snippet: `Snippet ${id}`,
  party: dana,
  read: true,
  attachments: 0,
  created_at: '2026-11-01T10:00:00.000Z',
  ...over,
});
const message = (id: number, over: Partial<MailMessage> = {}): MailMessage => ({
  id,
  thread_id: 7,
  subject: 'Training plan',
  from: dana,
  to: { ...dana, username: 'amy', first_name: 'Amy', last_name: null },
  body: '<p>Hello</p>',
  mine: false,
  read_at: null,
  binned: false,
  attachments: [],
  created_at: '2026-11-01T10:00:00.000Z',
  ...over,
});
const conversation = (...messages: MailMessage[]): MailConversation => ({ id: 7, subject: 'Training plan', reply_to: dana, messages });
const COUNTS = { unread: 0, inbox: 1, sent: 0, bin: 0 };
const notFound = () => new ApiError('notFound', 404, { error_code: 'not_found', message: 'Not found', errors: {} });
const serverError = () => new ApiError('server', 500, { error_code: 'server_error', message: 'x', errors: {} });

beforeEach(() => {
  for (const f of Object.values(api)) f.mockReset();
});

function showList(box: 'inbox' | 'bin' = 'inbox', given = {}, lng = 'en') {
  const filters = box === 'bin' ? { ...given, folder: 'bin' as const } : given;
  const actor = createActor(mailInboxMachine, { input: { filters } }).start();
  const onSearch = vi.fn();
  const onBin = vi.fn();
  const onRestore = vi.fn();
  renderUi(<MailListView actor={actor} page="inbox" search={filters} onSearch={onSearch} onBin={onBin} onRestore={onRestore} datePattern={null} />, { lng });
  return { actor, onSearch, onBin, onRestore };
}

describe('mail list', () => {
  it('shows unread messages apart, the company by its role, and sends search, unread and bin', async () => {
    api.list.mockResolvedValueOnce({ items: [item(1, { read: false, attachments: 2 }), item(2, { party: company })], next_page_url: null });
    const { onSearch, onBin } = showList();
    const row = (await screen.findByText('Subject 1')).closest('[data-mail-row]') as HTMLElement;
    expect(row.dataset.unread).toBe('true');
    expect(within(row).getByText('Unread:')).toBeTruthy();
    expect(within(row).getByText('2 files')).toBeTruthy();
    expect(within(row).getByRole('link', { name: /Subject 1/ }).getAttribute('href')).toContain('/member/mail/conversation/101');
    const other = screen.getByText('Subject 2').closest('[data-mail-row]') as HTMLElement;
    expect(other.dataset.unread).toBeUndefined();
    expect(within(other).getByText('The company')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search by subject or person' }), { target: { value: 'plan' } });
    fireEvent.submit(screen.getByRole('search'));
    expect(onSearch).toHaveBeenLastCalledWith({ keyword: 'plan' });
    fireEvent.click(screen.getByRole('radio', { name: 'Unread' }));
    expect(onSearch).toHaveBeenLastCalledWith({ unread: '1' });
    fireEvent.click(within(row).getByRole('button', { name: 'Move “Subject 1” to the bin' }));
    expect(onBin).toHaveBeenCalledWith(expect.objectContaining({ id: 1 }));
  });

  it('on a desktop the messages are a table under From, Subject, Date and Action; on a phone they are cards', async () => {
    setViewportWidth(1280);
    try {
      api.list.mockResolvedValue({ items: [item(1, { read: false, attachments: 2 })], next_page_url: null });
      showList();
      const [row] = await findTableRows();
      expect(columnHeaders(screen.getByRole('table', { name: 'Rows' }))).toEqual(['From', 'Subject', 'Date', 'Action']);
      const cells = within(row).getAllByRole('cell');
      expect(within(cells[1]).getByRole('link', { name: /Subject 1/ }).getAttribute('href')).toContain('/member/mail/conversation/101');
      expect(within(cells[1]).getByText('2 files')).toBeTruthy();
      expect(within(cells[3]).getByRole('button', { name: 'Move “Subject 1” to the bin' })).toBeTruthy();
      expect(cells[3]).toHaveStyle({ textAlign: 'right' });
      expect(row.dataset.unread).toBe('true');
      cleanup();
      setViewportWidth(360);
      showList('bin', {}, 'es');
      const card = (await screen.findByText('Subject 1')).closest('[data-mail-row]') as HTMLElement;
      expect(card).toHaveAttribute('role', 'listitem');
      expect(screen.queryByRole('table')).toBeNull();
      expect(screen.queryByRole('columnheader')).toBeNull();
    } finally {
      setViewportWidth(1024);
    }
  });

  it('says when the inbox is empty, and when nothing matches offers to clear the search', async () => {
    api.list.mockResolvedValueOnce({ items: [], next_page_url: null });
    showList();
    expect(await screen.findByText('Your inbox is empty')).toBeTruthy();
    api.list.mockResolvedValueOnce({ items: [], next_page_url: null });
    const { onSearch } = showList('inbox', { keyword: 'zzz' });
    expect(await screen.findByText('No messages match')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Clear search' }).at(-1)!);
    expect(onSearch).toHaveBeenLastCalledWith({});
  });

  it('a lost connection and a server error offer Try again, which loads the list', async () => {
    api.list.mockRejectedValueOnce(new ConnectionError()).mockRejectedValueOnce(serverError()).mockResolvedValueOnce({ items: [item(1)], next_page_url: null });
    const { actor } = showList();
    await waitFor(actor, (s) => s.matches('networkErrorNoData'));
    fireEvent.click(await screen.findByRole('button', { name: /retry|try again/i }));
    await waitFor(actor, (s) => s.matches('serverErrorNoData'));
    fireEvent.click(await screen.findByRole('button', { name: /retry|try again/i }));
    expect(await screen.findByText('Subject 1')).toBeTruthy();
  });

  it('a 401 ends the session', async () => {
    api.list.mockRejectedValueOnce(new ApiError('unauthorized', 401, { error_code: 'unauthenticated', message: 'x', errors: {} }));
    const { actor } = showList();
    await waitFor(actor, (s) => s.matches('forceLogout'));
  });

  it('the bin offers Restore, in Spanish too', async () => {
    api.list.mockResolvedValueOnce({ items: [item(3, { box: 'sent' })], next_page_url: null });
    const { onRestore } = showList('bin', {}, 'es');
    fireEvent.click(await screen.findByRole('button', { name: 'Restaurar «Subject 3»' }));
    expect(api.list).toHaveBeenCalledWith('bin', { folder: 'bin' }, undefined, expect.anything());
    expect(onRestore).toHaveBeenCalledWith(expect.objectContaining({ id: 3 }));
    expect(screen.getByRole('tab', { name: 'Papelera' })).toBeTruthy();
  });
});

describe('conversation', () => {
  function show() {
    const actor = createActor(mailConversationMachine, { input: { params: 7 } }).start();
    const download = vi.fn(() => Promise.resolve('x'));
    const onOpened = vi.fn();
    renderUi(<MailConversationView actor={actor} datePattern={null} download={download} onOpened={onOpened} />);
    return { actor, download, onOpened };
  }

  it('opens read, shows the messages in order with hostile HTML harmless, downloads files, and sends a reply', async () => {
    api.markRead.mockResolvedValue(COUNTS);
    api.conversation
      .mockResolvedValueOnce(
        conversation(
          message(1, { body: '<p>First</p><img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>', attachments: [{ id: 4, name: 'plan.pdf', content_type: 'application/pdf', size: 10, url: '/api/mail/attachments/4' }] }),
          message(2, { body: '<p>Second</p>', mine: true, from: { ...dana, username: 'amy' } }),
        ),
      )
      .mockResolvedValueOnce(conversation(message(1), message(2), message(3, { body: '<p>Thanks</p>', mine: true })));
    api.reply.mockResolvedValue({ thread_id: 7, message_id: 3 });
    const { actor, download, onOpened } = show();
    expect(await screen.findByRole('heading', { name: 'Training plan' })).toBeTruthy();
    expect(api.markRead).toHaveBeenCalledWith(7, true);
    expect(onOpened).toHaveBeenCalled();
    const articles = screen.getAllByRole('article');
    expect(articles.map((a) => a.textContent)).toEqual([expect.stringContaining('First'), expect.stringContaining('Second')]);
    expect(document.querySelector('script')).toBeNull();
    expect(document.querySelector('[onerror]')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    fireEvent.click(screen.getByRole('button', { name: 'Download plan.pdf' }));
    expect(download).toHaveBeenCalledWith('/api/mail/attachments/4', 'plan.pdf');
    // The editor loads with the page; the empty reply is named; then a typed one is sent.
    await waitForDom(() => expect(document.querySelector('[data-mail-editor]')).toBeTruthy(), { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    act(() => actor.send({ type: 'form.change', field: 'body', value: '<p>Thanks</p>' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitForDom(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(api.reply).toHaveBeenCalledWith(7, '<p>Thanks</p>', []);
  });

  it("a lost connection offers Try again; another member's thread is an error with the way back", async () => {
    api.markRead.mockRejectedValueOnce(new ConnectionError()).mockResolvedValue(COUNTS);
    api.conversation.mockResolvedValue(conversation(message(1)));
    show();
    fireEvent.click(await screen.findByRole('button', { name: /retry|try again/i }));
    expect(await screen.findByRole('heading', { name: 'Training plan' })).toBeTruthy();
  });

  it('a thread that is not the member’s shows the error view and the link back', async () => {
    api.markRead.mockRejectedValue(notFound());
    show();
    expect(await screen.findByRole('link', { name: 'Back to the inbox' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /retry|try again/i })).toBeTruthy();
  });

  it('a reply that fails on the server keeps the text and offers Try again', async () => {
    api.markRead.mockResolvedValue(COUNTS);
    api.conversation.mockResolvedValue(conversation(message(1)));
    api.reply.mockRejectedValueOnce(serverError()).mockResolvedValueOnce({ thread_id: 7, message_id: 3 });
    const { actor } = show();
    await screen.findByRole('heading', { name: 'Training plan' });
    act(() => actor.send({ type: 'form.change', field: 'body', value: '<p>Again</p>' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    expect(await screen.findByText('The message was not sent: something went wrong on our side.')).toBeTruthy();
    expect(actor.getSnapshot().context.values.body).toBe('<p>Again</p>');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitForDom(() => expect(api.reply).toHaveBeenCalledTimes(2));
  });
});

describe('compose', () => {
  const amy: MailRecipient = { username: 'amy', first_name: 'Amy', last_name: 'Lee', avatar: null, company: false, relation: 'downline' };
  function show() {
    const applied = vi.fn();
    const actor = createActor(mailComposeMachine.provide({ actions: { apply: (_, p) => applied(p) } })).start();
    const search = vi.fn((keyword: string) => Promise.resolve(keyword && !'amy lee'.includes(keyword.toLowerCase()) ? [] : [{ ...company, relation: 'company' as const }, amy]));
    renderUi(<MailComposeView actor={actor} searchRecipients={search} />);
    return { actor, applied, search };
  }

  it('finds a recipient by search, names what is missing, and sends the message', async () => {
    api.send.mockResolvedValue({ thread_id: 12, message_id: 40 });
    const { actor, applied, search } = show();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Choose whom to write to.')).toBeTruthy();
    const picker = document.querySelector('input[aria-haspopup="listbox"]') as HTMLInputElement;
    await userEvent.type(picker, 'amy');
    await waitForDom(() => expect(search).toHaveBeenCalledWith('amy'));
    fireEvent.click(await screen.findByRole('option', { name: /Amy Lee \(amy\) · your team/ }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Subject' }), { target: { value: 'Plan' } });
    act(() => actor.send({ type: 'form.change', field: 'body', value: '<p>Hi</p>' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitForDom(() => expect(applied).toHaveBeenCalled());
    expect(api.send).toHaveBeenCalledWith({ to: 'amy', subject: 'Plan', body: '<p>Hi</p>', attachments: [] });
  });

  it('shows a refused recipient on its field and a lost connection with Try again, keeping what was typed', async () => {
    api.send
      .mockRejectedValueOnce(new ApiError('badRequest', 422, { error_code: 'validation_error', message: 'x', errors: { to: ['mail:errors.recipientNotAllowed'] } }))
      .mockRejectedValueOnce(new ConnectionError());
    const { actor } = show();
    act(() => {
      actor.send({ type: 'form.change', field: 'to', value: 'stranger' });
      actor.send({ type: 'form.change', field: 'subject', value: 'Hello' });
      actor.send({ type: 'form.change', field: 'body', value: '<p>Hi</p>' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('You can write only to your sponsor, your upline, your team or the company.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('The message was not sent: the connection was lost.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Subject' }) as HTMLInputElement).value).toBe('Hello');
  });

  it('names a file of the wrong type before anything is sent', async () => {
    const { actor } = show();
    fireEvent.change(document.querySelector('[data-attachments-input]')!, { target: { files: [new File(['x'], 'run.exe', { type: 'application/x-msdownload' })] } });
    expect(await screen.findByText('run.exe', { exact: false })).toBeTruthy();
    act(() => {
      actor.send({ type: 'form.change', field: 'to', value: 'amy' });
      actor.send({ type: 'form.change', field: 'subject', value: 'Hello' });
      actor.send({ type: 'form.change', field: 'body', value: '<p>Hi</p>' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(actor, (s) => !!s.context.fieldErrors.attachments);
    expect(api.send).not.toHaveBeenCalled();
  });
});

describe('sent item', () => {
  it('shows the message and links to its conversation; a failure offers Try again', async () => {
    api.sentItem.mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce(message(9, { mine: true, thread_id: 55 }));
    const actor = createActor(mailSentItemMachine, { input: { params: 9 } }).start();
    renderUi(<MailSentItemView actor={actor} datePattern={null} download={vi.fn()} />);
    fireEvent.click(await screen.findByRole('button', { name: /retry|try again/i }));
    expect(await screen.findByRole('heading', { name: 'Training plan' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the whole conversation' }).getAttribute('href')).toContain('/member/mail/conversation/55');
  });
});
