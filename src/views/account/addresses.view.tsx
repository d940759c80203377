/**
 * /member/account/addresses: the address book as cards (one column on a phone), with an "Add address"
 * call to action (also in the empty state), edit links and delete with a confirmation; the success toast
 * of a delete offers Undo. /member/account/addresses/new and /{id}: the address form (the edit loads the
 * address first; a missing or someone else's address shows a not-found state). Field errors show under
 * their fields; what was typed stays.
 */
import { Alert, Anchor, Button, Card, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { addresses } from '../../machines/account/addresses.machine';
import { addressLines } from '../../lib/address-lines';
import type { Address, AddressValues } from '../../schemas/account.schema';
import type { Country } from '../../schemas/common.schema';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { useFieldError } from '../components/field-error';
import { FormCard, RequestError } from '../components/form-card';
import { PageLoader } from '../components/page-loader';
import { PagedList, type PagedListActor } from '../components/paged-list/paged-list';

const BOOK = '/account/addresses';

function AddButton() {
  const { t } = useTranslation('account');
  return (
    <Button component={Link} href={`${BOOK}/new`}>
      {t('addresses.add')}
    </Button>
  );
}

function AddressCard({ a, onDelete, busy }: { a: Address; onDelete: () => void; busy: boolean }) {
  const { t } = useTranslation('account');
  const [name, ...lines] = addressLines(a);
  return (
    <Card withBorder radius="md" role="listitem" data-address-id={a.id}>
      <Stack gap={4} h="100%">
        <Text fw={600}>{name}</Text>
        {lines.map((l) => (
          <Text key={l} size="sm">
            {l}
          </Text>
        ))}
        {(a.email || a.phone) && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {[a.email, a.phone].filter(Boolean).join(' · ')}
          </Text>
        )}
        <Group gap="xs" mt="auto" pt="xs">
          <Button size="xs" variant="light" component={Link} href={`${BOOK}/${a.id}`} aria-label={t('addresses.editOne', { name })}>
            {t('addresses.edit')}
          </Button>
          <Button size="xs" variant="subtle" color="red" onClick={onDelete} disabled={busy} aria-label={t('addresses.deleteOne', { name })}>
            {t('addresses.delete')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The delete's confirmation and what went wrong with a delete or its undo. */
function DeleteDialogs({ actor }: { actor: ActorRefFrom<typeof addresses.book> }) {
  const { t } = useTranslation('account');
  const remove = useSelector(actor, (s) => s.children.remove);
  const state = useSelector(remove, (s) => (s ? (s.value as string) : 'idle'));
  const send = (type: 'delete.confirm' | 'delete.cancel' | 'delete.retry' | 'delete.undo' | 'delete.dismiss') => actor.send({ type });
  const problem =
    state === 'connectionError' || state === 'serverError'
      ? { title: t(`addresses.errors.${state}`), retry: 'delete.retry' as const, cancel: 'delete.cancel' as const }
      : state === 'restoreError'
        ? { title: t('addresses.errors.restoreError'), retry: 'delete.undo' as const, cancel: 'delete.dismiss' as const }
        : state === 'refused'
          ? { title: t('addresses.errors.refused'), retry: null, cancel: 'delete.dismiss' as const }
          : null;
  return (
    <>
      <Modal opened={state === 'confirming' || state === 'deleting'} onClose={() => send('delete.cancel')} title={t('addresses.confirmTitle')} centered>
        <Stack gap="md">
          <Text size="sm">{t('addresses.confirmText')}</Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => send('delete.cancel')} disabled={state === 'deleting'}>
              {t('addresses.cancel')}
            </Button>
            <Button color="red" onClick={() => send('delete.confirm')} loading={state === 'deleting'}>
              {t('addresses.confirmDelete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
      {problem && (
        <RequestError
          title={problem.title}
          retryLabel={t('addresses.retry')}
          dismissLabel={t('addresses.dismiss')}
          onRetry={problem.retry ? () => send(problem.retry!) : undefined}
          onDismiss={() => send(problem.cancel)}
        />
      )}
    </>
  );
}

export function AddressBookView({ actor }: { actor: ActorRefFrom<typeof addresses.book> }) {
  const { t } = useTranslation('account');
  const list = useSelector(actor, (s) => s.children.list);
  const remove = useSelector(actor, (s) => s.children.remove);
  const busy = useSelector(remove, (s) => !!s?.hasTag('busy'));
  if (!list) return <PageLoader />;
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={1} size="h2">
          {t('addresses.title')}
        </Title>
        <AddButton />
      </Group>
      <DeleteDialogs actor={actor} />
      <PagedList<Address>
        actor={list as unknown as PagedListActor<Address>}
        emptyTitle={t('addresses.emptyTitle')}
        emptyDescription={t('addresses.emptyDescription')}
        emptyAction={<AddButton />}
        renderItems={(items) => (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {items.map((a) => (
              <AddressCard key={a.id} a={a} busy={busy} onDelete={() => actor.send({ type: 'delete.request', id: a.id })} />
            ))}
          </SimpleGrid>
        )}
      />
    </Stack>
  );
}

// ── The form ────────────────────────────────────────────────────────────────────────────────────────

type Field = keyof AddressValues;

const TEXT_FIELDS: Array<[Field, string, boolean?]> = [
  ['first_name', 'given-name', true],
  ['last_name', 'family-name'],
  ['company', 'organization'],
  ['address_1', 'address-line1', true],
  ['address_2', 'address-line2'],
  ['city', 'address-level2', true],
  ['postcode', 'postal-code'],
  ['zone_name', 'address-level1'],
  ['email', 'email'],
  ['phone', 'tel'],
];

export function AddressFormView({ actor }: { actor: ActorRefFrom<typeof addresses.formPage> }) {
  const { t } = useTranslation('account');
  const editing = useSelector(actor, (s) => s.matches('editing'));
  const form = useSelector(actor, (s) => s.children.form);
  const countriesActor = useSelector(actor, (s) => s.children.choices);
  const state = useSelector(form, (s) => (s ? (s.value as string).replace(/OnRefresh$/, '') : 'loading'));
  const busy = useSelector(form, (s) => !!s?.hasTag('busy'));
  const ctx = useSelector(form, (s) => s?.context);
  const countriesState = useSelector(countriesActor, (s) => (s ? (s.value as string) : 'loading'));
  const countries = useSelector(countriesActor, (s) => (s?.context.data ?? null) as Country[] | null);
  const error = useFieldError(ctx?.fieldErrors);

  if (!form || !ctx) return <PageLoader />;
  const back = (
    <Button component={Link} href={BOOK} variant="subtle" px={0}>
      {t('addresses.back')}
    </Button>
  );
  if (state === 'loadError' && ctx.error?.kind === 'notFound')
    return (
      <div data-address-status="notFound">
        <EmptyState title={t('addresses.notFoundTitle')} description={t('addresses.notFoundDescription')} action={back} />
      </div>
    );
  if (state === 'loadConnectionError' || state === 'loadError')
    return <ErrorView kind={state === 'loadConnectionError' ? 'connection' : 'server'} onRetry={() => form.send({ type: 'form.retry' })} />;
  if (countriesState === 'connectionError' || countriesState === 'error')
    return <ErrorView kind={countriesState === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'choices.retry' })} />;
  if (state === 'loading' || state === 'forceLogout' || !countries) return <PageLoader />;

  const values = ctx.values as AddressValues;
  const change = (field: Field, value: string) => form.send({ type: 'form.change', field, value });
  const refused = state === 'validationError' && !Object.keys(ctx.fieldErrors).length;

  return (
    <Stack gap="md" maw={640}>
      <div>{back}</div>
      <Title order={1} size="h2">
        {t(editing ? 'addresses.editTitle' : 'addresses.newTitle')}
      </Title>
      {(state === 'connectionError' || state === 'serverError') && (
        <RequestError
          title={t(`addresses.errors.${state}`)}
          retryLabel={t('addresses.retry')}
          dismissLabel={t('addresses.dismiss')}
          onRetry={() => form.send({ type: 'form.retry' })}
          onDismiss={() => form.send({ type: 'form.dismiss' })}
        />
      )}
      {refused && (
        <Alert color="yellow" role="alert">
          {t('addresses.errors.saveRefused')}
        </Alert>
      )}
      <FormCard onSubmit={() => form.send({ type: 'form.submit' })}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {TEXT_FIELDS.map(([field, autoComplete, required]) => (
            <TextInput
              key={field}
              label={t(`addresses.fields.${field}`)}
              autoComplete={autoComplete}
              required={required}
              type={field === 'email' ? 'email' : field === 'phone' ? 'tel' : 'text'}
              value={values[field] ?? ''}
              error={error(field)}
              disabled={busy}
              onChange={(e: ChangeEvent<HTMLInputElement>) => change(field, e.currentTarget.value)}
            />
          ))}
          <Select
            label={t('addresses.fields.country_id')}
            required
            searchable
            autoComplete="country-name"
            data={countries.map((c) => ({ value: String(c.id), label: c.name }))}
            value={values.country_id || null}
            error={error('country_id')}
            disabled={busy}
            onChange={(v) => change('country_id', v ?? '')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Anchor component={Link} href={BOOK} size="sm">
            {t('addresses.cancel')}
          </Anchor>
          <Button type="submit" loading={busy} disabled={busy}>
            {t('addresses.save')}
          </Button>
        </Group>
      </FormCard>
    </Stack>
  );
}
