/**
 * /member/kyc: the member's identity verification — the status, the documents sent with their decisions
 * (a rejection's reason), and, while the member may send documents (not submitted, or rejected), the form:
 * category, the document's number (required and labelled as the company says), files dropped or picked (up to
 * attachments_limit; JPG, PNG or PDF up to 10 MB), each previewed and removable before sending. A pending
 * document can be deleted.
 */
import { ActionIcon, Alert, Anchor, Badge, Button, Card, Group, Image, Modal, Select, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useDropzone } from 'react-dropzone';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { kycPageMachine } from '../../machines/account/kyc.machine';
import { KYC_FILE_TYPES, KYC_MAX_FILE_BYTES, kycCanSubmit, kycFileProblem, type KycAttachment, type KycDetails, type KycDocument, type KycStatus } from '../../schemas/kyc.schema';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { useObjectUrl } from '../components/object-url';
import { PageLoader } from '../components/page-loader';
import { useListFormat } from '../components/paged-list/list-format';
import classes from './kyc.module.css';

type PageActor = ActorRefFrom<typeof kycPageMachine>;
export type KycDownload = (url: string, name: string) => unknown;

const STATUS_COLOUR: Record<KycStatus | KycDocument['status'], string> = { not_submitted: 'gray', pending: 'yellow', approved: 'teal', rejected: 'red' };

/** "2.4 MB", "830 KB" */
export function fileSize(bytes: number, language: string): string {
  const fmt = (n: number) => new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(n);
  if (bytes >= 1024 * 1024) return `${fmt(bytes / (1024 * 1024))} MB`;
  return `${fmt(Math.max(1, Math.round(bytes / 1024)))} KB`;
}

function PdfIcon() {
  return (
    <ThemeIcon variant="light" color="red" size={48} radius="sm" aria-hidden>
      <svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6">
        <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
        <path d="M14 3v5h5" />
        <text x="7" y="17" fontSize="5.5" fill="currentColor" stroke="none" fontWeight="700">
          PDF
        </text>
      </svg>
    </ThemeIcon>
  );
}

/** One chosen file: a thumbnail (images) or the PDF icon, its name and size, what is wrong with it, and Remove. */
function ChosenFile({ file, onRemove, disabled }: { file: File; onRemove: () => void; disabled: boolean }) {
  const { t, i18n } = useTranslation(['account', 'validation']);
  const isImage = file.type === 'image/png' || file.type === 'image/jpeg';
  const url = useObjectUrl(isImage ? file : null);
  const problem = kycFileProblem(file);
  return (
    <Card withBorder padding="xs" radius="sm" data-kyc-file={file.name} data-kyc-file-problem={problem ?? undefined}>
      <Group gap="sm" wrap="nowrap" align="center">
        {url ? <Image src={url} alt={t('kyc.preview', { name: file.name })} w={48} h={48} radius="sm" fit="cover" /> : <PdfIcon />}
        <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={500} truncate="end">
            {file.name}
          </Text>
          <Text size="xs" c="dimmed">
            {fileSize(file.size, i18n.language)}
          </Text>
          {problem && (
            <Text size="xs" c="red" role="alert">
              {t(problem)}
            </Text>
          )}
        </Stack>
        <ActionIcon variant="subtle" color="gray" onClick={onRemove} disabled={disabled} aria-label={t('kyc.removeFile', { name: file.name })}>
          <span aria-hidden>✕</span>
        </ActionIcon>
      </Group>
    </Card>
  );
}

/** The drop area (react-dropzone, drawn with Mantine): every file dropped or picked goes to the form, where the schema judges it. */
function DropArea({ onFiles, disabled, limit, error }: { onFiles: (files: File[]) => void; disabled: boolean; limit: number; error?: string }) {
  const { t } = useTranslation('account');
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop: (accepted, rejected) => onFiles([...accepted, ...rejected.map((r) => r.file)]),
    // The picker offers the allowed types first; anything dropped anyway is shown with its problem.
    accept: { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'], 'application/pdf': ['.pdf'] },
    disabled,
    multiple: true,
  });
  return (
    <Stack gap={4}>
      <div
        {...getRootProps({ className: classes.drop, role: 'button', 'aria-label': t('kyc.dropLabel') })}
        data-active={isDragActive || undefined}
        data-error={error ? true : undefined}
        data-kyc-drop
      >
        <input {...getInputProps({ 'aria-label': t('kyc.pick') })} data-kyc-input />
        <Stack gap={4} align="center">
          <Text fw={500}>{t(isDragActive ? 'kyc.dropNow' : 'kyc.drop')}</Text>
          <Text size="xs" c="dimmed">
            {t('kyc.rules', { limit, size: Math.round(KYC_MAX_FILE_BYTES / (1024 * 1024)), types: KYC_FILE_TYPES.map((x) => x.split('/')[1].toUpperCase().replace('JPEG', 'JPG')).join(', ') })}
          </Text>
        </Stack>
      </div>
      {error && (
        <Text size="sm" c="red" role="alert" data-kyc-documents-error>
          {error}
        </Text>
      )}
    </Stack>
  );
}

