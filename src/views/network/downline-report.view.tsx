/**
 * Network › downline: the downline report paged by page number (spec §3, §4), with a level filter, a
 * username search and the join-date sort (asc / desc only, spec §5). The filters live in the URL: the
 * form hands them to `onFilters` (the route writes them to the query string); the paged-list actor
 * renders its status. On wider screens the members are a table; on phones, one card each.
 */
import { Avatar, Button, Card, Group, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RIGHT, useWideList } from '../components/paged-list/dense-list';
import { PhoneFilters } from '../components/paged-list/phone-filters';
import { ScrollHint } from '../components/scroll-hint';
import type { ActorRefFrom } from 'xstate';
import type { createPagedListMachine } from '../../machines/paged-list.machine';
import type { ReportMember } from '../../schemas/network.schema';
import type { ReportFilters } from '../../lib/list-filters';
import type { Currency } from '../../schemas/common.schema';
import { formatMoney, formatDecimal } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';

export { reportFiltersFrom, reportFiltersQuery, type ReportFilters } from '../../lib/list-filters';

export type DownlineReportActor = ActorRefFrom<ReturnType<typeof createPagedListMachine<ReportMember, ReportFilters>>>;

export interface DownlineReportViewProps {
  actor: DownlineReportActor;
  onFilters: (filters: ReportFilters) => void;
  currency?: Currency | null;
  datePattern?: string | null;
}

/** A member as the report shows them: avatar (or initials), username and name. */
function MemberIdentity({ member: m, name }: { member: ReportMember; name: string }) {
  return (
    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
      <Avatar src={m.avatar} alt="" size={28} radius="xl" color="initials" name={name}>
        {(m.first_name[0] ?? '') + ((m.last_name ?? '').trim()[0] ?? '')}
      </Avatar>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {m.username}
        </Text>
        <Text size="xs" c="dimmed">
          {name}
        </Text>
      </div>
    </Group>
  );
}

