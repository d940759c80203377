/**
 * /member/crm/contacts: the member's contacts (search in the URL, CSV export, import); /crm/contacts/{id}: a
 * contact with its timeline of notes, calls and meetings; /crm/contacts/import: a CSV file checked by the
 * server row by row, with a preview of the rows that fail and why, before anything is saved.
 * /member/crm/calls: the call log; /member/crm/meetings: the agenda of upcoming meetings.
 */
import { Alert, Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ChangeEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'wouter';
import type { ActorRefFrom, AnyActorRef } from 'xstate';
import { formatDate } from '../../lib/dates';
import type { calls, contactImportMachine, contactPageMachine, contacts, meetings } from '../../machines/crm/people.machine';
import type { Call, Contact, ContactFilters, Invitee, Meeting, TimelineEntry } from '../../schemas/crm.schema';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { DenseItems, DenseRow, useDenseColumns, type DenseColumn } from '../components/paged-list/dense-list';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';
import { DeleteDialogs, Detail, NoteForm, Timeline, type RecordPageActor } from './leads.view';
import { CrmListPage, PageHeader } from './crm-list-page.view';

export const CONTACTS = '/crm/contacts';

function LinkButton({ href, children, variant }: { href: string; children: ReactNode; variant?: string }) {
  return (
    <Button component={Link} href={href} variant={variant}>
      {children}
    </Button>
  );
}

export interface ContactsListViewProps {
  actor: ActorRefFrom<typeof contacts.list>;
  filters: ContactFilters;
  onFilters: (f: ContactFilters) => void;
  onDownload: () => void;
}

/** The contacts' columns on desktops. */
const contactColumns = (t: TFunction): DenseColumn[] => [
  { label: t('contacts.fields.name'), width: 'minmax(0, 2fr)' },
  { label: t('contacts.fields.company'), width: 'minmax(0, 1.5fr)' },
  { label: t('contacts.fields.email'), width: 'minmax(0, 2fr)' },
  { label: t('contacts.fields.phone'), width: 'minmax(0, 1.2fr)' },
  { label: t('contacts.fields.city'), width: 'minmax(0, 1fr)' },
];

function ContactRow({ c }: { c: Contact }) {
  const name = (
    <Anchor component={Link} href={`${CONTACTS}/${c.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
      {c.name}
    </Anchor>
  );
  if (useDenseColumns())
    return (
      <DenseRow
        data-contact-id={c.id}
        cells={[name, ...[c.company, c.email, c.phone, c.city].map((v, i) => (
          <Text key={i} size="sm" c={v ? undefined : 'dimmed'}>
            {v || '—'}
          </Text>
        ))]}
      />
    );
  return (
    <Card withBorder padding="sm" role="listitem" data-contact-id={c.id}>
      {name}
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {[c.company, c.email, c.phone, c.city].filter(Boolean).join(' · ')}
      </Text>
    </Card>
  );
}

export function ContactsListView({ actor, filters, onFilters, onDownload }: ContactsListViewProps) {
  const { t } = useTranslation('crm');
  return (
    <CrmListPage<ContactFilters, Contact>
      title={t('contacts.title')}
      actions={
        <>
          <LinkButton href={`${CONTACTS}/import`} variant="default">
            {t('import.title')}
          </LinkButton>
          <LinkButton href={`${CONTACTS}/new`}>{t('contacts.new')}</LinkButton>
        </>
      }
      filters={filters}
      onFilters={onFilters}
      search={{ label: t('contacts.search') }}
      dates={false}
      onDownload={onDownload}
      actor={actor}
      empty={{ title: t('contacts.emptyTitle'), noMatchTitle: t('contacts.noMatchTitle'), description: t('contacts.emptyDescription') }}
      columns={contactColumns(t)}
      renderItems={(items) => (
        <DenseItems>
          {items.map((c) => (
            <ContactRow key={c.id} c={c} />
          ))}
        </DenseItems>
      )}
    />
  );
}

export function ContactPageView({ actor, datePattern }: { actor: ActorRefFrom<typeof contactPageMachine>; datePattern: string | null }) {
  const { t } = useTranslation('crm');
  const detail = useSelector(actor, (s) => s.children.detail as AnyActorRef | undefined);
  const state = useSelector(detail, (s) => (s ? String(s.value) : 'loading'));
  const data = useSelector(detail, (s) => (s?.context.data ?? null) as { contact: Contact; timeline: TimelineEntry[] } | null);
  const error = useSelector(detail, (s) => s?.context.error ?? null);
  const back = <LinkButton href={CONTACTS} variant="subtle">{t('contacts.back')}</LinkButton>;
  if (state === 'error' && error?.kind === 'notFound')
    return <EmptyState title={t('common.notFoundTitle')} description={t('common.notFoundDescription')} action={back} />;
  if ((state === 'connectionError' || state === 'error') && !data)
    return <ErrorView kind={state === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'detail.retry' })} />;
  if (!data) return <PageLoader />;
  const { contact: c, timeline } = data;
  return (
    <Stack gap="md" maw={900}>
      <div>{back}</div>
      <DeleteDialogs actor={actor as unknown as RecordPageActor} area="contacts" />
      <PageHeader title={c.name}>
        <LinkButton href="/crm/calls/new" variant="default">
          {t('calls.new')}
        </LinkButton>
        <LinkButton href={`${CONTACTS}/edit/${c.id}`} variant="light">
          {t('leads.edit')}
        </LinkButton>
        <Button color="red" variant="subtle" onClick={() => actor.send({ type: 'delete.request', id: c.id })}>
          {t('leads.delete')}
        </Button>
      </PageHeader>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <Detail label={t('contacts.fields.company')}>{c.company}</Detail>
          <Detail label={t('contacts.fields.email')}>{c.email}</Detail>
          <Detail label={t('contacts.fields.phone')}>{c.phone}</Detail>
          <Detail label={t('contacts.fields.city')}>{c.city}</Detail>
          {c.lead_id && (
            <Detail label={t('contacts.fromLead')}>
              <Anchor component={Link} href={`/crm/leads/${c.lead_id}`}>
                {t('contacts.openLead')}
              </Anchor>
            </Detail>
          )}
        </SimpleGrid>
      </Card>
      <Title order={2} size="h4">
        {t('leads.timeline')}
      </Title>
      <NoteForm actor={actor as unknown as RecordPageActor} />
      <Timeline items={timeline} datePattern={datePattern} />
    </Stack>
  );
}

// ── The CSV import ──────────────────────────────────────────────────────────────────────────────────

export function ContactImportView({ actor }: { actor: ActorRefFrom<typeof contactImportMachine> }) {
  const { t } = useTranslation('crm');
  const state = useSelector(actor, (s) => String(s.value));
  const ctx = useSelector(actor, (s) => s.context);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const pick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.currentTarget.files?.[0];
    if (file) actor.send({ type: 'import.file', file, name: file.name });
    e.currentTarget.value = '';
  };
  const failedRows = new Map((ctx.result?.failed ?? []).map((f) => [f.row, f.errors]));
  const columns = ['name', 'company', 'email', 'phone', 'city'];
  return (
    <Stack gap="md" maw={960}>
      <div>
        <LinkButton href={CONTACTS} variant="subtle">
          {t('contacts.back')}
        </LinkButton>
      </div>
      <Title order={1} size="h2">
        {t('import.title')}
      </Title>
      <Text size="sm">{t('import.help')}</Text>
      <Group>
        <Button component="label" variant="light" loading={busy}>
          {t('import.choose')}
          <input type="file" accept=".csv,text/csv" hidden onChange={pick} data-csv-input aria-label={t('import.choose')} />
        </Button>
        {ctx.fileName && <Text size="sm">{ctx.fileName}</Text>}
      </Group>
      {state === 'unusable' && (
        <Alert color="red" role="alert">
          {t(ctx.problem === 'tooMany' ? 'import.tooMany' : 'import.unreadable')}
        </Alert>
      )}
      {(state === 'checkError' || state === 'importError') && (
        <Alert color="red" role="alert">
          <Group justify="space-between">
            <Text size="sm">{t(ctx.error?.kind === 'connection' ? 'leads.errors.connectionError' : 'leads.errors.serverError')}</Text>
            <Button size="xs" onClick={() => actor.send({ type: 'import.retry' })}>
              {t('leads.retry')}
            </Button>
          </Group>
        </Alert>
      )}
      {state === 'done' && ctx.result && (
        <Alert color="green" role="status">
          {t('import.imported', { count: ctx.result.imported })}{' '}
          <Anchor component={Link} href={CONTACTS}>
            {t('import.seeContacts')}
          </Anchor>
        </Alert>
      )}
      {(state === 'preview' || state === 'importing') && ctx.result && (
        <>
          <Alert color={ctx.result.failed.length ? 'yellow' : 'blue'} role="status" data-import-summary>
            {t('import.summary', { valid: ctx.result.valid, failed: ctx.result.failed.length })}
          </Alert>
          <div style={{ overflowX: 'auto' }}>
            <Table striped withTableBorder aria-label={t('import.preview')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('import.row')}</Table.Th>
                  {columns.map((c) => (
                    <Table.Th key={c}>{t(`contacts.fields.${c}`)}</Table.Th>
                  ))}
                  <Table.Th>{t('import.problems')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {ctx.rows.slice(0, 200).map((row, i) => {
                  const errors = failedRows.get(i + 1);
                  return (
                    <Table.Tr key={i} data-import-row={i + 1} data-failed={errors ? true : undefined}>
                      <Table.Td>{i + 1}</Table.Td>
                      {columns.map((c) => (
                        <Table.Td key={c}>{row[c] ?? ''}</Table.Td>
                      ))}
                      <Table.Td>
                        {errors ? (
                          <Stack gap={2}>
                            {Object.entries(errors).map(([field, keys]) => (
                              <Text key={field} size="xs" c="red">
                                {t(`contacts.fields.${field}`, { defaultValue: field })}: {keys.map((k) => t(k)).join(' ')}
                              </Text>
                            ))}
                          </Stack>
                        ) : (
                          <Badge color="green" variant="light">
                            {t('import.ok')}
                          </Badge>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </div>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => actor.send({ type: 'import.reset' })}>
              {t('leads.cancel')}
            </Button>
            <Button disabled={!!ctx.result.failed.length || !ctx.result.valid} loading={state === 'importing'} onClick={() => actor.send({ type: 'import.confirm' })}>
              {t('import.confirm', { count: ctx.result.valid })}
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

// ── Calls and meetings ──────────────────────────────────────────────────────────────────────────────

/** The call log's columns on desktops. */
const callColumns = (t: TFunction): DenseColumn[] => [
  { label: t('columns.who'), width: 'minmax(0, 1.5fr)' },
  { label: t('calls.fields.date'), width: 'minmax(8rem, 1fr)' },
  { label: t('calls.fields.direction'), width: 'minmax(0, 0.8fr)' },
  { label: t('calls.fields.outcome'), width: 'minmax(0, 1fr)' },
  { label: t('calls.fields.duration_minutes'), width: '5rem', right: true },
  { label: t('calls.fields.notes'), width: 'minmax(0, 2fr)' },
];

function CallRow({ c, datePattern }: { c: Call; datePattern: string | null }) {
  const { t } = useTranslation('crm');
  if (useDenseColumns())
    return (
      <DenseRow
        data-call-id={c.id}
        cells={[
          <Text key="who" size="sm" fw={600}>
            {c.who}
          </Text>,
          <Text key="when" size="sm">
            {formatDate(c.called_at, datePattern)}
          </Text>,
          <Text key="direction" size="sm">
            {t(`direction.${c.direction}`)}
          </Text>,
          <Text key="outcome" size="sm">
            {t(`outcome.${c.outcome}`)}
          </Text>,
          <Text key="minutes" size="sm">
            {t('calls.minutes', { count: c.duration_minutes })}
          </Text>,
          <Text key="notes" size="sm" c="dimmed" lineClamp={2}>
            {c.notes || '—'}
          </Text>,
        ]}
      />
    );
  return (
    <Card withBorder padding="sm" role="listitem" data-call-id={c.id}>
      <Group justify="space-between" gap="xs">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {c.who}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDate(c.called_at, datePattern)}
        </Text>
      </Group>
      <Text size="sm">
        {t(`direction.${c.direction}`)} · {t(`outcome.${c.outcome}`)} · {t('calls.minutes', { count: c.duration_minutes })}
      </Text>
      {c.notes && (
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {c.notes}
        </Text>
      )}
    </Card>
  );
}

export function CallsView({ actor, datePattern }: { actor: ActorRefFrom<typeof calls.book>; datePattern: string | null }) {
  const { t } = useTranslation('crm');
  const list = useSelector(actor, (s) => s.children.list);
  if (!list) return <PageLoader />;
  return (
    <Stack gap="md">
      <PageHeader title={t('calls.title')}>
        <LinkButton href="/crm/calls/new">{t('calls.new')}</LinkButton>
      </PageHeader>
      <PagedList<Call>
        actor={list as unknown as PagedListActor<Call>}
        emptyTitle={t('calls.emptyTitle')}
        emptyDescription={t('calls.emptyDescription')}
        columns={callColumns(t)}
        renderItems={(items) => (
          <DenseItems>
            {items.map((c) => (
              <CallRow key={c.id} c={c} datePattern={datePattern} />
            ))}
          </DenseItems>
        )}
      />
    </Stack>
  );
}

/** Who a meeting invites, each linking to their contact or lead page. */
export function Invitees({ invitees }: { invitees: Invitee[] }) {
  const { t } = useTranslation('crm');
  if (!invitees.length) return null;
  return (
    <Group gap={6} wrap="wrap" data-invitees={invitees.length}>
      <Text size="sm" c="dimmed">
        {t('meetings.with')}
      </Text>
      {invitees.map((i) => (
        <Anchor key={`${i.kind}:${i.id}`} component={Link} href={`/crm/${i.kind === 'lead' ? 'leads' : 'contacts'}/${i.id}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {i.name}
        </Anchor>
      ))}
    </Group>
  );
}

