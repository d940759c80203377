/**
 * "Send to support / download diagnostic": the member sends the app's diagnostic snapshot (what was on
 * screen and how it got there, with passwords, codes, tokens and bank or card numbers removed in the
 * browser) and gets a reference to give support, or downloads it as a JSON file. On the account hub, and
 * offered on the unexpected-error screen. The panel owns its own actor, like the shell's controls.
 */
import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { supportSnapshotMachine } from '../../machines/support-snapshot.machine';
import { saveFile } from '../../lib/save-file';
import { browserSnapshotEnv, captureSupportSnapshot, snapshotFileName } from '../../lib/support-snapshot';

export function downloadSnapshot(reason: 'member' | 'error', error?: unknown): string {
  const snapshot = captureSupportSnapshot(browserSnapshotEnv(), { reason, error });
  return saveFile(new Blob([JSON.stringify(snapshot, null, 1)], { type: 'application/json' }), snapshotFileName(snapshot));
}

export function SupportSnapshotPanel({ reason = 'member', error }: { reason?: 'member' | 'error'; error?: unknown }) {
  const { t } = useTranslation('support', { useSuspense: false });
  const actor = useActorRef(supportSnapshotMachine, { input: { params: reason } });
  const value = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const sent = useSelector(actor, (s) => (s.context.result as { snapshot?: { id: string } } | null)?.snapshot?.id ?? null);
  return (
    <Stack gap="xs" data-support-snapshot>
      <Text size="sm" c="dimmed">
        {t('snapshot.description', 'Send support a diagnostic of this screen (passwords, codes and bank numbers are left out), or download it.')}
      </Text>
      <Group gap="sm">
        <Button variant="default" loading={busy} disabled={busy} onClick={() => actor.send({ type: 'supportSnapshot.submit' })} data-support-send>
          {t('snapshot.send', 'Send to support')}
        </Button>
        <Button variant="subtle" onClick={() => downloadSnapshot(reason, error)} data-support-download>
          {t('snapshot.download', 'Download diagnostic')}
        </Button>
      </Group>
      {value === 'success' && sent && (
        <Alert color="green" role="status" data-support-sent>
          {t('snapshot.sent', 'Sent. Give support this reference:')} <Code>{sent}</Code>
        </Alert>
      )}
      {(value === 'connectionError' || value === 'serverError' || value === 'validationError') && (
        <Alert color="red" role="alert" withCloseButton closeButtonLabel={t('snapshot.dismiss', 'Dismiss')} onClose={() => actor.send({ type: 'supportSnapshot.dismiss' })}>
          <Stack gap="xs" align="flex-start">
            <span>{t(`snapshot.errors.${value}`, 'It could not be sent. Download it instead, or try again.')}</span>
            {value !== 'validationError' && (
              <Button size="xs" variant="light" onClick={() => actor.send({ type: 'supportSnapshot.retry' })}>
                {t('snapshot.retry', 'Try again')}
              </Button>
            )}
          </Stack>
        </Alert>
      )}
      {value === 'forceLogout' && (
        <Alert color="yellow" role="alert">
          {t('snapshot.errors.signedOut', 'Your session has ended: download the diagnostic instead.')}
        </Alert>
      )}
    </Stack>
  );
}
