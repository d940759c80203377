/**
 * /member/mail/conversation/{thread}: the thread's messages oldest first (opening it marks it read: the
 * notifications badge drops) and, under them, the reply to the other side with the rich-text editor and
 * files. Loading, the errors of the load with retry, and a 401 are the form's load statuses; a failed
 * reply keeps what was typed.
 */
import { Anchor, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { mailConversationMachine } from '../../machines/mail/mail.machine';
import { useFieldError } from '../components/field-error';
import { FormCard } from '../components/form-card';
import { formLoadScreen, FormRequestStatus } from '../components/form-request-status';
import { AttachmentPicker } from './attachment-picker';
import { usePartyName } from './mail-list.view';
import { MailMessageCard, type MailDownload } from './mail-message';

const MailEditor = lazy(() => import('./rich-text-editor'));

export interface MailConversationViewProps {
  actor: ActorRefFrom<typeof mailConversationMachine>;
  datePattern: string | null;
  download: MailDownload;
  /** Called once the conversation is open (and marked read). */
  onOpened(): void;
}

export function EditorFallback() {
  return (
    <Group justify="center" p="md">
      <Loader size="sm" />
    </Group>
  );
}

export function MailConversationView({ actor, datePattern, download, onOpened }: MailConversationViewProps) {
  const { t } = useTranslation('mail');
  const name = usePartyName();
  const state = useSelector(actor, (s) => s.value as string);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const { loaded, result, values, fieldErrors, failure } = useSelector(actor, (s) => s.context);
  const error = useFieldError(fieldErrors);
  const opened = !!loaded;
  useEffect(() => {
    if (opened) onOpened();
  }, [opened, onOpened]);

  const loading = formLoadScreen(state, loaded, () => actor.send({ type: 'form.retry' }));
  if (loading) {
    if (state === 'loadError') {
      return (
        <Stack>
          {loading}
          <Anchor component={Link} href="~/member/mail/inbox">
            {t('conversation.back')}
          </Anchor>
        </Stack>
      );
    }
    return loading;
  }
  const conversation = result ?? loaded!;
  const files = values.attachments as readonly File[];
  return (
    <Stack gap="md" maw={820}>
      <Anchor component={Link} href="~/member/mail/inbox" size="sm">
        ← {t('conversation.back')}
      </Anchor>
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {conversation.subject}
      </Title>
      <Text size="sm" c="dimmed">
        {t('conversation.with', { name: name(conversation.reply_to) })}
      </Text>
      <Stack gap="sm" component="section" aria-label={t('conversation.messages')}>
        {conversation.messages.map((m) => (
          <MailMessageCard key={m.id} message={m} datePattern={datePattern} download={download} />
        ))}
      </Stack>
      <Title order={2} size="h4">
        {t('conversation.replyTitle', { name: name(conversation.reply_to) })}
      </Title>
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
        <Suspense fallback={<EditorFallback />}>
          <MailEditor label={t('reply.body')} value={values.body as string} error={error('body')} onChange={(html) => actor.send({ type: 'form.change', field: 'body', value: html })} />
        </Suspense>
        <AttachmentPicker files={files} error={error('attachments')} onChange={(f) => actor.send({ type: 'form.change', field: 'attachments', value: f })} />
        <Group justify="flex-end">
          <Button type="submit" loading={busy} disabled={busy} data-send-reply>
            {t('reply.send')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}
