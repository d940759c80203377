/**
 * Referral pages: the summary (referral link with copy and share links, counts, referral earnings,
 * latest joinings), the recruiter and earner leaderboards, and the paged list of joinings.
 */
import { Anchor, Avatar, Button, CopyButton, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type {
  referralEarnersMachine,
  referralJoiningsMachine,
  referralSummaryMachine,
} from '../../machines/referral-pages.machine';
import type { Leaderboard, ReferralSummary } from '../../schemas/referral.schema';
import type { RecentJoining } from '../../schemas/network.schema';
import type { Currency } from '../../schemas/common.schema';
import { absoluteUrl, shareEmailLink, shareFacebookLink, shareLinkedinLink, shareTwitterLink, shareWhatsappLink } from '../../lib/links';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { Figure } from '../components/figure';
import { PageLoader } from '../components/page-loader';
import { TabbedPage } from '../components/tabbed-page';

export type ReferralTab = 'summary' | 'recruiter' | 'earner';
const TABS: ReferralTab[] = ['summary', 'recruiter', 'earner'];

export function ReferralPageView({ tab, children }: { tab: ReferralTab; children: ReactNode }) {
  const { t } = useTranslation('referral');
  return (
    <TabbedPage title={t('title')} tabs={TABS} tab={tab} label={(k) => t(`tabs.${k}`)} href={(k) => `~/member/referral/${k}`}>
      {children}
    </TabbedPage>
  );
}

/** The generic-load statuses every referral tab shares. */
function LoadStatus({ actor, children }: { actor: ActorRefFrom<typeof referralSummaryMachine | typeof referralEarnersMachine>; children: () => ReactNode }) {
  const status = useSelector(actor, (s) => s.value as string);
  if (status === 'connectionError' || status === 'error')
    return <ErrorView kind={status === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'load.retry' })} />;
  if (status !== 'loaded') return <PageLoader />;
  return <>{children()}</>;
}

export function ReferralSummaryView({
  actor,
  currency,
  datePattern,
}: {
  actor: ActorRefFrom<typeof referralSummaryMachine>;
  currency?: Currency | null;
  datePattern?: string | null;
}) {
  const { t } = useTranslation('referral');
  const data = useSelector(actor, (s) => s.context.data) as ReferralSummary | null;
  return (
    <LoadStatus actor={actor}>
      {() => {
        const d = data!;
        const url = absoluteUrl(d.referral_link);
        const share = { url, text: t('shareText') };
        const shares: Array<[string, string]> = [
          ['whatsapp', shareWhatsappLink(share)],
          ['twitter', shareTwitterLink(share)],
          ['facebook', shareFacebookLink(share)],
          ['linkedin', shareLinkedinLink(share)],
          ['email', shareEmailLink(share)],
        ];
        return (
          <Stack gap="md">
            <Paper withBorder p="md" radius="md">
              <Stack gap="xs">
                <Group gap="xs" align="flex-end" wrap="wrap">
                  <TextInput label={t('link')} value={url} readOnly style={{ flex: '1 1 240px' }} onFocus={(e) => e.currentTarget.select()} />
                  <CopyButton value={url}>
                    {({ copied, copy }) => (
                      <Button onClick={copy} color={copied ? 'teal' : undefined} aria-live="polite">
                        {copied ? t('copied') : t('copy')}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
                <Group gap="sm" wrap="wrap" aria-label={t('share')} role="group">
                  {shares.map(([k, href]) => (
                    <Anchor key={k} href={href} target="_blank" rel="noopener noreferrer" size="sm">
                      {t(`shareOn.${k}`)}
                    </Anchor>
                  ))}
                </Group>
              </Stack>
            </Paper>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
              <Figure label={t('directReferrals')} value={String(d.direct_referrals)} />
              <Figure label={t('joinedThisMonth')} value={String(d.joined_this_month)} />
              <Figure label={t('teamSize')} value={String(d.team_size)} />
              <Figure label={t('referralEarnings')} value={formatMoney(d.referral_earnings, currency)} />
            </SimpleGrid>
            <Paper withBorder p="md" radius="md">
              <Group justify="space-between" mb="xs">
                <Title order={2} size="h4">
                  {t('recentJoinings')}
                </Title>
                <Anchor component={Link} href="~/member/referral/joinings" size="sm">
                  {t('seeAll')}
                </Anchor>
              </Group>
              {d.recent_joinings.length === 0 ? (
                <EmptyState title={t('noJoinings')} description={t('noJoiningsDescription')} />
              ) : (
                <JoiningList items={d.recent_joinings} datePattern={datePattern} />
              )}
            </Paper>
          </Stack>
        );
      }}
    </LoadStatus>
  );
}

function JoiningList({ items, datePattern }: { items: RecentJoining[]; datePattern?: string | null }) {
  const { t, i18n } = useTranslation('referral');
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((j) => {
        const name = [j.first_name, (j.last_name ?? '').trim()].filter(Boolean).join(' ');
        return (
          <Group key={j.id} gap="sm" component="li" wrap="nowrap">
            <Avatar src={j.avatar} alt="" radius="xl" color="initials" name={name}>
              {(j.first_name[0] ?? '') + ((j.last_name ?? '').trim()[0] ?? '')}
            </Avatar>
            <div>
              <Text size="sm" fw={600}>
                {name}
              </Text>
              <Text size="xs" c="dimmed">
                {t('joined', { date: formatDate(j.joined_date, datePattern, { language: i18n.language }) })}
              </Text>
            </div>
          </Group>
        );
      })}
    </Stack>
  );
}

