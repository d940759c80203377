/**
 * /member/support. With the company's ticketing on: the member's tickets (one status from the URL) with a
 * button to open one; /support/new, the new-ticket form (category, priority, subject, description, files
 * dropped or picked); /support/tickets/:id, one ticket — its details, the conversation with support (the
 * member's files downloadable), the trail of status changes, a reply form while replies are taken, and
 * Reopen (a resolved ticket) or Close. With ticketing off: the company's support e-mail and phone, the
 * messaging links, and a message to support through the mailbox.
 */
import { ActionIcon, Alert, Anchor, Badge, Button, Card, Group, Modal, Select, Stack, Text, Textarea, TextInput, Timeline, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useDropzone } from 'react-dropzone';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { newTicketMachine, ticketPageMachine, ticketsListMachine, TicketsSearch } from '../../machines/support/support.machine';
import {
  BODY_MAX,
  SUBJECT_MAX,
  SUPPORT_MAX_FILE_BYTES,
  SUPPORT_MAX_FILES,
  TICKET_CATEGORIES,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  supportFileProblem,
  ticketCan,
  type Ticket,
  type TicketAttachment,
  type TicketStatus,
  type TicketSummary,
} from '../../schemas/support.schema';
import { fileSize } from '../account/kyc.view';
import { ContactLinks } from '../components/contact-links';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { PageIntro } from '../components/page-intro';
import { PageLoader } from '../components/page-loader';
import { DenseItems, DenseRow, useDenseColumns, type DenseColumn } from '../components/paged-list/dense-list';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';
import { PhoneFilters } from '../components/paged-list/phone-filters';
import { LoadStates, type LoadActor } from '../home/load-states';
import { useDisplayFormat } from '../member/display-format';
import dropClasses from '../account/kyc.module.css';
import classes from './support.module.css';

export type SupportDownload = (url: string, name: string) => unknown;

export const STATUS_COLOUR: Record<TicketStatus, string> = { open: 'blue', awaiting_member: 'orange', answered: 'teal', resolved: 'green', closed: 'gray' };
const PRIORITY_COLOUR: Record<string, string> = { low: 'gray', normal: 'blue', high: 'orange', urgent: 'red' };

export function StatusBadge({ status }: { status: TicketStatus }) {
  const { t } = useTranslation('support');
  return (
    <Badge color={STATUS_COLOUR[status]} variant="light" data-ticket-status={status}>
      {t(`tickets.status.${status}`)}
    </Badge>
  );
}

// ── Ticketing off ───────────────────────────────────────────────────────────────────────────────────

