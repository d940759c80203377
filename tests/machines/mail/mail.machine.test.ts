/**
 * The mail machines with their calls: lists send the URL's filters and the cursor; opening a conversation
 * marks it read before reading it; a reply is sent then the conversation read again; compose sends what
 * was typed (or names what is missing without calling); a refused recipient is the field's error; a 401
 * ends the session.
 */
import { createActor, waitFor } from 'xstate';
import { ApiError, ConnectionError } from '../../../src/api/errors';
import { mailApi } from '../../../src/api/mail';
import { mailComposeMachine, mailConversationMachine, mailInboxMachine, mailSentItemMachine, mailActions } from '../../../src/machines/mail/mail.machine';
import type { MailConversation, MailListItem, MailMessage } from '../../../src/schemas/mail.schema';

afterEach(() => vi.restoreAllMocks());

const party = { username: 'demo', first_name: 'Dana', last_name: 'Demo', avatar: null, company: false };
const item = (id: number): MailListItem => ({ id, thread_id: id, box: 'inbox', subject: `S${id}`, snippet: 'x', party, read: false, attachments: 0, created_at: '2026-11-01T00:00:00.000Z' });
const message = (id: number, body = '<p>hi</p>'): MailMessage => ({
  id,
  thread_id: 7,
  subject: 'Plan',
  from: party,
  to: { ...party, username: 'amy' },
  body,
  mine: false,
  read_at: null,
  binned: false,
  attachments: [],
  created_at: '2026-11-01T00:00:00.000Z',
});
const conversation = (...messages: MailMessage[]): MailConversation => ({ id: 7, subject: 'Plan', reply_to: party, messages });
const COUNTS = { unread: 0, inbox: 1, sent: 0, bin: 0 };

describe('mail lists', () => {
  it('load the box with the filters, then the next page by its cursor', async () => {
    const list = vi
      .spyOn(mailApi, 'list')
      .mockResolvedValueOnce({ items: [item(1)], next_page_url: '/api/mail/inbox?keyword=plan&unread=1&cursor=abc' })
      .mockResolvedValueOnce({ items: [item(2)], next_page_url: null });
    const actor = createActor(mailInboxMachine, { input: { filters: { keyword: 'plan', unread: '1' } } }).start();
    await waitFor(actor, (s) => s.matches('readyToLoadMore'));
    expect(list).toHaveBeenLastCalledWith('inbox', { keyword: 'plan', unread: '1' }, undefined, expect.anything());
    actor.send({ type: 'list.loadMore' });
    await waitFor(actor, (s) => s.matches('noMoreItems'));
    expect(list).toHaveBeenLastCalledWith('inbox', { keyword: 'plan', unread: '1' }, 'abc', expect.anything());
    expect(actor.getSnapshot().context.items.map((i) => i.id)).toEqual([1, 2]);
  });
});