export function DownlineReportView({ actor, onFilters, currency, datePattern }: DownlineReportViewProps) {
  const { t, i18n } = useTranslation('network');
  const status = useSelector(actor, (s) => s.value as string);
  const items = useSelector(actor, (s) => s.context.items);
  const filters = useSelector(actor, (s) => s.context.filters);
  const [username, setUsername] = useState(filters.username ?? '');
  const wide = useWideList();
  const [level, setLevel] = useState(filters.level ? String(filters.level) : '');
  // The boxes show the search whose results are listed: when the list's filters change (a Find, the
  // URL, Back), what they hold follows.
  const [listed, setListed] = useState(filters);
  if (listed !== filters) {
    setListed(filters);
    setUsername(filters.username ?? '');
    setLevel(filters.level ? String(filters.level) : '');
  }

  const submit = (sort = filters.sort) => {
    const n = Number(level);
    onFilters({
      sort,
      ...(username.trim() ? { username: username.trim() } : {}),
      ...(Number.isInteger(n) && n > 0 ? { level: n } : {}),
    });
  };

  return (
    <Stack gap="md" data-downline-report="">
      <PhoneFilters count={Number(!!filters.username) + Number(!!filters.level) + Number(filters.sort === 'asc')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput label={t('report.search')} value={username} onChange={(e) => setUsername(e.currentTarget.value)} name="username" w={200} />
          <TextInput
            label={t('report.level')}
            value={level}
            onChange={(e) => setLevel(e.currentTarget.value.replace(/\D/g, ''))}
            inputMode="numeric"
            placeholder={t('report.allLevels')}
            name="level"
            w={120}
          />
          <NativeSelect
            label={t('report.sort')}
            value={filters.sort}
            onChange={(e) => submit(e.currentTarget.value === 'asc' ? 'asc' : 'desc')}
            data={[
              { value: 'desc', label: t('report.newest') },
              { value: 'asc', label: t('report.oldest') },
            ]}
            w={180}
          />
          <Button type="submit">{t('tree.searchButton')}</Button>
        </Group>
      </form>
      </PhoneFilters>
      {status === 'initialLoading' || status === 'forceLogout' ? (
        <PageLoader />
      ) : status === 'networkErrorNoData' || status === 'serverErrorNoData' ? (
        <ErrorView kind={status === 'networkErrorNoData' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'list.retry' })} />
      ) : status === 'noItems' ? (
        <EmptyState title={t('report.empty')} description={t('report.emptyDescription')} />
      ) : (
        <>
          {wide ? (
          <ScrollHint>
            <Table striped highlightOnHover miw={720} aria-label={t('report.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('fields.username')}</Table.Th>
                  <Table.Th>{t('fields.level')}</Table.Th>
                  <Table.Th>{t('fields.sponsor')}</Table.Th>
                  <Table.Th>{t('fields.placement')}</Table.Th>
                  <Table.Th>{t('fields.rank')}</Table.Th>
                  <Table.Th style={RIGHT}>{t('fields.pv')}</Table.Th>
                  <Table.Th style={RIGHT}>{t('fields.earnings')}</Table.Th>
                  <Table.Th>{t('fields.joined')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((m) => {
                  const name = [m.first_name, (m.last_name ?? '').trim()].filter(Boolean).join(' ');
                  return (
                    <Table.Tr key={m.id} data-member={m.username}>
                      <Table.Td>
                        <MemberIdentity member={m} name={name} />
                      </Table.Td>
                      <Table.Td>{m.level}</Table.Td>
                      <Table.Td>{m.sponsor_username ?? '—'}</Table.Td>
                      <Table.Td>{m.placement_username ?? '—'}</Table.Td>
                      <Table.Td>{m.rank_name ?? '—'}</Table.Td>
                      <Table.Td style={RIGHT}>{formatDecimal(m.pv, m.pv.includes('.') ? 2 : 0)}</Table.Td>
                      <Table.Td style={RIGHT}>{formatMoney(m.total_earnings, currency)}</Table.Td>
                      <Table.Td>{formatDate(m.created_at, datePattern, { language: i18n.language })}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollHint>
          ) : (
            // On a phone, one card per member: nothing is cut off and nothing scrolls sideways.
            <Stack gap="xs" role="list" aria-label={t('report.title')}>
              {items.map((m) => {
                const name = [m.first_name, (m.last_name ?? '').trim()].filter(Boolean).join(' ');
                return (
                  <Card key={m.id} withBorder padding="sm" radius="md" role="listitem" data-member={m.username}>
                    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                      <MemberIdentity member={m} name={name} />
                      <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                        {formatMoney(m.total_earnings, currency)}
                      </Text>
                    </Group>
                    <Text size="xs" c="dimmed" mt={4}>
                      {[
                        `${t('fields.level')} ${m.level}`,
                        `${t('fields.sponsor')}: ${m.sponsor_username ?? '—'}`,
                        `${t('fields.placement')}: ${m.placement_username ?? '—'}`,
                        `${t('fields.rank')}: ${m.rank_name ?? '—'}`,
                        `${t('fields.pv')} ${formatDecimal(m.pv, m.pv.includes('.') ? 2 : 0)}`,
                        `${t('fields.joined')} ${formatDate(m.created_at, datePattern, { language: i18n.language })}`,
                      ].join(' · ')}
                    </Text>
                  </Card>
                );
              })}
            </Stack>
          )}
          {(status === 'networkErrorMoreData' || status === 'serverErrorMoreData') && (
            <ErrorView compact kind={status === 'networkErrorMoreData' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'list.retry' })} />
          )}
          {(status === 'readyToLoadMore' || status === 'loadingMore') && (
            <Group justify="center">
              <Button variant="light" loading={status === 'loadingMore'} onClick={() => actor.send({ type: 'list.loadMore' })}>
                {t('report.loadMore')}
              </Button>
            </Group>
          )}
          {status === 'noMoreItems' && (
            <Text size="sm" c="dimmed" ta="center">
              {t('report.end')}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
