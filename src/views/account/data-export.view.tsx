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
import { RequestError } from '../components/form-card';

export type DataExportActor = ActorRefFrom<typeof dataExportMachine>;

export function DataExportButton({ actor }: { actor: DataExportActor }) {
  const { t } = useTranslation('account');
  const state = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const failure = useSelector(actor, (s) => s.context.failure);
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="default" loading={busy} disabled={busy} onClick={() => actor.send({ type: 'dataExport.submit' })} data-data-export>
          {busy ? t('dataExport.busy') : t('dataExport.button')}
        </Button>
      </Group>
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`dataExport.errors.${state}`)}
          retryLabel={t('dataExport.retry')}
          dismissLabel={t('dataExport.dismiss')}
          onRetry={() => actor.send({ type: 'dataExport.retry' })}
          onDismiss={() => actor.send({ type: 'dataExport.dismiss' })}
        />
      )}
      {state === 'validationError' && (
        <Alert color="yellow" role="alert" withCloseButton closeButtonLabel={t('dataExport.dismiss')} onClose={() => actor.send({ type: 'dataExport.dismiss' })}>
          {t(failure === 'rateLimited' ? 'dataExport.errors.rateLimited' : 'dataExport.errors.refused')}
        </Alert>
      )}
    </Stack>
  );
}
