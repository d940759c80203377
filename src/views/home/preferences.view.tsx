/**
 * Display preferences (spec §1, §5, §9): language, currency and date format. The language goes
 * through the session (`onLanguage`), currency and date format through the preferences machine.
 */
import { Alert, Button, Card, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates';
import type { preferencesMachine } from '../../machines/preferences.machine';
import type { Currency, Language } from '../../schemas/common.schema';
import { DATE_FORMATS } from '../../schemas/preferences.schema';

export interface PreferencesViewProps {
  actor: ActorRefFrom<typeof preferencesMachine>;
  languages: readonly Pick<Language, 'code' | 'native_name'>[];
  currencies: readonly Pick<Currency, 'code' | 'name' | 'symbol'>[];
  language: string;
  currency: string;
  dateFormat: string;
  onLanguage: (code: string) => void;
}

/** A fixed sample instant shows what each format looks like. */
const SAMPLE = new Date(2026, 2, 9, 14, 5);

export function PreferencesView({ actor, languages, currencies, language, currency, dateFormat, onLanguage }: PreferencesViewProps) {
  const { t } = useTranslation('dashboard');
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  // The on-refresh variants (a save after an earlier one succeeded) read the same.
  const state = useSelector(actor, (s) => (s.value as string).replace(/OnRefresh$/, ''));
  const failedField = useSelector(actor, (s) => Object.keys(s.context.error?.fields ?? {})[0] ?? null);
  const save = (values: { currency?: string; date_format?: string }) => actor.send({ type: 'preferences.save', values });
  return (
    <Stack gap="md" maw={560}>
      <Title order={1} size="h2">
        {t('preferences.title')}
      </Title>
      {(state === 'connectionError' || state === 'serverError' || state === 'validationError') && (
        <Alert color="red" role="alert" title={t(`preferences.errors.${state}`)}>
          <Group gap="xs" mt={4}>
            {state !== 'validationError' && (
              <Button size="xs" onClick={() => actor.send({ type: 'preferences.retry' })}>
                {t('preferences.retry')}
              </Button>
            )}
            <Button size="xs" variant="default" onClick={() => actor.send({ type: 'preferences.dismiss' })}>
              {t('preferences.dismiss')}
            </Button>
          </Group>
          {failedField && (
            <Text size="sm" mt={4}>
              {t(`preferences.${failedField === 'date_format' ? 'dateFormat' : failedField}`, { defaultValue: failedField })}
            </Text>
          )}
        </Alert>
      )}
      <Card withBorder radius="md">
        <Stack gap="md">
          <NativeSelect
            label={t('preferences.language')}
            value={language}
            onChange={(e) => e.currentTarget.value !== language && onLanguage(e.currentTarget.value)}
            data={languages.map((l) => ({ value: l.code, label: l.native_name }))}
          />
          <NativeSelect
            label={t('preferences.currency')}
            value={currency}
            disabled={busy}
            onChange={(e) => e.currentTarget.value !== currency && save({ currency: e.currentTarget.value })}
            data={currencies.map((c) => ({ value: c.code, label: `${c.code} — ${c.name} (${c.symbol})` }))}
          />
          <NativeSelect
            label={t('preferences.dateFormat')}
            value={dateFormat}
            disabled={busy}
            onChange={(e) => e.currentTarget.value !== dateFormat && save({ date_format: e.currentTarget.value })}
            data={[
              ...((DATE_FORMATS as readonly string[]).includes(dateFormat) ? [] : [{ value: dateFormat, label: formatDate(SAMPLE, dateFormat, { language }) }]),
              ...DATE_FORMATS.map((f) => ({ value: f, label: formatDate(SAMPLE, f, { language }) })),
            ]}
          />
          {busy && (
            <Text size="sm" c="dimmed" role="status">
              {t('preferences.saving')}
            </Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