function KycForm({ actor, details }: { actor: PageActor; details: KycDetails }) {
  const { t } = useTranslation(['account', 'validation']);
  const form = useSelector(actor, (s) => s.children.form)!;
  const state = useSelector(form, (s) => s.value as string);
  const busy = useSelector(form, (s) => s.hasTag('busy'));
  const { values, fieldErrors, failure } = useSelector(form, (s) => s.context);
  const error = useFieldError(fieldErrors);
  const files = values.documents as readonly File[];
  const change = (field: 'category' | 'id_number' | 'documents', value: string | readonly File[]) => form.send({ type: 'kyc.change', field, value });
  const refused = state === 'validationError' && (fieldErrors._body || !Object.keys(fieldErrors).length);

  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t(details.status === 'rejected' ? 'kyc.resubmitTitle' : 'kyc.formTitle')}
      </Title>
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`kyc.errors.${state}`)}
          retryLabel={t('kyc.retry')}
          dismissLabel={t('kyc.dismiss')}
          onRetry={() => form.send({ type: 'kyc.retry' })}
          onDismiss={() => form.send({ type: 'kyc.dismiss' })}
        />
      )}
      {refused && (
        <Alert color="yellow" role="alert">
          {fieldErrors._body ? error('_body') : t(failure === 'rateLimited' ? 'kyc.errors.rateLimited' : 'kyc.errors.refused')}
        </Alert>
      )}
      <FormCard onSubmit={() => form.send({ type: 'kyc.submit' })}>
        <Select
          label={t('kyc.category')}
          placeholder={t('kyc.categoryPlaceholder')}
          data={details.categories.map((c) => ({ value: String(c.id), label: c.name }))}
          value={(values.category as string) || null}
          onChange={(v) => change('category', v ?? '')}
          error={error('category')}
          disabled={busy}
          withAsterisk
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label={details.id_number_required ? details.id_number_label : `${details.id_number_label} ${t('kyc.optional')}`}
          withAsterisk={details.id_number_required}
          value={(values.id_number as string) ?? ''}
          onChange={(e) => change('id_number', e.currentTarget.value)}
          error={error('id_number')}
          disabled={busy}
          autoComplete="off"
        />
        <DropArea onFiles={(added) => change('documents', [...files, ...added])} disabled={busy} limit={details.attachments_limit} error={error('documents')} />
        {files.length > 0 && (
          <Stack gap="xs" aria-label={t('kyc.chosen')} role="list">
            <Text size="xs" c={files.length > details.attachments_limit ? 'red' : 'dimmed'}>
              {t('kyc.count', { count: files.length, limit: details.attachments_limit })}
            </Text>
            {files.map((f, i) => (
              <div role="listitem" key={`${f.name}-${f.size}-${f.lastModified}-${i}`}>
                <ChosenFile file={f} disabled={busy} onRemove={() => change('documents', files.filter((_, j) => j !== i))} />
              </div>
            ))}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy}>
            {t('kyc.submit')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}

function Attachment({ a, download }: { a: KycAttachment; download: KycDownload }) {
  const { i18n, t } = useTranslation('account');
  return (
    <Group gap={6} wrap="nowrap">
      <Anchor component="button" type="button" size="sm" onClick={() => download(a.url, a.name)} aria-label={t('kyc.download', { name: a.name })} truncate="end">
        {a.name}
      </Anchor>
      <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {fileSize(a.size, i18n.language)}
      </Text>
    </Group>
  );
}

function HistoryItem({ doc, onDelete, download, busy }: { doc: KycDocument; onDelete: () => void; download: KycDownload; busy: boolean }) {
  const { t } = useTranslation('account');
  const f = useListFormat();
  return (
    <Card withBorder radius="md" padding="sm" data-kyc-document={doc.id} data-kyc-status={doc.status}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>{doc.category_name}</Text>
          <Badge color={STATUS_COLOUR[doc.status]} variant="light">
            {t(`kyc.status.${doc.status}`)}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {t('kyc.sentOn', { date: f.date(doc.created_at) })}
          {doc.decided_at ? ` · ${t('kyc.decidedOn', { date: f.date(doc.decided_at) })}` : ''}
        </Text>
        {doc.id_number && (
          <Text size="sm">
            {t('kyc.number')}: {doc.id_number}
          </Text>
        )}
        {doc.status === 'rejected' && doc.reason && (
          <Alert color="red" variant="light" p="xs" title={t('kyc.reason')} data-kyc-reason>
            {doc.reason}
          </Alert>
        )}
        {doc.documents.length > 0 && (
          <Stack gap={2}>
            {doc.documents.map((a) => (
              <Attachment key={a.id} a={a} download={download} />
            ))}
          </Stack>
        )}
        {doc.status === 'pending' && (
          <Group justify="flex-end">
            <Button size="xs" variant="light" color="red" onClick={onDelete} disabled={busy}>
              {t('kyc.delete')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function DeleteDialogs({ actor }: { actor: PageActor }) {
  const { t } = useTranslation('account');
  const remove = useSelector(actor, (s) => s.children.remove);
  const state = useSelector(remove, (s) => (s ? (s.value as string) : 'idle'));
  const send = (type: 'delete.confirm' | 'delete.cancel' | 'delete.retry' | 'delete.dismiss') => actor.send({ type });
  const problem =
    state === 'connectionError' || state === 'serverError'
      ? { title: t(`kyc.errors.${state}`), retry: 'delete.retry' as const, cancel: 'delete.cancel' as const }
      : state === 'refused'
        ? { title: t('kyc.errors.deleteRefused'), retry: null, cancel: 'delete.dismiss' as const }
        : null;
  return (
    <>
      <Modal opened={state === 'confirming' || state === 'deleting'} onClose={() => send('delete.cancel')} title={t('kyc.confirmTitle')} centered>
        <Stack gap="md">
          <Text size="sm">{t('kyc.confirmText')}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => send('delete.cancel')} disabled={state === 'deleting'}>
              {t('kyc.cancel')}
            </Button>
            <Button color="red" onClick={() => send('delete.confirm')} loading={state === 'deleting'}>
              {t('kyc.confirmDelete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {problem && (
        <RequestError title={problem.title} retryLabel={t('kyc.retry')} dismissLabel={t('kyc.dismiss')} onRetry={problem.retry ? () => send(problem.retry!) : undefined} onDismiss={() => send(problem.cancel)} />
      )}
    </>
  );
}

export function KycView({ actor, download }: { actor: PageActor; download: KycDownload }) {
  const { t } = useTranslation('account');
  const form = useSelector(actor, (s) => s.children.form);
  const state = useSelector(form, (s) => (s ? (s.value as string) : 'loading'));
  const details = useSelector(form, (s) => s?.context.loaded ?? null);
  const removing = useSelector(actor, (s) => s.children.remove?.getSnapshot().hasTag('busy') ?? false);

  if (!form) return <PageLoader />;
  if (state === 'loadConnectionError' || state === 'loadError')
    return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => form.send({ type: 'kyc.retry' })} />;
  // After a submission the details load again; what was loaded stays in view meanwhile.
  const d = details;
  if (!d || state === 'forceLogout') return <PageLoader />;
  const latestRejected = d.status === 'rejected' ? d.history.find((h) => h.status === 'rejected') : undefined;

  return (
    <Stack gap="md" maw={640} data-kyc-page>
      <Title order={1} size="h2">
        {t('kyc.title')}
      </Title>
      <Card withBorder radius="md">
        <Stack gap="xs">
          <Group gap="sm" wrap="wrap">
            <Text fw={500}>{t('kyc.statusLabel')}</Text>
            <Badge size="lg" color={STATUS_COLOUR[d.status]} data-kyc-current={d.status}>
              {t(`kyc.status.${d.status}`)}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            {t(`kyc.explain.${d.status}`)}
          </Text>
          {latestRejected?.reason && (
            <Alert color="red" variant="light" title={t('kyc.reason')} data-kyc-latest-reason>
              {latestRejected.reason}
            </Alert>
          )}
        </Stack>
      </Card>
      {kycCanSubmit(d.status) && <KycForm actor={actor} details={d} />}
      <Title order={2} size="h4">
        {t('kyc.history')}
      </Title>
      {d.history.length === 0 ? (
        <Text size="sm" c="dimmed" data-kyc-empty>
          {t('kyc.noHistory')}
        </Text>
      ) : (
        <Stack gap="sm">
          {d.history.map((doc) => (
            <HistoryItem key={doc.id} doc={doc} download={download} busy={removing} onDelete={() => actor.send({ type: 'delete.request', id: doc.id })} />
          ))}
        </Stack>
      )}
      <DeleteDialogs actor={actor} />
    </Stack>
  );
}
