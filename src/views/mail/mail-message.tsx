/** One message as a card: who wrote it to whom and when, its sanitised HTML, its files to download. */
import { Anchor, Avatar, Card, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates';
import type { MailMessage } from '../../schemas/mail.schema';
import { initials } from '../components/person';
import { SafeHtml } from '../home/safe-html';
import { usePartyName } from './mail-list.view';

export type MailDownload = (url: string, name: string) => Promise<unknown>;

export function MailMessageCard({ message, datePattern, download }: { message: MailMessage; datePattern: string | null; download: MailDownload }) {
  const { t } = useTranslation('mail');
  const name = usePartyName();
  return (
    <Card withBorder radius="md" component="article" data-message={message.id} data-mine={message.mine || undefined} aria-label={t('message.from', { name: name(message.from) })}>
      <Stack gap="xs">
        <Group wrap="nowrap" gap="sm" align="flex-start">
          <Avatar src={message.from.avatar} radius="xl" alt="" color="initials" name={name(message.from)}>
            {initials(message.from)}
          </Avatar>
          <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
            <Text fw={600} size="sm" truncate="end">
              {message.mine ? t('message.you') : name(message.from)}
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {t('message.to', { name: message.mine ? name(message.to) : t('message.youLower') })} · <time dateTime={message.created_at}>{formatDate(message.created_at, datePattern)}</time>
            </Text>
          </Stack>
        </Group>
        <SafeHtml html={message.body} />
        {message.attachments.length > 0 && (
          <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('attachments.label')}>
            {message.attachments.map((a) => (
              <li key={a.id}>
                <Anchor component="button" type="button" size="sm" onClick={() => void download(a.url, a.name).catch(() => undefined)} data-attachment={a.name}>
                  {t('attachments.download', { name: a.name })}
                </Anchor>
              </li>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
