/**
 * /member/crm/leads: the member's leads as a list with a search, status, source and date filter bar (the
 * filters live in the URL: Back undoes one), newest or oldest first, endless paging and a CSV export.
 * /member/crm/leads/{id}: the lead with its
 * details, the timeline of notes, a note form, edit and delete (with undo).
 */
import '@mantine/core/styles/SegmentedControl.css';
import { Anchor, Badge, Button, Card, Group, Modal, SegmentedControl, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link, useLocation } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { leadPageMachine, leads } from '../../machines/crm/leads.machine';
import { formatDay } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import { LEAD_SOURCES, LEAD_STATUSES, type Lead, type LeadFilters, type TimelineEntry } from '../../schemas/crm.schema';
import type { Currency } from '../../schemas/common.schema';
import { EmptyState } from '../components/empty-state';
import { useDisplayFormat } from '../member/display-format';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { PageLoader } from '../components/page-loader';
import { DenseItems, DenseRow, useDenseColumns, type DenseColumn } from '../components/paged-list/dense-list';
import { ChoiceFilter, CrmListPage } from './crm-list-page.view';

export const LEADS = '/crm/leads';

/** A calendar day (yyyy-MM-dd) in the member's format: read at local noon, so no time zone moves it to another day. */
export const calendarDay = (day: string, pattern: string | null) => formatDay(`${day}T12:00:00`, pattern);

export const STATUS_COLOURS: Record<string, string> = { new: 'blue', contacted: 'cyan', qualified: 'violet', proposal: 'orange', won: 'green', lost: 'gray' };

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation('crm');
  return (
    <Badge color={STATUS_COLOURS[status] ?? 'gray'} variant="light" data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}

/** List and board: two views of the same leads. */
export function LeadViews({ current }: { current: 'list' | 'board' }) {
  const { t } = useTranslation('crm');
  const [, navigate] = useLocation();
  return (
    <SegmentedControl
      aria-label={t('leads.views')}
      value={current}
      onChange={(v) => navigate(v === 'board' ? `${LEADS}/board` : LEADS)}
      data={[
        { value: 'list', label: t('leads.listView') },
        { value: 'board', label: t('leads.boardView') },
      ]}
    />
  );
}

function NewLeadButton() {
  const { t } = useTranslation('crm');
  return (
    <Button component={Link} href={`${LEADS}/new`}>
      {t('leads.new')}
    </Button>
  );
}

/** The leads' columns on desktops: name, company, source, status, next follow-up, estimated value. */
const leadColumns = (t: TFunction): DenseColumn[] => [
  { label: t('contacts.fields.name'), width: 'minmax(0, 2fr)' },
  { label: t('contacts.fields.company'), width: 'minmax(0, 1.5fr)' },
  { label: t('leads.source'), width: 'minmax(0, 1fr)' },
  { label: t('leads.status'), width: '7.5rem' },
  { label: t('leads.followUp'), width: 'minmax(6rem, 1fr)' },
  { label: t('leads.value'), width: 'minmax(6rem, 1fr)', right: true },
];

