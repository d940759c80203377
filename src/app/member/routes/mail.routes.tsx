/**
 * Mail (spec §2): /mail/inbox (its bin with ?folder=bin) and /mail/sent (lists with ?keyword= and ?unread=1 in the URL),
 * /mail/sent-item/{id}, /mail/compose and /mail/conversation/{thread}. The base (/mail → inbox) is in the
 * route table. All under the mailbox permission (spec §6: supportMessage).
 */
import i18next from 'i18next';
import { PERMISSIONS } from '../../../lib/menu';
import { createSearchCodec } from '../../../lib/search-codec';
import { showToast } from '../../../lib/toast';
import {
  mailActions,
  mailComposeMachine,
  mailConversationMachine,
  mailInboxMachine,
  mailSentItemMachine,
  mailSentMachine,
} from '../../../machines/mail/mail.machine';
import { mailPageQuery, type MailFiltersValue, type MailListItem } from '../../../schemas/mail.schema';
import { browserBindings } from '../../bindings';
import { lazyView } from '../../lazy-view';
import { formActions } from '../member-forms';
import { showUndoToast } from '../resource-actions';
import { page } from '../member-page';
import { SESSION, type MemberRoute, type PageEnv, type UrlBinding } from '../member-route';
import { FILES_MEMORY, formats, guarded, LOADED } from '../route-parts';

const views = () => import('../../../views/mail/mail-list.view');
const MailListView = lazyView(() => views().then((m) => m.MailListView));
const MailConversationView = lazyView(() => import('../../../views/mail/mail-conversation.view').then((m) => m.MailConversationView));
const MailSentItemView = lazyView(() => import('../../../views/mail/mail-sent-item.view').then((m) => m.MailSentItemView));
const MailComposeView = lazyView(() => import('../../../views/mail/mail-compose.view').then((m) => m.MailComposeView));

type ListMachine = typeof mailInboxMachine;

/** ?keyword=, ?unread=1 and ?folder=bin of a mail list page, followed by `list.setFilters`. */
const mailUrl: UrlBinding<ListMachine, MailFiltersValue> = {
  codec: createSearchCodec(mailPageQuery, { fields: ['keyword', 'unread', 'folder'] }) as UrlBinding<ListMachine, MailFiltersValue>['codec'],
  follow: { current: (s) => s.context.filters, event: (filters) => ({ type: 'list.setFilters', filters }) },
};

/** A positive whole record id, or -1 (the server answers not found). */
const recordId = (id: string | undefined) => (Number.isInteger(Number(id)) && Number(id) > 0 ? Number(id) : -1);

const toastError = (e: unknown) =>
  showToast({ kind: 'error', message: i18next.t((e as { status?: number } | null)?.status === 429 ? 'mail:send.errors.rateLimited' : 'mail:errors.actionFailed') });

/**
 * Moves a message to the bin, then offers Undo while the toast stays (restores it); the list and the
 * badge follow either way.
 */
export function binWithUndo(item: MailListItem, reload: () => void, env: Pick<PageEnv, 'refreshBadge'>, actions = mailActions) {
  return actions.bin(item.id).then(
    () => {
      reload();
      env.refreshBadge();
      showUndoToast(i18next.t('mail:list.binned'), i18next.t('mail:list.undo'), () =>
        actions.restore(item.id).then(() => {
          reload();
          env.refreshBadge();
        }, toastError),
      );
    },
    toastError,
  );
}

export function restoreFromBin(item: MailListItem, reload: () => void, env: Pick<PageEnv, 'refreshBadge'>, actions = mailActions) {
  return actions.restore(item.id).then(() => {
    reload();
    env.refreshBadge();
    showToast({ kind: 'success', message: i18next.t('mail:list.restored') });
  }, toastError);
}

const listPage = (box: 'inbox' | 'sent', machine: ListMachine) =>
  page(
    `/mail/${box}`,
    {
      id: `mail.${box}`,
      machine,
      input: ({ url }) => ({ filters: url }),
      url: mailUrl,
      persist: SESSION,
      view: ({ actor, url, setUrl, env }) => {
        const reload = () => actor.send({ type: 'list.refresh' });
        return (
          <MailListView
            actor={actor}
            page={box}
            search={url}
            onSearch={setUrl}
            onBin={(i) => void binWithUndo(i, reload, env)}
            onRestore={(i) => void restoreFromBin(i, reload, env)}
            datePattern={formats(env).datePattern}
          />
        );
      },
    },
    guarded(PERMISSIONS.mailbox, 'mailbox', box),
  );

export const mailRoutes: MemberRoute[] = [
  listPage('inbox', mailInboxMachine),
  listPage('sent', mailSentMachine),
  page(
    '/mail/sent-item/:id?',
    {
      id: 'mail.sentItem',
      machine: mailSentItemMachine,
      input: ({ params }) => ({ params: recordId(params.id) }),
      ...LOADED,
      view: ({ actor, env }) => <MailSentItemView actor={actor} datePattern={formats(env).datePattern} download={mailActions.download} />,
    },
    { permission: PERMISSIONS.mailbox },
  ),
  page(
    '/mail/compose',
    {
      id: 'mail.compose',
      machine: mailComposeMachine,
      // Once sent, the new thread opens.
      provide: (m, env) =>
        m.provide({ actions: { ...formActions(env.session), apply: (_, { result }) => browserBindings.navigate(`/member/mail/conversation/${result.thread_id}`) } }),
      persist: FILES_MEMORY,
      view: ({ actor }) => <MailComposeView actor={actor} searchRecipients={mailActions.recipients} />,
    },
    guarded(PERMISSIONS.mailbox, 'mailbox', 'compose'),
  ),
  page(
    '/mail/conversation/:id?',
    {
      id: 'mail.conversation',
      machine: mailConversationMachine,
      input: ({ params }) => ({ params: recordId(params.id) }),
      provide: (m, env) => m.provide({ actions: formActions(env.session) }),
      persist: FILES_MEMORY,
      view: ({ actor, env }) => <MailConversationView actor={actor} datePattern={formats(env).datePattern} download={mailActions.download} onOpened={env.refreshBadge} />,
    },
    { permission: PERMISSIONS.mailbox },
  ),
];