describe('mailConversationMachine', () => {
  it('marks the thread read, then shows it; a reply is sent and the conversation read again with it', async () => {
    const read = vi.spyOn(mailApi, 'markRead').mockResolvedValue(COUNTS);
    const get = vi.spyOn(mailApi, 'conversation').mockResolvedValueOnce(conversation(message(1))).mockResolvedValueOnce(conversation(message(1), message(2, '<p>ok</p>')));
    const reply = vi.spyOn(mailApi, 'reply').mockResolvedValue({ thread_id: 7, message_id: 2 });
    const actor = createActor(mailConversationMachine, { input: { params: 7 } }).start();
    await waitFor(actor, (s) => s.matches('editing'));
    expect(read).toHaveBeenCalledWith(7, true);
    expect(read.mock.invocationCallOrder[0]).toBeLessThan(get.mock.invocationCallOrder[0]);
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('editing') && Object.keys(s.context.fieldErrors).length > 0);
    expect(actor.getSnapshot().context.fieldErrors.body).toBe('validation:required');
    expect(reply).not.toHaveBeenCalled();
    actor.send({ type: 'form.change', field: 'body', value: '<p>ok</p>' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success') || s.matches('editing'));
    await waitFor(actor, (s) => s.context.result !== null);
    expect(reply).toHaveBeenCalledWith(7, '<p>ok</p>', []);
    expect(actor.getSnapshot().context.result!.messages).toHaveLength(2);
    expect(actor.getSnapshot().context.values.body).toBe('');
  });

  it("another member's thread (404) is the load's error; a 401 ends the session", async () => {
    vi.spyOn(mailApi, 'markRead').mockRejectedValue(new ApiError('notFound', 404, { error_code: 'not_found', message: 'Not found', errors: {} }));
    const actor = createActor(mailConversationMachine, { input: { params: 9 } }).start();
    await waitFor(actor, (s) => s.matches('loadError'));
    vi.spyOn(mailApi, 'markRead').mockRejectedValue(new ApiError('unauthorized', 401, { error_code: 'unauthenticated', message: 'x', errors: {} }));
    const again = createActor(mailConversationMachine, { input: { params: 9 } }).start();
    await waitFor(again, (s) => s.matches('forceLogout'));
  });
});

describe('mailComposeMachine', () => {
  const fill = (actor: ReturnType<typeof createActor<typeof mailComposeMachine>>, files: File[] = []) => {
    actor.send({ type: 'form.change', field: 'to', value: 'amy' });
    actor.send({ type: 'form.change', field: 'subject', value: 'Plan' });
    actor.send({ type: 'form.change', field: 'body', value: '<p>See <strong>this</strong></p>' });
    actor.send({ type: 'form.change', field: 'attachments', value: files });
  };

  it('names what is missing without calling, then sends what was typed with the files', async () => {
    const send = vi.spyOn(mailApi, 'send').mockResolvedValue({ thread_id: 5, message_id: 9 });
    const applied: unknown[] = [];
    const actor = createActor(mailComposeMachine.provide({ actions: { apply: (_, p) => applied.push(p) } })).start();
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => !s.hasTag('busy'));
    expect(actor.getSnapshot().context.fieldErrors).toMatchObject({ to: 'mail:errors.recipientRequired', subject: 'validation:required', body: 'validation:required' });
    expect(send).not.toHaveBeenCalled();
    const pdf = new File(['%PDF-1.4'], 'plan.pdf', { type: 'application/pdf' });
    fill(actor, [pdf]);
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('success') || (s.matches('editing') && applied.length > 0));
    expect(send).toHaveBeenCalledWith({ to: 'amy', subject: 'Plan', body: '<p>See <strong>this</strong></p>', attachments: [pdf] });
    expect(applied[0]).toMatchObject({ result: { thread_id: 5 } });
  });

  it('refuses a wrong file before sending, and shows the server refusing the recipient on its field', async () => {
    const send = vi.spyOn(mailApi, 'send').mockRejectedValue(new ApiError('badRequest', 422, { error_code: 'validation_error', message: 'x', errors: { to: ['mail:errors.recipientNotAllowed'] } }));
    const actor = createActor(mailComposeMachine).start();
    fill(actor, [new File(['x'], 'a.exe', { type: 'application/x-msdownload' })]);
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => !s.hasTag('busy'));
    expect(actor.getSnapshot().context.fieldErrors.attachments).toBe('account:upload.fileType');
    fill(actor, Array.from({ length: 6 }, (_, i) => new File(['%PDF'], `f${i}.pdf`, { type: 'application/pdf' })));
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => !s.hasTag('busy'));
    expect(actor.getSnapshot().context.fieldErrors.attachments).toBe('account:upload.tooManyFiles');
    fill(actor);
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('validationError'));
    expect(send).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.fieldErrors.to).toBe('mail:errors.recipientNotAllowed');
    expect(actor.getSnapshot().context.values.subject).toBe('Plan');
  });

  it('a lost connection keeps what was typed and retries the same message', async () => {
    const send = vi.spyOn(mailApi, 'send').mockRejectedValueOnce(new ConnectionError()).mockResolvedValueOnce({ thread_id: 5, message_id: 9 });
    const actor = createActor(mailComposeMachine).start();
    fill(actor);
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (s) => s.matches('connectionError'));
    actor.send({ type: 'form.retry' });
    await waitFor(actor, () => send.mock.calls.length === 2);
    expect(send.mock.calls[1][0]).toEqual(send.mock.calls[0][0]);
  });
});

describe('mail sent item and actions', () => {
  it('loads the sent item by id', async () => {
    const get = vi.spyOn(mailApi, 'sentItem').mockResolvedValue({ ...message(3), mine: true });
    const actor = createActor(mailSentItemMachine, { input: { params: 3 } }).start();
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(get).toHaveBeenCalledWith(3);
  });

  it('bin, restore, mark unread, download and recipients go to their calls', async () => {
    const bin = vi.spyOn(mailApi, 'bin').mockResolvedValue({ message: 'ok' });
    const restore = vi.spyOn(mailApi, 'restore').mockResolvedValue({ message: 'ok' });
    const read = vi.spyOn(mailApi, 'markRead').mockResolvedValue(COUNTS);
    const download = vi.spyOn(mailApi, 'downloadAttachment').mockResolvedValue('a.pdf');
    const recipients = vi.spyOn(mailApi, 'recipients').mockResolvedValue([]);
    await mailActions.bin(1);
    await mailActions.restore(1);
    await mailActions.markUnread(7);
    await mailActions.download('/api/mail/attachments/4', 'a.pdf');
    await mailActions.recipients('am');
    expect(bin).toHaveBeenCalledWith(1);
    expect(restore).toHaveBeenCalledWith(1);
    expect(read).toHaveBeenCalledWith(7, false);
    expect(download).toHaveBeenCalledWith('/api/mail/attachments/4', 'a.pdf');
    expect(recipients).toHaveBeenCalledWith('am');
  });
});