function LeadRow({ lead, currency, datePattern }: { lead: Lead; currency: Currency | null; datePattern: string | null }) {
  const { t } = useTranslation('crm');
  const name = (
    <Anchor component={Link} href={`${LEADS}/${lead.id}`} fw={600} aria-label={t('leads.open', { name: lead.name })} style={{ overflowWrap: 'anywhere' }}>
      {lead.name}
    </Anchor>
  );
  if (useDenseColumns())
    return (
      <DenseRow
        data-lead-id={lead.id}
        cells={[
          name,
          <Text key="company" size="sm">
            {lead.company || '—'}
          </Text>,
          <Text key="source" size="sm">
            {t(`source.${lead.source}`)}
          </Text>,
          <StatusBadge key="status" status={lead.status} />,
          <Text key="follow-up" size="sm" c={lead.next_follow_up ? undefined : 'dimmed'}>
            {lead.next_follow_up ? calendarDay(lead.next_follow_up, datePattern) : t('leads.noFollowUp')}
          </Text>,
          <Text key="value" size="sm" fw={600} data-amount>
            {formatMoney(lead.estimated_value, currency)}
          </Text>,
        ]}
      />
    );
  return (
    <Card withBorder radius="md" padding="sm" role="listitem" data-lead-id={lead.id}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          {name}
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {[lead.company, t(`source.${lead.source}`)].filter(Boolean).join(' · ')}
          </Text>
        </Stack>
        <Stack gap={2} align="flex-end">
          <StatusBadge status={lead.status} />
          <Text size="sm" fw={500}>
            {formatMoney(lead.estimated_value, currency)}
          </Text>
          <Text size="xs" c="dimmed">
            {lead.next_follow_up ? `${t('leads.followUp')}: ${calendarDay(lead.next_follow_up, datePattern)}` : t('leads.noFollowUp')}
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

export interface LeadsListViewProps {
  actor: ActorRefFrom<typeof leads.list>;
  filters: LeadFilters;
  onFilters: (f: LeadFilters) => void;
  onDownload: () => void;
  currency: Currency | null;
  datePattern: string | null;
}

export function LeadsListView({ actor, filters, onFilters, onDownload, currency, datePattern }: LeadsListViewProps) {
  const { t } = useTranslation('crm');
  return (
    <CrmListPage<LeadFilters, Lead>
      title={t('leads.title')}
      actions={<LeadViews current="list" />}
      newButton={<NewLeadButton />}
      filters={filters}
      onFilters={onFilters}
      search={{ label: t('leads.search'), placeholder: t('leads.searchPlaceholder') }}
      choices={(set) => [
        <ChoiceFilter
          key="status"
          label={t('leads.status')}
          anyLabel={t('leads.anyStatus')}
          options={LEAD_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={filters.status}
          onChange={(v) => set({ status: v as LeadFilters['status'] })}
        />,
        <ChoiceFilter
          key="source"
          label={t('leads.source')}
          anyLabel={t('leads.anySource')}
          options={LEAD_SOURCES.map((s) => ({ value: s, label: t(`source.${s}`) }))}
          value={filters.source}
          onChange={(v) => set({ source: v as LeadFilters['source'] })}
        />,
      ]}
      onDownload={onDownload}
      actor={actor}
      empty={{ title: t('leads.emptyTitle'), noMatchTitle: t('leads.noMatchTitle'), description: t('leads.emptyDescription') }}
      columns={leadColumns(t)}
      renderItems={(items) => (
        <DenseItems>
          {items.map((l) => (
            <LeadRow key={l.id} lead={l} currency={currency} datePattern={datePattern} />
          ))}
        </DenseItems>
      )}
    />
  );
}

// ── The lead's page ─────────────────────────────────────────────────────────────────────────────────

type LeadPageActor = ActorRefFrom<typeof leadPageMachine>;
/** A record page with a timeline (lead or contact): its `detail`, `note` and `remove` children. */
export type RecordPageActor = LeadPageActor;

export function DeleteDialogs({ actor, area = 'leads' }: { actor: RecordPageActor; area?: string }) {
  const { t } = useTranslation('crm');
  const remove = useSelector(actor, (s) => s.children.remove);
  const state = useSelector(remove, (s) => (s ? (s.value as string) : 'idle'));
  const send = (type: 'delete.confirm' | 'delete.cancel' | 'delete.retry' | 'delete.undo' | 'delete.dismiss') => actor.send({ type });
  const problem =
    state === 'connectionError' || state === 'serverError'
      ? { title: t(`leads.errors.${state}`), retry: 'delete.retry' as const, cancel: 'delete.cancel' as const }
      : state === 'refused'
        ? { title: t('leads.errors.refused'), retry: null, cancel: 'delete.dismiss' as const }
        : null;
  return (
    <>
      <Modal opened={state === 'confirming' || state === 'deleting'} onClose={() => send('delete.cancel')} title={t(`${area}.confirmTitle`)} centered>
        <Stack gap="md">
          <Text size="sm">{t(`${area}.confirmText`)}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => send('delete.cancel')} disabled={state === 'deleting'}>
              {t('leads.cancel')}
            </Button>
            <Button color="red" onClick={() => send('delete.confirm')} loading={state === 'deleting'}>
              {t(`${area}.confirmDelete`)}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {problem && (
        <RequestError
          title={problem.title}
          retryLabel={t('leads.retry')}
          dismissLabel={t('leads.dismiss')}
          onRetry={problem.retry ? () => send(problem.retry!) : undefined}
          onDismiss={() => send(problem.cancel)}
        />
      )}
    </>
  );
}

export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children || '—'}
      </Text>
    </div>
  );
}