export function SupportContactView({ email, phone, company }: { email: string; phone: string | null; company: string }) {
  const { t } = useTranslation('support');
  return (
    <Stack gap="md" maw={640} data-support-contact>
      <PageIntro title={t('contact.title')} description={t('contact.description', { company })} />
      <Card withBorder radius="md">
        <Stack gap="sm">
          <ContactLinks email={email} phone={phone} messaging />
        </Stack>
      </Card>
      <Card withBorder radius="md">
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('contact.mailTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('contact.mailText')}
          </Text>
          <Group>
            <Button component={Link} href="/mail/compose?to=company" variant="light" data-support-mail>
              {t('contact.mailAction')}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}

// ── The list ────────────────────────────────────────────────────────────────────────────────────────

/** The tickets' columns on desktops. */
const ticketColumns = (t: TFunction): DenseColumn[] => [
  { label: t('tickets.subjectLabel'), width: 'minmax(0, 3fr)' },
  { label: t('tickets.columns.number'), width: '4rem', right: true },
  { label: t('tickets.categoryLabel'), width: 'minmax(0, 1.2fr)' },
  { label: t('tickets.priorityLabel'), width: 'minmax(0, 1fr)' },
  { label: t('tickets.columns.updated'), width: 'minmax(10rem, 1.2fr)' },
  { label: t('tickets.filterStatus'), width: '11.5rem' },
];

function TicketRow({ ticket }: { ticket: TicketSummary }) {
  const { t } = useTranslation('support');
  const f = useDisplayFormat();
  const subject = (
    <Anchor component={Link} href={`/support/tickets/${ticket.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
      {ticket.subject}
    </Anchor>
  );
  if (useDenseColumns())
    return (
      <DenseRow
        data-ticket={ticket.id}
        cells={[
          subject,
          <Text key="number" size="sm">
            {ticket.id}
          </Text>,
          <Text key="category" size="sm">
            {t(`tickets.category.${ticket.category}`)}
          </Text>,
          <Text key="priority" size="sm">
            {t(`tickets.priority.${ticket.priority}`)}
          </Text>,
          <Text key="updated" size="sm">
            {f.date(ticket.updated_at)}
          </Text>,
          <StatusBadge key="status" status={ticket.status} />,
        ]}
      />
    );
  return (
    <Card withBorder radius="md" padding="sm" role="listitem" data-ticket={ticket.id}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        {subject}
        <StatusBadge status={ticket.status} />
      </Group>
      <Text size="xs" c="dimmed">
        {t('tickets.rowDetails', { number: ticket.id, category: t(`tickets.category.${ticket.category}`), priority: t(`tickets.priority.${ticket.priority}`), date: f.date(ticket.updated_at) })}
      </Text>
    </Card>
  );
}

export function TicketsView({ actor, search, onSearch }: { actor: ActorRefFrom<typeof ticketsListMachine>; search: TicketsSearch; onSearch: (s: TicketsSearch) => void }) {
  const { t } = useTranslation('support');
  return (
    <Stack gap="md" maw={1100} data-tickets-page>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <div>
          <PageIntro title={t('tickets.title')} description={t('tickets.description')} />
        </div>
        <Button component={Link} href="/support/new" data-new-ticket>
          {t('tickets.new')}
        </Button>
      </Group>
      <PhoneFilters count={Number(!!search.status)}>
        <Select
          label={t('tickets.filterStatus')}
          data={[{ value: '', label: t('tickets.allStatuses') }, ...TICKET_STATUSES.map((s) => ({ value: s, label: t(`tickets.status.${s}`) }))]}
          value={search.status ?? ''}
          onChange={(v) => onSearch(v ? { status: v as TicketStatus } : {})}
          allowDeselect={false}
          maw={260}
          comboboxProps={{ withinPortal: true }}
        />
      </PhoneFilters>
      <PagedList<TicketSummary>
        actor={actor as unknown as PagedListActor<TicketSummary>}
        emptyTitle={search.status ? t('tickets.noMatchTitle') : t('tickets.emptyTitle')}
        emptyDescription={t('tickets.emptyDescription')}
        emptyAction={
          <Button component={Link} href="/support/new" variant="light">
            {t('tickets.new')}
          </Button>
        }
        columns={ticketColumns(t)}
        renderItems={(items) => (
          <DenseItems>
            {items.map((ticket) => (
              <TicketRow key={ticket.id} ticket={ticket} />
            ))}
          </DenseItems>
        )}
      />
    </Stack>
  );
}

// ── Files ───────────────────────────────────────────────────────────────────────────────────────────

const TYPE_NAMES = ['JPG', 'PNG', 'WEBP', 'PDF'].join(', ');

function Attachments({ files, onChange, disabled, error }: { files: readonly File[]; onChange: (f: readonly File[]) => void; disabled: boolean; error?: string }) {
  const { t, i18n } = useTranslation(['support', 'validation', 'account']);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop: (accepted, rejected) => onChange([...files, ...accepted, ...rejected.map((r) => r.file)]),
    accept: { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'], 'image/webp': ['.webp'], 'application/pdf': ['.pdf'] },
    disabled,
    multiple: true,
  });
  return (
    <Stack gap={6}>
      <div {...getRootProps({ className: dropClasses.drop, role: 'button', 'aria-label': t('tickets.dropLabel') })} data-active={isDragActive || undefined} data-error={error ? true : undefined}>
        <input {...getInputProps({ 'aria-label': t('tickets.pick') })} data-ticket-files />
        <Stack gap={2} align="center">
          <Text size="sm" fw={500}>
            {t('tickets.drop')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('tickets.fileRules', { limit: SUPPORT_MAX_FILES, size: SUPPORT_MAX_FILE_BYTES / (1024 * 1024), types: TYPE_NAMES })}
          </Text>
        </Stack>
      </div>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
      {files.length > 0 && (
        <Stack gap={4} role="list" aria-label={t('tickets.chosen')}>
          {files.map((f, i) => {
            const problem = supportFileProblem(f);
            return (
              <Group key={`${f.name}-${i}`} gap="xs" wrap="nowrap" role="listitem" data-chosen-file={f.name}>
                <Text size="sm" truncate="end" style={{ flex: 1, minWidth: 0 }}>
                  {f.name}
                </Text>
                <Text size="xs" c={problem ? 'red' : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
                  {problem ? t(problem) : fileSize(f.size, i18n.language)}
                </Text>
                <ActionIcon variant="subtle" color="gray" disabled={disabled} onClick={() => onChange(files.filter((_, j) => j !== i))} aria-label={t('tickets.removeFile', { name: f.name })}>
                  <span aria-hidden>✕</span>
                </ActionIcon>
              </Group>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}

// ── New ticket ──────────────────────────────────────────────────────────────────────────────────────

/** The request trouble of a form: connection or server error (retry), or a refusal the server explained. */
function FormTrouble({ state, failure, bodyError, onRetry, onDismiss }: { state: string; failure: string | null; bodyError?: string; onRetry: () => void; onDismiss: () => void }) {
  const { t } = useTranslation('support');
  if (state === 'connectionError' || state === 'serverError')
    return <RequestError title={t(`tickets.errors.${state}`)} retryLabel={t('tickets.retry')} dismissLabel={t('tickets.dismiss')} onRetry={onRetry} onDismiss={onDismiss} />;
  if (state === 'validationError' && (bodyError || failure === 'rateLimited' || failure === 'refused'))
    return (
      <Alert color="yellow" role="alert" withCloseButton onClose={onDismiss} closeButtonLabel={t('tickets.dismiss')}>
        {bodyError ?? t(failure === 'rateLimited' ? 'tickets.errors.rateLimited' : 'tickets.errors.refused')}
      </Alert>
    );
  return null;
}

export function NewTicketView({ actor }: { actor: ActorRefFrom<typeof newTicketMachine> }) {
  const { t } = useTranslation(['support', 'validation']);
  const state = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { values, fieldErrors, failure } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);
  const change = (field: string, value: string | readonly File[]) => actor.send({ type: 'ticket.change', field, value } as never);
  if (state === 'forceLogout') return <PageLoader />;
  return (
    <Stack gap="md" maw={640} data-new-ticket-page>
      <Anchor component={Link} href="/support" size="sm">
        {t('tickets.back')}
      </Anchor>
      <PageIntro title={t('tickets.newTitle')} description={t('tickets.newDescription')} />
      <FormTrouble state={state} failure={failure} bodyError={error('_body')} onRetry={() => actor.send({ type: 'ticket.retry' })} onDismiss={() => actor.send({ type: 'ticket.dismiss' })} />
      <FormCard onSubmit={() => actor.send({ type: 'ticket.submit' })}>
        <Group grow wrap="wrap" align="flex-start">
          <Select
            label={t('tickets.categoryLabel')}
            placeholder={t('tickets.categoryPlaceholder')}
            data={TICKET_CATEGORIES.map((c) => ({ value: c, label: t(`tickets.category.${c}`) }))}
            value={(values.category as string) || null}
            onChange={(v) => change('category', v ?? '')}
            error={error('category')}
            disabled={busy}
            withAsterisk
            allowDeselect={false}
            miw={180}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('tickets.priorityLabel')}
            data={TICKET_PRIORITIES.map((p) => ({ value: p, label: t(`tickets.priority.${p}`) }))}
            value={(values.priority as string) || null}
            onChange={(v) => change('priority', v ?? '')}
            error={error('priority')}
            disabled={busy}
            withAsterisk
            allowDeselect={false}
            miw={180}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <TextInput
          label={t('tickets.subjectLabel')}
          value={values.subject as string}
          onChange={(e) => change('subject', e.currentTarget.value)}
          error={error('subject')}
          disabled={busy}
          maxLength={SUBJECT_MAX}
          withAsterisk
        />
        <Textarea
          label={t('tickets.descriptionLabel')}
          value={values.description as string}
          onChange={(e) => change('description', e.currentTarget.value)}
          error={error('description')}
          disabled={busy}
          maxLength={BODY_MAX}
          rows={5}
          withAsterisk
        />
        <Attachments files={values.attachments as readonly File[]} onChange={(f) => change('attachments', f)} disabled={busy} error={error('attachments')} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy}>
            {t('tickets.send')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

// ── One ticket ──────────────────────────────────────────────────────────────────────────────────────

type TicketPageActor = ActorRefFrom<typeof ticketPageMachine>;

function AttachmentLink({ a, download }: { a: TicketAttachment; download: SupportDownload }) {
  const { t, i18n } = useTranslation('support');
  return (
    <Group gap={6} wrap="nowrap">
      <Anchor component="button" type="button" size="sm" onClick={() => download(a.url, a.name)} aria-label={t('tickets.download', { name: a.name })} truncate="end">
        {a.name}
      </Anchor>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {fileSize(a.size, i18n.language)}
      </Text>
    </Group>
  );
}

function Conversation({ ticket, download }: { ticket: Ticket; download: SupportDownload }) {
  const { t } = useTranslation('support');
  const f = useDisplayFormat();
  return (
    <Stack gap="sm" component="section" aria-label={t('tickets.conversation')}>
      {ticket.messages.map((m) => (
        <Card key={m.id} withBorder radius="md" padding="sm" className={classes.message} data-author={m.author} data-message={m.id}>
          <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
            <Text size="sm" fw={600}>
              {t(m.author === 'member' ? 'tickets.you' : 'tickets.support')}
            </Text>
            <Text size="xs" c="dimmed">
              {f.date(m.created_at)}
            </Text>
          </Group>
          <Text size="sm" className={classes.body}>
            {m.body}
          </Text>
          {m.attachments.length > 0 && (
            <Stack gap={2} mt="xs">
              {m.attachments.map((a) => (
                <AttachmentLink key={a.id} a={a} download={download} />
              ))}
            </Stack>
          )}
        </Card>
      ))}
    </Stack>
  );
}

function Trail({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('support');
  const f = useDisplayFormat();
  return (
    <Stack gap="xs" component="section" aria-labelledby="ticket-trail">
      <Title order={2} size="h5" id="ticket-trail">
        {t('tickets.trail')}
      </Title>
      <Timeline bulletSize={12} lineWidth={2} active={ticket.events.length}>
        {ticket.events.map((e, i) => (
          <Timeline.Item key={i} title={<Text size="sm">{t(e.from ? 'tickets.changed' : 'tickets.opened_event', { to: t(`tickets.status.${e.to}`), by: t(e.actor === 'member' ? 'tickets.you' : 'tickets.support') })}</Text>} data-trail={e.to}>
            <Text size="xs" c="dimmed">
              {f.date(e.created_at)}
            </Text>
          </Timeline.Item>
        ))}
      </Timeline>
    </Stack>
  );
}

function ReplyForm({ actor }: { actor: TicketPageActor }) {
  const { t } = useTranslation(['support', 'validation']);
  const reply = useSelector(actor, (s) => s.children.reply)!;
  const state = useSelector(reply, (s) => s.value as string);
  const busy = useSelector(reply, (s) => s.hasTag('busy'));
  const { values, fieldErrors, failure } = useSelector(reply, (s) => s.context);
  const error = useFieldError(fieldErrors);
  const change = (field: string, value: string | readonly File[]) => reply.send({ type: 'reply.change', field, value } as never);
  return (
    <Stack gap="xs" component="section" aria-labelledby="ticket-reply">
      <Title order={2} size="h5" id="ticket-reply">
        {t('tickets.replyTitle')}
      </Title>
      <FormTrouble state={state} failure={failure} bodyError={error('_body')} onRetry={() => reply.send({ type: 'reply.retry' })} onDismiss={() => reply.send({ type: 'reply.dismiss' })} />
      <FormCard onSubmit={() => reply.send({ type: 'reply.submit' })}>
        <Textarea
          label={t('tickets.replyLabel')}
          value={values.body as string}
          onChange={(e) => change('body', e.currentTarget.value)}
          error={error('body')}
          disabled={busy}
          maxLength={BODY_MAX}
          rows={3}
          withAsterisk
        />
        <Attachments files={values.attachments as readonly File[]} onChange={(f) => change('attachments', f)} disabled={busy} error={error('attachments')} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy}>
            {t('tickets.sendReply')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

function StatusActions({ actor, ticket }: { actor: TicketPageActor; ticket: Ticket }) {
  const { t } = useTranslation('support');
  const status = useSelector(actor, (s) => s.children.status)!;
  const state = useSelector(status, (s) => s.value as string);
  const busy = useSelector(status, (s) => s.hasTag('busy'));
  const failure = useSelector(status, (s) => s.context.failure);
  const bodyKey = useSelector(status, (s) => s.context.fieldErrors._body);
  const [confirming, setConfirming] = useState(false);
  const act = (action: 'reopen' | 'close') => status.send({ type: 'status.save', values: { action } });
  return (
    <>
      <FormTrouble state={state} failure={failure} bodyError={bodyKey ? t(bodyKey) : undefined} onRetry={() => status.send({ type: 'status.retry' })} onDismiss={() => status.send({ type: 'status.dismiss' })} />
      <Group gap="xs" justify="flex-end">
        {ticketCan.reopen(ticket.status) && (
          <Button variant="light" onClick={() => act('reopen')} loading={busy} data-ticket-reopen>
            {t('tickets.reopen')}
          </Button>
        )}
        {ticketCan.close(ticket.status) && (
          <Button variant="default" color="red" onClick={() => setConfirming(true)} disabled={busy} data-ticket-close>
            {t('tickets.close')}
          </Button>
        )}
      </Group>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('tickets.closeTitle')} centered>
        <Stack gap="md">
          <Text size="sm">{t('tickets.closeText')}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('tickets.cancel')}
            </Button>
            <Button
              color="red"
              data-ticket-close-confirm
              onClick={() => {
                setConfirming(false);
                act('close');
              }}
            >
              {t('tickets.closeConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

export function TicketView({ actor, download }: { actor: TicketPageActor; download: SupportDownload }) {
  const { t } = useTranslation('support');
  const f = useDisplayFormat();
  const ticketActor = useSelector(actor, (s) => s.children.ticket);
  const notFound = useSelector(ticketActor, (s) => s?.value === 'error' && s.context.error?.status === 404);
  if (!ticketActor) return <PageLoader />;
  if (notFound)
    return (
      <Stack gap="sm" data-ticket-missing>
        <PageIntro title={t('tickets.notFoundTitle')} description={t('tickets.notFoundText')} />
        <Anchor component={Link} href="/support">
          {t('tickets.back')}
        </Anchor>
      </Stack>
    );
  return (
    <LoadStates actor={ticketActor as unknown as LoadActor<Ticket>} loadingLabel={t('tickets.loading')}>
      {(ticket) => (
        <Stack gap="md" maw={800} data-ticket-page={ticket.id}>
          <Anchor component={Link} href="/support" size="sm">
            {t('tickets.back')}
          </Anchor>
          <Stack gap={4}>
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {ticket.subject}
            </Title>
            <Group gap="xs" wrap="wrap">
              <StatusBadge status={ticket.status} />
              <Badge variant="outline" color="gray">
                {t(`tickets.category.${ticket.category}`)}
              </Badge>
              <Badge variant="outline" color={PRIORITY_COLOUR[ticket.priority]}>
                {t(`tickets.priority.${ticket.priority}`)}
              </Badge>
              <Text size="xs" c="dimmed">
                {t('tickets.number', { number: ticket.id })} · {t('tickets.openedOn', { date: f.date(ticket.created_at) })}
              </Text>
            </Group>
            <Text size="sm" c="dimmed" data-status-explain>
              {t(`tickets.explain.${ticket.status}`)}
            </Text>
          </Stack>
          <StatusActions actor={actor} ticket={ticket} />
          <Conversation ticket={ticket} download={download} />
          {ticketCan.reply(ticket.status) && <ReplyForm actor={actor} />}
          <Trail ticket={ticket} />
        </Stack>
      )}
    </LoadStates>
  );
}