export function LeaderboardView({
  actor,
  metric,
  currency,
}: {
  actor: ActorRefFrom<typeof referralEarnersMachine>;
  metric: 'recruiter' | 'earner';
  currency?: Currency | null;
}) {
  const { t } = useTranslation('referral');
  const data = useSelector(actor, (s) => s.context.data) as Leaderboard | null;
  return (
    <LoadStatus actor={actor}>
      {() =>
        data!.items.length === 0 ? (
          <EmptyState title={t('leaders.empty')} description={t('leaders.emptyDescription')} />
        ) : (
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t(`leaders.${metric}`)}
            </Text>
            <div style={{ overflowX: 'auto' }}>
              <Table striped aria-label={t(`tabs.${metric}`)}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('leaders.place')}</Table.Th>
                    <Table.Th>{t('leaders.member')}</Table.Th>
                    <Table.Th>{metric === 'recruiter' ? t('leaders.referrals') : t('leaders.earnings')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data!.items.map((l) => (
                    <Table.Tr key={l.id}>
                      <Table.Td>{l.rank}</Table.Td>
                      <Table.Td>
                        <Text size="sm" fw={600}>
                          {l.username}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {[l.first_name, (l.last_name ?? '').trim()].filter(Boolean).join(' ')}
                        </Text>
                      </Table.Td>
                      <Table.Td>{metric === 'recruiter' ? l.referrals : formatMoney(l.earnings, currency)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </div>
          </Stack>
        )
      }
    </LoadStatus>
  );
}

export function JoiningsView({ actor, datePattern }: { actor: ActorRefFrom<typeof referralJoiningsMachine>; datePattern?: string | null }) {
  const { t } = useTranslation('referral');
  const status = useSelector(actor, (s) => s.value as string);
  const items = useSelector(actor, (s) => s.context.items);
  let body: ReactNode;
  if (status === 'initialLoading' || status === 'forceLogout') body = <PageLoader />;
  else if (status === 'networkErrorNoData' || status === 'serverErrorNoData')
    body = <ErrorView kind={status === 'networkErrorNoData' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'list.retry' })} />;
  else if (status === 'noItems') body = <EmptyState title={t('noJoinings')} description={t('noJoiningsDescription')} />;
  else
    body = (
      <Stack gap="md">
        <JoiningList items={items} datePattern={datePattern} />
        {(status === 'networkErrorMoreData' || status === 'serverErrorMoreData') && (
          <ErrorView compact kind={status === 'networkErrorMoreData' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'list.retry' })} />
        )}
        {(status === 'readyToLoadMore' || status === 'loadingMore') && (
          <Group justify="center">
            <Button variant="light" loading={status === 'loadingMore'} onClick={() => actor.send({ type: 'list.loadMore' })}>
              {t('loadMore')}
            </Button>
          </Group>
        )}
        {status === 'noMoreItems' && (
          <Text size="sm" c="dimmed" ta="center">
            {t('end')}
          </Text>
        )}
      </Stack>
    );
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('joinings')}
      </Title>
      {body}
    </Stack>
  );
}
