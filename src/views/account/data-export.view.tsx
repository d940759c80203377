/**
 * "Download my data": one button that saves the personal data export (a JSON file) — on the account hub and
 * on the delete page. While the file is prepared the button is busy; a failure says what happened next to
 * it, with retry (a throttled export says when to come back).
 */
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { dataExportMachine } from '../../machines/account/account-hub.machine';

export type DataExportActor = ActorRefFrom<typeof dataExportMachine>;

export function DataExportButton({ actor }: { actor: DataExportActor }) {
  const { t } = useTranslation('account');
  const state = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const failure = useSelector(actor, (s) => s.context.failure);
  const failed = state === 'connectionError' || state === 'serverError' || state === 'validationError';
  const message = state === 'validationError' ? (failure === 'rateLimited' ? 'rateLimited' : 'refused') : state;
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="default" loading={busy} disabled={busy} onClick={() => actor.send({ type: 'dataExport.submit' })} data-data-export>
          {busy ? t('dataExport.busy') : t('dataExport.button')}
        </Button>
      </Group>
      {failed && (
        <Alert color={state === 'validationError' ? 'yellow' : 'red'} role="alert" data-data-export-error={message}>
          <Stack gap="xs">
            {t(`dataExport.errors.${message}`)}
            <Group gap="xs">
              {state !== 'validationError' && (
                <Button size="xs" onClick={() => actor.send({ type: 'dataExport.retry' })}>
                  {t('dataExport.retry')}
                </Button>
              )}
              <Button size="xs" variant="subtle" onClick={() => actor.send({ type: 'dataExport.dismiss' })}>
                {t('dataExport.dismiss')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
