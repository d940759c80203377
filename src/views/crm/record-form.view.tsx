/**
 * The new and edit pages of a CRM record (contact, call, meeting) from a list of fields: text, e-mail,
 * phone, date, time, a long text, or a choice (fixed options, or the member's contacts and leads loaded
 * with the page). The edit loads the record first (a missing or someone else's one is not found); field
 * errors show under their fields; what was typed stays.
 */
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import { Alert, Anchor, Button, Group, MultiSelect, Select, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { AnyActorRef } from 'xstate';
import { inviteeRef, type CrmChoices } from '../../schemas/crm.schema';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { PageLoader } from '../components/page-loader';

export interface FieldSpec {
  name: string;
  /** `invitees`: any number of the member's contacts and leads (a searchable multi-select). */
  kind: 'text' | 'email' | 'tel' | 'date' | 'time' | 'number' | 'long' | 'choice' | 'contact' | 'lead' | 'invitees';
  required?: boolean;
  /** Fixed options: values, labelled by `crm:<optionsKey>.<value>`. */
  options?: readonly string[];
  optionsKey?: string;
}

export interface RecordFormProps {
  actor: AnyActorRef;
  /** The area's keys under crm: `<area>.newTitle`, `<area>.editTitle`, `<area>.fields.<name>`, `<area>.back`, `<area>.save`. */
  area: string;
  fields: FieldSpec[];
  backTo: string;
}

export function RecordFormView({ actor, area, fields, backTo }: RecordFormProps) {
  const { t } = useTranslation('crm');
  const editing = useSelector(actor, (s) => s.matches('editing'));
  const form = useSelector(actor, (s) => s.children.form as AnyActorRef | undefined);
  const choicesActor = useSelector(actor, (s) => s.children.choices as AnyActorRef | undefined);
  const state = useSelector(form, (s) => (s ? String(s.value).replace(/OnRefresh$/, '') : 'loading'));
  const busy = useSelector(form, (s) => !!s?.hasTag('busy'));
  const ctx = useSelector(form, (s) => s?.context);
  const choicesState = useSelector(choicesActor, (s) => (s ? String(s.value) : 'loading'));
  const choices = useSelector(choicesActor, (s) => (s?.context.data ?? null) as CrmChoices | null);
  const error = useFieldError(ctx?.fieldErrors);
  const needsChoices = fields.some((f) => f.kind === 'contact' || f.kind === 'lead' || f.kind === 'invitees');

  if (!form || !ctx) return <PageLoader />;
  const back = (
    <Button component={Link} href={backTo} variant="subtle" px={0}>
      {t(`${area}.back`)}
    </Button>
  );
  if (state === 'loadError' && ctx.error?.kind === 'notFound')
    return (
      <div data-record-status="notFound">
        <EmptyState title={t('common.notFoundTitle')} description={t('common.notFoundDescription')} action={back} />
      </div>
    );
  if (state === 'loadConnectionError' || state === 'loadError')
    return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => form.send({ type: 'form.retry' })} />;
  if (needsChoices && (choicesState === 'connectionError' || choicesState === 'error'))
    return <ErrorView kind={choicesState === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'choices.retry' })} />;
  if (state === 'loading' || state === 'forceLogout' || (needsChoices && !choices)) return <PageLoader />;

  const values = ctx.values as Record<string, string>;
  const change = (field: string, value: string | string[]) => form.send({ type: 'form.change', field, value });
  const refused = state === 'validationError' && !Object.keys(ctx.fieldErrors).length;
  const label = (f: FieldSpec) => t(`${area}.fields.${f.name}`);

  const input = (f: FieldSpec) => {
    const common = { key: f.name, label: label(f), required: f.required, error: error(f.name), disabled: busy };
    if (f.kind === 'long')
      return <Textarea {...common} rows={3} value={values[f.name] ?? ''} onChange={(e: ChangeEvent<HTMLTextAreaElement>) => change(f.name, e.currentTarget.value)} />;
    if (f.kind === 'invitees') {
      const data = [
        { group: t('common.contacts'), items: choices!.contacts.map((c) => ({ value: inviteeRef('contact', c.id), label: c.name })) },
        { group: t('common.leads'), items: choices!.leads.map((l) => ({ value: inviteeRef('lead', l.id), label: l.name })) },
      ].filter((g) => g.items.length);
      const chosen = (ctx.values[f.name] as readonly string[] | undefined) ?? [];
      return (
        <MultiSelect
          {...common}
          data={data}
          searchable
          clearable
          hidePickedOptions
          nothingFoundMessage={t('common.nothingFound')}
          placeholder={chosen.length ? undefined : t('common.invitePlaceholder')}
          value={[...chosen]}
          onChange={(v) => change(f.name, v)}
          data-invitees
        />
      );
    }
    if (f.kind === 'choice' || f.kind === 'contact' || f.kind === 'lead') {
      const data =
        f.kind === 'choice'
          ? (f.options ?? []).map((o) => ({ value: o, label: t(`${f.optionsKey}.${o}`) }))
          : [{ value: '', label: t('common.none') }, ...(f.kind === 'contact' ? choices!.contacts : choices!.leads).map((c) => ({ value: String(c.id), label: c.name }))];
      return (
        <Select
          {...common}
          data={data}
          searchable={f.kind !== 'choice'}
          allowDeselect={false}
          value={values[f.name] ?? ''}
          onChange={(v) => change(f.name, v ?? '')}
        />
      );
    }
    return (
      <TextInput
        {...common}
        type={f.kind === 'number' ? 'text' : f.kind}
        inputMode={f.kind === 'number' ? 'numeric' : undefined}
        value={values[f.name] ?? ''}
        onChange={(e: ChangeEvent<HTMLInputElement>) => change(f.name, e.currentTarget.value)}
      />
    );
  };

  return (
    <Stack gap="md" maw={720}>
      <div>{back}</div>
      <Title order={1} size="h2">
        {t(editing ? `${area}.editTitle` : `${area}.newTitle`)}
      </Title>
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`leads.errors.${state}`)}
          retryLabel={t('leads.retry')}
          dismissLabel={t('leads.dismiss')}
          onRetry={() => form.send({ type: 'form.retry' })}
          onDismiss={() => form.send({ type: 'form.dismiss' })}
        />
      )}
      {refused && (
        <Alert color="yellow" role="alert">
          {t('common.saveRefused')}
        </Alert>
      )}
      <FormCard onSubmit={() => form.send({ type: 'form.submit' })}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {fields.filter((f) => f.kind !== 'long').map(input)}
        </SimpleGrid>
        {fields.filter((f) => f.kind === 'long').map(input)}
        <Group justify="flex-end">
          <Anchor component={Link} href={backTo} size="sm">
            {t('leads.cancel')}
          </Anchor>
          <Button type="submit" loading={busy} disabled={busy}>
            {t(`${area}.save`)}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}