/** The agenda's columns on desktops. */
const meetingColumns = (t: TFunction): DenseColumn[] => [
  { label: t('meetings.fields.title'), width: 'minmax(0, 1.5fr)' },
  { label: t('columns.when'), width: 'minmax(9rem, 1fr)' },
  { label: t('meetings.fields.place'), width: 'minmax(0, 1fr)' },
  { label: t('meetings.fields.duration_minutes'), width: '5rem', right: true },
  { label: t('meetings.fields.invitees'), width: 'minmax(0, 1.5fr)' },
  { label: t('columns.link'), width: 'minmax(0, 1fr)' },
];

function MeetingRow({ m }: { m: Meeting }) {
  const { t } = useTranslation('crm');
  const link = m.link && (
    <Anchor href={m.link} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
      {m.link}
    </Anchor>
  );
  const when = `${m.date} ${m.time} (${m.time_zone})`;
  if (useDenseColumns())
    return (
      <DenseRow
        data-meeting-id={m.id}
        cells={[
          <Text key="title" size="sm" fw={600}>
            {m.title}
          </Text>,
          <Text key="when" size="sm">
            {when}
          </Text>,
          <Text key="place" size="sm" c={m.place ? undefined : 'dimmed'}>
            {m.place || '—'}
          </Text>,
          <Text key="minutes" size="sm">
            {t('calls.minutes', { count: m.duration_minutes })}
          </Text>,
          m.invitees.length ? (
            <Invitees key="invitees" invitees={m.invitees} />
          ) : (
            <Text key="invitees" size="sm" c="dimmed">
              —
            </Text>
          ),
          link || (
            <Text key="link" size="sm" c="dimmed">
              —
            </Text>
          ),
        ]}
      />
    );
  return (
    <Card withBorder padding="sm" role="listitem" data-meeting-id={m.id}>
      <Group justify="space-between" gap="xs">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {m.title}
        </Text>
        <Text size="sm">{when}</Text>
      </Group>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {[m.place, t('calls.minutes', { count: m.duration_minutes })].filter(Boolean).join(' · ')}
      </Text>
      <Invitees invitees={m.invitees} />
      {link}
    </Card>
  );
}

export function MeetingsView({ actor }: { actor: ActorRefFrom<typeof meetings.book> }) {
  const { t } = useTranslation('crm');
  const list = useSelector(actor, (s) => s.children.list);
  if (!list) return <PageLoader />;
  return (
    <Stack gap="md">
      <PageHeader title={t('meetings.title')}>
        <LinkButton href="/crm/meetings/new">{t('meetings.new')}</LinkButton>
      </PageHeader>
      <PagedList<Meeting>
        actor={list as unknown as PagedListActor<Meeting>}
        emptyTitle={t('meetings.emptyTitle')}
        emptyDescription={t('meetings.emptyDescription')}
        columns={meetingColumns(t)}
        renderItems={(items) => (
          <DenseItems>
            {items.map((m) => (
              <MeetingRow key={m.id} m={m} />
            ))}
          </DenseItems>
        )}
      />
    </Stack>
  );
}
