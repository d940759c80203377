/** /member/mail/sent-item/{id}: one message the member sent, with a link to its whole conversation. */
import { Anchor, Stack, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { mailSentItemMachine } from '../../machines/mail/mail.machine';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { MailMessageCard, type MailDownload } from './mail-message';

export interface MailSentItemViewProps {
  actor: ActorRefFrom<typeof mailSentItemMachine>;
  datePattern: string | null;
  download: MailDownload;
}

export function MailSentItemView({ actor, datePattern, download }: MailSentItemViewProps) {
  const { t } = useTranslation('mail');
  const state = useSelector(actor, (s) => s.value as string);
  const data = useSelector(actor, (s) => s.context.data);
  if (state === 'connectionError' || state === 'error')
    return (
      <Stack>
        <ErrorView kind={state === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'load.retry' })} />
        <Anchor component={Link} href="~/member/mail/sent">
          {t('sentItem.back')}
        </Anchor>
      </Stack>
    );
  if (!data || state !== 'loaded') return <PageLoader />;
  return (
    <Stack gap="md" maw={820}>
      <Anchor component={Link} href="~/member/mail/sent" size="sm">
        ← {t('sentItem.back')}
      </Anchor>
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {data.subject}
      </Title>
      <MailMessageCard message={data} datePattern={datePattern} download={download} />
      <Anchor component={Link} href={`~/member/mail/conversation/${data.thread_id}`} data-open-conversation>
        {t('sentItem.openConversation')}
      </Anchor>
    </Stack>
  );
}
