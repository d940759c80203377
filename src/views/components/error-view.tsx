/**
 * Server-error and connection-error screens (spec §2, §8): an illustration 25vh tall, a title, a
 * description and a retry button. `compact` fits the same content inside a card or a list.
 */
import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PlainImage } from './plain-boxes';

export type ErrorKind = 'connection' | 'server';

export interface ErrorViewProps {
  kind: ErrorKind;
  onRetry: () => void;
  compact?: boolean;
  /** Disables the retry button while a retry is in flight. */
  retrying?: boolean;
}

const CONTENT = {
  server: { image: '/images/server-error.svg', title: 'serverErrorTitle', description: 'serverErrorDescription' },
  connection: { image: '/images/maintenance.svg', title: 'connectionErrorTitle', description: 'connectionErrorDescription' },
} as const;

export function ErrorView({ kind, onRetry, compact = false, retrying = false }: ErrorViewProps) {
  const { t } = useTranslation('common');
  const c = CONTENT[kind];
  return (
    <Stack
      align="center"
      justify="center"
      gap={compact ? 'xs' : 'md'}
      py={compact ? 'md' : 'xl'}
      px="md"
      mih={compact ? undefined : '60vh'}
      ta="center"
      data-error-kind={kind}
    >
      <PlainImage src={c.image} alt="" h={compact ? 96 : '25vh'} w="auto" fit="contain" />
      <div role="alert">
        <Title order={compact ? 3 : 2} size={compact ? 'h4' : 'h3'}>
          {t(c.title)}
        </Title>
        <Text c="dimmed" mt={4} maw={440} size={compact ? 'sm' : 'md'}>
          {t(c.description)}
        </Text>
      </div>
      <Button onClick={onRetry} loading={retrying} size={compact ? 'sm' : 'md'} mt="xs">
        {t('retry')}
      </Button>
    </Stack>
  );
}
