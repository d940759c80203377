/**
 * /member/mail/inbox, /sent and /bin: the member's messages as an endless list with tabs for the three
 * boxes, a search over subject and person and (inbox) an unread-only switch, both kept in the URL. Unread
 * messages stand out (bold, a dot, "Unread" for screen readers). Each row opens its conversation (or, in
 * sent, the sent item); a row's button moves it to the bin, or in the bin restores it. Loading, empty, no
 * match, errors with retry and "load more" are the paged list's.
 */
import '@mantine/core/styles/SegmentedControl.css';
import { ActionIcon, Anchor, Avatar, Badge, Button, CloseButton, Group, SegmentedControl, Stack, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { Link } from 'wouter';
import { formatDate } from '../../lib/dates';
import type { mailInboxMachine } from '../../machines/mail/mail.machine';
import type { MailBox, MailFiltersValue, MailListItem, MailParty } from '../../schemas/mail.schema';
import { DenseRow, useDenseColumns } from '../components/paged-list/dense-list';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';
import { TabbedPage } from '../components/tabbed-page';
import { fullName, initials } from '../components/person';

export interface MailListViewProps {
  actor: ActorRefFrom<typeof mailInboxMachine>;
  /** The page: inbox (its bin with ?folder=bin) or sent. */
  page: 'inbox' | 'sent';
  search: MailFiltersValue;
  onSearch(search: MailFiltersValue): void;
  onBin(item: MailListItem): void;
  onRestore(item: MailListItem): void;
  datePattern: string | null;
}

export const MAIL_BOXES_SHOWN: readonly MailBox[] = ['inbox', 'sent', 'bin'];
const TAB_HREF: Record<MailBox, string> = { inbox: '~/member/mail/inbox', sent: '~/member/mail/sent', bin: '~/member/mail/inbox?folder=bin' };

/** The name shown for someone of a message: the company by its role, a member by their name. */
export function usePartyName() {
  const { t } = useTranslation('mail');
  return (p: MailParty) => (p.company ? t('company') : fullName(p) || p.username);
}

function SearchForm({ box, search, onSearch }: Pick<MailListViewProps, 'search' | 'onSearch'> & { box: MailBox }) {
  const { t } = useTranslation('mail');
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const keyword = String(new FormData(e.currentTarget).get('keyword') ?? '').trim();
    onSearch({ ...search, keyword: keyword || undefined });
  };
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <form role="search" onSubmit={submit} key={search.keyword ?? ''} aria-label={t('search.label')} style={{ flex: '1 1 240px', minWidth: 0 }}>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            name="keyword"
            type="search"
            label={t('search.label')}
            placeholder={t('search.placeholder')}
            defaultValue={search.keyword ?? ''}
            maxLength={100}
            style={{ flex: 1, minWidth: 0 }}
            rightSection={search.keyword ? <CloseButton aria-label={t('search.clear')} onClick={() => onSearch({ ...search, keyword: undefined })} /> : null}
          />
          <Button type="submit">{t('search.submit')}</Button>
        </Group>
      </form>
      {box === 'inbox' && (
        <SegmentedControl
          aria-label={t('filter.label')}
          value={search.unread ? 'unread' : 'all'}
          onChange={(v) => onSearch({ ...search, unread: v === 'unread' ? '1' : undefined })}
          data={[
            { value: 'all', label: t('filter.all') },
            { value: 'unread', label: t('filter.unread') },
          ]}
        />
      )}
    </Group>
  );
}