export function NoteForm({ actor }: { actor: RecordPageActor }) {
  const { t } = useTranslation('crm');
  const form = useSelector(actor, (s) => s.children.note);
  const ctx = useSelector(form, (s) => s?.context);
  const state = useSelector(form, (s) => (s ? (s.value as string) : 'editing'));
  const busy = useSelector(form, (s) => !!s?.hasTag('busy'));
  const error = useFieldError(ctx?.fieldErrors);
  if (!form || !ctx) return null;
  return (
    <FormCard onSubmit={() => form.send({ type: 'form.submit' })}>
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`leads.errors.${state}`)}
          retryLabel={t('leads.retry')}
          dismissLabel={t('leads.dismiss')}
          onRetry={() => form.send({ type: 'form.retry' })}
          onDismiss={() => form.send({ type: 'form.dismiss' })}
        />
      )}
      <Textarea
        label={t('leads.note')}
        rows={3}
        value={(ctx.values as { body: string }).body}
        error={error('body')}
        disabled={busy}
        onChange={(e: ChangeEvent<HTMLTextAreaElement>) => form.send({ type: 'form.change', field: 'body', value: e.currentTarget.value })}
      />
      <Group justify="flex-end">
        <Button type="submit" loading={busy} disabled={busy} variant="light">
          {t('leads.addNote')}
        </Button>
      </Group>
    </FormCard>
  );
}

/** A record's timeline: notes, calls and meetings as text; a contact's sales link to their page. */
export function Timeline({ items, datePattern }: { items: TimelineEntry[]; datePattern: string | null }) {
  const { t } = useTranslation('crm');
  const { money } = useDisplayFormat();
  if (!items.length) return <Text size="sm" c="dimmed">{t('leads.timelineEmpty')}</Text>;
  return (
    <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('leads.timeline')}>
      {items.map((e) => (
        <Card key={`${e.kind}-${e.id}`} withBorder padding="sm" component="li" data-timeline-kind={e.kind}>
          <Group justify="space-between" gap="xs">
            <Badge variant="outline" size="sm">
              {t(`leads.kind.${e.kind}`)}
            </Badge>
            <Text size="xs" c="dimmed">
              {formatDay(e.at, datePattern)}
            </Text>
          </Group>
          {e.kind === 'sale' ? (
            <Anchor component={Link} href={`/crm/sales/${e.id}`} size="sm" mt={4} display="block" data-timeline-sale={e.id}>
              {t('leads.saleEntry', { number: e.text, total: money(e.amount ?? '0') })}
            </Anchor>
          ) : (
            <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {e.text}
            </Text>
          )}
        </Card>
      ))}
    </Stack>
  );
}

/**
 * The member signup (/member/signup) prefilled with a recruit lead's name (first word, then the rest), e-mail
 * and phone.
 */
export function recruitSignupLink(lead: Pick<Lead, 'name' | 'email' | 'phone'>): string {
  const [first, ...rest] = lead.name.trim().split(/\s+/);
  const q = new URLSearchParams();
  if (first) q.set('first_name', first);
  if (rest.length) q.set('last_name', rest.join(' '));
  if (lead.email) q.set('email', lead.email);
  if (lead.phone) q.set('mobile', lead.phone);
  return `/signup?${q.toString()}`;
}

