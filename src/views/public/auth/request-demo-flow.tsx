/** Request a demo (/request-demo, /request-demo/success): the form and its confirmation. */
import { Button, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { RequestDemoField, requestDemoMachine } from '../../../machines/request-demo.machine';
import { localCountries } from '../../../lib/country-names';
import { useFieldError } from '../../components/field-error';
import { AuthCard } from './auth-card';
import { loadState, LoadStatus, stepOf } from './flow-status';
import { NavLink } from './nav-link';
import { SubmitAlert, submitProblem } from './submit-alert';
import { UnplacedErrors } from './unplaced-errors';

const SHOWN = ['name', 'email', 'mobile', 'country_id', 'industry', 'compensation_plan'];

export type RequestDemoActor = ActorRefFrom<typeof requestDemoMachine>;
type DemoSnapshot = ReturnType<RequestDemoActor['getSnapshot']>;

function FormStep({ actor, snap }: { actor: RequestDemoActor; snap: DemoSnapshot }) {
  const { t, i18n } = useTranslation(['auth', 'common']);
  const c = snap.context;
  const error = useFieldError(c.fieldErrors);
  const optional = (key: string) => `${t(key)} ${t('common:optional')}`;
  const field = (name: RequestDemoField) => ({
    value: c.values[name],
    onChange: (e: { currentTarget: { value: string } }) => actor.send({ type: 'demo.change', field: name, value: e.currentTarget.value }),
    error: error(name),
  });
  // The server's choices in the visitor's language where the app knows their (English) name, else as sent.
  const translated = (group: string, items: Array<{ id: number; name: string }> = []) =>
    items.map((i) => ({ ...i, name: /[.:]/.test(i.name) ? i.name : t(`${group}.${i.name}`, { defaultValue: i.name }) }));
  const choices = (items: Array<{ id: number; name: string }>) => [
    { value: '', label: t('noChoice') },
    ...items.map((i) => ({ value: String(i.id), label: i.name })),
  ];
  const status = stepOf(snap, 'form');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'demo.submit' });
  };
  return (
    <AuthCard title={t('requestDemoTitle')} description={t('requestDemoSubtitle')}>
      <form noValidate onSubmit={submit}>
        <Stack gap="md">
          <TextInput label={t('fullName')} autoComplete="name" autoFocus {...field('name')} />
          <TextInput label={t('email')} type="email" autoComplete="email" {...field('email')} />
          <TextInput label={t('mobile')} type="tel" autoComplete="tel" {...field('mobile')} />
          <NativeSelect label={optional('country')} data={choices(localCountries(c.options?.countries ?? [], i18n.language))} {...field('country_id')} />
          <NativeSelect label={optional('industry')} data={choices(translated('demoIndustries', c.options?.industries))} {...field('industry')} />
          <NativeSelect
            label={optional('compensationPlan')}
            data={choices(translated('demoPlans', c.options?.compensation_plans))}
            {...field('compensation_plan')}
          />
          <UnplacedErrors errors={c.fieldErrors} shown={SHOWN} />
          <SubmitAlert problem={submitProblem(status)} retryAfter={c.retryAfter} />
          <Button type="submit" fullWidth loading={snap.hasTag('busy')}>
            {t('requestDemoSubmit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        <NavLink href="/login">{t('backToSignIn')}</NavLink>
      </Text>
    </AuthCard>
  );
}

function SuccessStep({ snap }: { snap: DemoSnapshot }) {
  const { t } = useTranslation('auth');
  return (
    <AuthCard title={t('requestDemoSuccessTitle')}>
      <Text>{t('requestDemoSuccessText', { email: snap.context.values.email.trim() })}</Text>
      <Text size="sm" ta="center">
        <NavLink href="/login">{t('backToSignIn')}</NavLink>
      </Text>
    </AuthCard>
  );
}

export function RequestDemoFlow({ actor }: { actor: RequestDemoActor }) {
  const snap = useSelector(actor, (s) => s);
  return (
    <LoadStatus state={loadState(snap)} onRetry={() => actor.send({ type: 'load.retry' })}>
      {snap.matches('success') ? <SuccessStep snap={snap} /> : <FormStep actor={actor} snap={snap} />}
    </LoadStatus>
  );
}