function MailRow({ item, box, onBin, onRestore, datePattern }: { item: MailListItem; box: MailBox } & Pick<MailListViewProps, 'onBin' | 'onRestore' | 'datePattern'>) {
  const { t } = useTranslation('mail');
  const name = usePartyName();
  const href = item.box === 'sent' && box === 'sent' ? `~/member/mail/sent-item/${item.id}` : `~/member/mail/conversation/${item.thread_id}`;
  const unread = !item.read;
  const avatar = (
    <Avatar src={item.party.avatar} radius="xl" size="md" alt="" color="initials" name={name(item.party)}>
      {initials(item.party)}
    </Avatar>
  );
  const who = item.box === 'sent' ? t('list.to', { name: name(item.party) }) : name(item.party);
  const subject = (
    <Anchor component={Link} href={href} fw={unread ? 700 : 500} size="sm" c="inherit" style={{ overflowWrap: 'anywhere' }}>
      {unread && <VisuallyHidden>{t('list.unread')} </VisuallyHidden>}
      {item.subject}
    </Anchor>
  );
  const snippet = (
    <Text size="xs" c="dimmed" lineClamp={1} style={{ overflowWrap: 'anywhere' }}>
      {item.snippet}
    </Text>
  );
  const badges = (
    <Group gap={6}>
      {unread && (
        <Badge size="xs" variant="filled" aria-hidden>
          {t('list.new')}
        </Badge>
      )}
      {item.attachments > 0 && (
        <Badge size="xs" variant="light" color="gray">
          {t('list.attachments', { count: item.attachments })}
        </Badge>
      )}
    </Group>
  );
  const date = (
    <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
      {formatDate(item.created_at, datePattern)}
    </Text>
  );
  const action =
    box === 'bin' ? (
      <Tooltip label={t('list.restore')}>
        <ActionIcon variant="subtle" aria-label={t('list.restoreNamed', { subject: item.subject })} onClick={() => onRestore(item)} data-restore>
          ↺
        </ActionIcon>
      </Tooltip>
    ) : (
      <Tooltip label={t('list.bin')}>
        <ActionIcon variant="subtle" color="red" aria-label={t('list.binNamed', { subject: item.subject })} onClick={() => onBin(item)} data-bin>
          🗑
        </ActionIcon>
      </Tooltip>
    );
  const background = unread ? 'var(--mantine-primary-color-light)' : undefined;
  if (useDenseColumns())
    return (
      <DenseRow
        data-mail-row={item.id}
        data-unread={unread || undefined}
        style={{ background }}
        cells={[
          <Group key="who" gap="sm" wrap="nowrap">
            {avatar}
            <Text size="sm" fw={unread ? 700 : 500} style={{ minWidth: 0 }}>
              {box === 'sent' ? name(item.party) : who}
            </Text>
          </Group>,
          <Stack key="subject" gap={2}>
            {subject}
            {snippet}
            {badges}
          </Stack>,
          date,
          action,
        ]}
      />
    );
  return (
    <Group
      role="listitem"
      wrap="nowrap"
      gap="sm"
      py="sm"
      px="xs"
      align="flex-start"
      data-mail-row={item.id}
      data-unread={unread || undefined}
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)', background }}
    >
      {avatar}
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" fw={unread ? 700 : 500} truncate="end" style={{ minWidth: 0 }}>
            {who}
          </Text>
          {date}
        </Group>
        {subject}
        {snippet}
        {badges}
      </Stack>
      {action}
    </Group>
  );
}

export function MailListView({ actor, page, search, onSearch, onBin, onRestore, datePattern }: MailListViewProps) {
  const { t } = useTranslation('mail');
  const box: MailBox = page === 'inbox' && search.folder === 'bin' ? 'bin' : page;
  const keyword = useSelector(actor, (s) => s.context.filters.keyword?.trim() || '');
  const unreadOnly = useSelector(actor, (s) => !!s.context.filters.unread);
  const filtered = !!keyword || unreadOnly;
  return (
    <TabbedPage title={t('title')} tabs={MAIL_BOXES_SHOWN} tab={box} label={(b) => t(`boxes.${b}`)} href={(b) => TAB_HREF[b]}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text c="dimmed" size="sm">
            {t(`boxes.${box}Description`)}
          </Text>
          <Button component={Link} href="~/member/mail/compose" data-compose>
            {t('compose.open')}
          </Button>
        </Group>
        <SearchForm box={box} search={search} onSearch={onSearch} />
        <PagedList<MailListItem>
          actor={actor as unknown as PagedListActor<MailListItem>}
          emptyTitle={filtered ? t('list.noMatchTitle') : t(`list.empty.${box}`)}
          emptyDescription={filtered ? t('list.noMatchDescription') : t(`list.emptyDescription.${box}`)}
          emptyAction={
            filtered ? (
              <Button variant="light" onClick={() => onSearch({ folder: search.folder })}>
                {t('search.clear')}
              </Button>
            ) : undefined
          }
          columns={[
            { label: t(`columns.${box === 'inbox' ? 'from' : box === 'sent' ? 'to' : 'party'}`), width: 'minmax(0, 1.2fr)' },
            { label: t('columns.subject'), width: 'minmax(0, 3fr)' },
            { label: t('columns.date'), width: 'minmax(7rem, 1fr)' },
            { label: t('columns.action'), width: '4.5rem', right: true },
          ]}
          renderItems={(items) => (
            // The rows are the list's items (the paged list is the list or the table).
            <>
              {items.map((item) => (
                <MailRow key={item.id} item={item} box={box} onBin={onBin} onRestore={onRestore} datePattern={datePattern} />
              ))}
            </>
          )}
        />
      </Stack>
    </TabbedPage>
  );
}