export function LeadPageView({ actor, currency, datePattern }: { actor: LeadPageActor; currency: Currency | null; datePattern: string | null }) {
  const { t } = useTranslation('crm');
  const detail = useSelector(actor, (s) => s.children.detail);
  const state = useSelector(detail, (s) => (s ? (s.value as string) : 'loading'));
  const data = useSelector(detail, (s) => s?.context.data ?? null);
  const error = useSelector(detail, (s) => s?.context.error ?? null);
  const busy = useSelector(actor, (s) => !!s.children.remove?.getSnapshot().hasTag('busy'));
  const convert = useSelector(actor, (s) => s.children.convert);
  const converting = useSelector(convert, (s) => !!s?.hasTag('busy'));
  const back = (
    <Button component={Link} href={LEADS} variant="subtle" px={0}>
      {t('leads.back')}
    </Button>
  );
  if (state === 'error' && error?.kind === 'notFound')
    return (
      <div data-lead-status="notFound">
        <EmptyState title={t('leads.notFoundTitle')} description={t('leads.notFoundDescription')} action={back} />
      </div>
    );
  if ((state === 'connectionError' || state === 'error') && !data)
    return <ErrorView kind={state === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'detail.retry' })} />;
  if (!data) return <PageLoader />;
  const { lead, timeline } = data;
  return (
    <Stack gap="md" maw={900}>
      <div>{back}</div>
      <DeleteDialogs actor={actor} />
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {lead.name}
          </Title>
          <StatusBadge status={lead.status} />
        </Group>
        <Group gap="xs">
          {lead.contact_id ? (
            <Button component={Link} href={`/crm/contacts/${lead.contact_id}`} variant="default">
              {t('leads.openContact')}
            </Button>
          ) : (
            <Button variant="default" loading={converting} onClick={() => actor.getSnapshot().children.convert?.send({ type: 'form.submit' })}>
              {t('leads.convert')}
            </Button>
          )}
          {lead.interest === 'recruit' && (
            <Button component={Link} href={recruitSignupLink(lead)} variant="default" data-register-recruit>
              {t('leads.registerMember')}
            </Button>
          )}
          <Button component={Link} href={`${LEADS}/edit/${lead.id}`} variant="light">
            {t('leads.edit')}
          </Button>
          <Button color="red" variant="subtle" disabled={busy} onClick={() => actor.send({ type: 'delete.request', id: lead.id })}>
            {t('leads.delete')}
          </Button>
        </Group>
      </Group>
      <Card withBorder radius="md">
        <Title order={2} size="h4" mb="sm">
          {t('leads.details')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          <Detail label={t('leads.fields.company')}>{lead.company}</Detail>
          <Detail label={t('leads.fields.email')}>{lead.email}</Detail>
          <Detail label={t('leads.fields.phone')}>{lead.phone}</Detail>
          <Detail label={t('leads.fields.source')}>{t(`source.${lead.source}`)}</Detail>
          <Detail label={t('leads.fields.interest')}>{t(`interest.${lead.interest}`)}</Detail>
          <Detail label={t('leads.fields.estimated_value')}>{formatMoney(lead.estimated_value, currency)}</Detail>
          <Detail label={t('leads.fields.next_follow_up')}>{lead.next_follow_up ? calendarDay(lead.next_follow_up, datePattern) : t('leads.noFollowUp')}</Detail>
          <Detail label={t('leads.created')}>{formatDay(lead.created_at, datePattern)}</Detail>
          {lead.status === 'lost' && <Detail label={t('leads.lostReason')}>{lead.lost_reason}</Detail>}
        </SimpleGrid>
      </Card>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('leads.timeline')}
        </Title>
        <NoteForm actor={actor} />
        <Timeline items={timeline} datePattern={datePattern} />
      </Stack>
    </Stack>
  );
}
