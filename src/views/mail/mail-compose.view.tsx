/**
 * /member/mail/compose: a new message — the recipient picked from a search of whom the member may write to
 * (the company, their sponsor and upline, their downline), a subject, the rich-text body and files. A
 * refusal names its field; a lost connection or a server error keeps everything typed with Try again.
 */
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { mailComposeMachine } from '../../machines/mail/mail.machine';
import { MAIL_SUBJECT_MAX, type MailRecipient } from '../../schemas/mail.schema';
import { useFieldError } from '../components/field-error';
import { FormCard } from '../components/form-card';
import { FormRequestStatus } from '../components/form-request-status';
import { PageIntro } from '../components/page-intro';
import { AttachmentPicker } from './attachment-picker';
import { EditorFallback } from './mail-conversation.view';
import { usePartyName } from './mail-list.view';

const MailEditor = lazy(() => import('./rich-text-editor'));

export type RecipientSearch = (keyword: string) => Promise<MailRecipient[]>;

export interface MailComposeViewProps {
  actor: ActorRefFrom<typeof mailComposeMachine>;
  searchRecipients: RecipientSearch;
}

/** Whom the member may write to, searched as they type (the choice keeps its label while the list changes). */
function RecipientPicker({ value, error, disabled, search, onChange }: { value: string; error?: string; disabled: boolean; search: RecipientSearch; onChange(v: string): void }) {
  const { t } = useTranslation('mail');
  const name = usePartyName();
  const [keyword, setKeyword] = useState('');
  const [found, setFound] = useState<MailRecipient[]>([]);
  const [chosen, setChosen] = useState<MailRecipient | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      search(keyword)
        .then((list) => live && (setFound(list), setFailed(false)))
        .catch(() => live && setFailed(true));
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [keyword, search]);
  const label = (r: MailRecipient) => (r.company ? t('company') : `${name(r)} (${r.username}) · ${t(`relation.${r.relation}`)}`);
  const options = useMemo(() => {
    const list = chosen && !found.some((r) => r.username === chosen.username) ? [chosen, ...found] : found;
    return list.map((r) => ({ value: r.username, label: label(r) }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [found, chosen, t]);
  return (
    <Select
      label={t('compose.to')}
      placeholder={t('compose.toPlaceholder')}
      searchable
      withAsterisk
      data={options}
      value={value || null}
      onChange={(v) => {
        setChosen([...found, ...(chosen ? [chosen] : [])].find((r) => r.username === v) ?? null);
        onChange(v ?? '');
      }}
      onSearchChange={setKeyword}
      filter={({ options: all }) => all}
      nothingFoundMessage={failed ? t('compose.recipientsFailed') : t('compose.noRecipients')}
      error={error}
      disabled={disabled}
      comboboxProps={{ withinPortal: true }}
      data-recipient-picker
    />
  );
}

export function MailComposeView({ actor, searchRecipients }: MailComposeViewProps) {
  const { t } = useTranslation('mail');
  const state = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { values, fieldErrors, failure } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);
  const change = (field: 'to' | 'subject' | 'body' | 'attachments', value: string | readonly File[]) => actor.send({ type: 'form.change', field, value });
  return (
    <Stack gap="md" maw={820}>
      <PageIntro title={t('compose.title')} description={t('compose.description')} />
      <FormRequestStatus
        ns="mail"
        prefix="send"
        state={state.replace(/OnRefresh$/, '')}
        failure={failure}
        fieldErrors={fieldErrors}
        onRetry={() => actor.send({ type: 'form.retry' })}
        onDismiss={() => actor.send({ type: 'form.dismiss' })}
      />
      <FormCard onSubmit={() => actor.send({ type: 'form.submit' })}>
        <RecipientPicker value={values.to as string} error={error('to')} disabled={busy} search={searchRecipients} onChange={(v) => change('to', v)} />
        <TextInput
          label={t('compose.subject')}
          withAsterisk
          value={values.subject as string}
          maxLength={MAIL_SUBJECT_MAX}
          onChange={(e) => change('subject', e.currentTarget.value)}
          error={error('subject')}
          disabled={busy}
          data-subject
        />
        <Suspense fallback={<EditorFallback />}>
          <MailEditor label={t('compose.body')} value={values.body as string} error={error('body')} onChange={(html) => change('body', html)} />
        </Suspense>
        <AttachmentPicker files={values.attachments as readonly File[]} error={error('attachments')} onChange={(f) => change('attachments', f)} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy} data-send>
            {t('compose.send')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}
