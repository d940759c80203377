/**
 * The dashboard tab (spec §2 Dashboard, §3 Dashboard summary/extra, Promotions): wallet and volume
 * figures, package, rank and KYC, recruitment progress, the credit/debit chart, the referral link
 * with copy and share links, recent joinings, transactions, articles, videos, and promotions.
 */
import { Anchor, Avatar, Badge, Button, Card, CopyButton, Group, Progress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { absoluteUrl, shareLinks } from '../../lib/links';
import type { DashboardData, homeDashboardMachine } from '../../machines/home.machine';
import { EmptyState } from '../components/empty-state';
import { fullName, initials } from '../components/person';
import { useDisplayFormat } from '../member/display-format';
import { FigureCard, VOLUME } from './figure-card';
import { HistoryChart } from './history-chart';
import { LoadStates, type LoadActor } from './load-states';

export function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={title}>
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function ReferralLink({ link: given }: { link: string }) {
  const link = absoluteUrl(given);
  const { t } = useTranslation('common');
  const { t: td } = useTranslation('dashboard');
  const share = { url: link, text: td('referral.shareText') };
  const links = shareLinks(share);
  return (
    <Stack gap="xs">
      <Group gap="xs" wrap="nowrap" align="end">
        <TextInput label={td('referral.link')} value={link} readOnly style={{ flex: 1 }} onFocus={(e) => e.currentTarget.select()} />
        <CopyButton value={link}>
          {({ copied, copy }) => (
            <Button onClick={copy} variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined}>
              {copied ? t('share.copied') : t('share.copy')}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Group gap="xs">
        {links.map((l) => (
          <Anchor key={l.key} href={l.href} target="_blank" rel="noopener noreferrer" size="sm">
            {t(`share.${l.key}`)}
          </Anchor>
        ))}
      </Group>
    </Stack>
  );
}

const KYC_COLOUR = { approved: 'teal', pending: 'yellow', rejected: 'red', not_submitted: 'gray' } as const;

/** A date-time that has passed. */
const expired = (iso: string) => new Date(iso).getTime() < Date.now();

/** How many past events the dashboard lists (the rest are on the events page). */
const PAST_EVENTS_SHOWN = 3;

export function DashboardContent({ data, referralLink, renewHref }: { data: DashboardData; referralLink?: string | null; renewHref?: string | null }) {
  const { t } = useTranslation(['dashboard', 'wallet']);
  const { money, date, day } = useDisplayFormat();
  const { summary: s, extra, promotions } = data;
  // The wallet's vocabulary, in the member's language; a key the app does not know yet shows the server's label.
  const labelOf = (key: string) => t(`wallet:transactionKeys.${key}`, { defaultValue: s.transaction_labels[key] ?? key });
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
        <FigureCard index={0} label={t('figures.walletBalance')} value={money(s.wallet_balance)} />
        <FigureCard index={1} label={t('figures.totalEarnings')} value={money(s.total_earnings)} />
        <FigureCard index={2} label={t('figures.totalPaid')} value={money(s.total_paid)} />
        <FigureCard index={3} label={t('figures.pv')} value={money(s.pv, VOLUME)} />
        <FigureCard index={4} label={t('figures.tv')} value={money(s.tv, VOLUME)} />
        <FigureCard index={5} label={t('figures.cv')} value={money(s.cv, VOLUME)} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <FigureCard
          index={1}
          label={t('figures.package')}
          value={s.package_name ?? t('figures.noPackage')}
          hint={
            s.package_expiry ? (
              expired(s.package_expiry) ? (
                <Group gap="xs" component="span">
                  <Text span size="sm" c="red" fw={600} data-package-expired="">
                    {t('figures.expired', { date: day(s.package_expiry) })}
                  </Text>
                  {renewHref && (
                    <Anchor component={Link} href={renewHref} size="sm" fw={600} data-package-renew="">
                      {t('figures.renew')}
                    </Anchor>
                  )}
                </Group>
              ) : (
                t('figures.expires', { date: day(s.package_expiry) })
              )
            ) : undefined
          }
        />
        <FigureCard
          index={2}
          label={t('figures.rank')}
          value={s.rank_name ?? t('figures.noRank')}
          hint={s.rank_achieved_date ? t('figures.achievedOn', { date: day(s.rank_achieved_date) }) : undefined}
        />
        <FigureCard
          index={3}
          label={t('figures.kyc')}
          value={
            <Badge color={KYC_COLOUR[s.kyc_status]} variant="light" size="lg">
              {t(`kyc.${s.kyc_status}`)}
            </Badge>
          }
        />
      </SimpleGrid>

      {referralLink && extra.referral_allowed && (
        <Section title={t('referral.title')}>
          <ReferralLink link={referralLink} />
        </Section>
      )}

      <Section title={t('chart.title')}>
        {s.credit_history.length ? <HistoryChart credit={s.credit_history} debit={s.debit_history} /> : <EmptyState description={t('empty.chart')} />}
      </Section>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Section title={t('recruitment.title')}>
          {s.recruitment_progress.length ? (
            <Stack gap="sm">
              {s.recruitment_progress.map((r) => (
                <div key={r.month}>
                  <Group justify="space-between" gap="xs">
                    <Text size="sm">{day(r.start_date)}</Text>
                    <Text size="sm" c="dimmed">
                      {t('recruitment.count', { current: r.current_count, required: r.required_count })} · {t(`recruitment.${r.status}`)}
                    </Text>
                  </Group>
                  <Progress value={r.progress} aria-label={t('recruitment.progressOf', { month: day(r.start_date) })} color={r.status === 'achieved' ? 'teal' : r.status === 'missed' ? 'red' : undefined} />
                </div>
              ))}
            </Stack>
          ) : (
            <EmptyState description={t('empty.recruitment')} />
          )}
        </Section>
        <Section title={t('joinings.title')}>
          {s.recent_joinings.length ? (
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {s.recent_joinings.map((j) => (
                <Group key={j.id} component="li" gap="sm" wrap="nowrap">
                  <Avatar src={j.avatar} radius="xl" size={32} alt="">
                    {initials(j)}
                  </Avatar>
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500} truncate>
                      {fullName(j)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {date(j.joined_date)}
                    </Text>
                  </div>
                </Group>
              ))}
            </Stack>
          ) : (
            <EmptyState description={t('empty.joinings')} />
          )}
        </Section>
      </SimpleGrid>

      <Section title={t('transactions.title')}>
        {s.recent_transactions.length ? (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {s.recent_transactions.map((tx) => (
              <Group key={tx.id} component="li" justify="space-between" wrap="nowrap" gap="xs">
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" truncate>
                    {labelOf(tx.transaction_key)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {date(tx.created_at)}
                  </Text>
                </div>
                <Text size="sm" fw={600} c={tx.cash_flow === 'credit' ? 'teal' : 'red'}>
                  {tx.cash_flow === 'credit' ? '+' : '−'}
                  {money(tx.amount)}
                </Text>
              </Group>
            ))}
          </Stack>
        ) : (
          <EmptyState description={t('empty.transactions')} />
        )}
      </Section>

      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Section title={t('stories.articles')}>
          {s.recent_articles.length ? (
            <Stack gap={6}>
              {s.recent_articles.map((a) => (
                <div key={a.id}>
                  <Anchor component={Link} href={`/story/article/${a.id}`} size="sm" fw={500} data-recent-article={a.id}>
                    {a.title}
                  </Anchor>
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {a.description}
                  </Text>
                </div>
              ))}
            </Stack>
          ) : (
            <EmptyState description={t('empty.articles')} />
          )}
        </Section>
        <Section title={t('stories.videos')}>
          {s.recent_videos.length ? (
            <Stack gap={6}>
              {s.recent_videos.map((v) => (
                <Anchor key={v.id} component={Link} href={`/story/video/${v.id}`} size="sm" data-recent-video={v.id}>
                  {v.title}
                </Anchor>
              ))}
            </Stack>
          ) : (
            <EmptyState description={t('empty.videos')} />
          )}
        </Section>
      </SimpleGrid>

      <Section title={t('promotions.title')}>
        {promotions.events.length || promotions.articles.length ? (
          <Promotions promotions={promotions} />
        ) : (
          <EmptyState description={t('empty.promotions')} />
        )}
      </Section>
    </Stack>
  );
}

/**
 * The company's events, upcoming ones first (soonest first) apart from the last few past ones, then its
 * announcements as short teasers linking to the article.
 */
function Promotions({ promotions }: { promotions: DashboardData['promotions'] }) {
  const { t } = useTranslation('dashboard');
  const { date } = useDisplayFormat();
  const upcoming = promotions.events.filter((e) => !expired(e.end_date)).sort((a, b) => a.start_date.localeCompare(b.start_date));
  const past = promotions.events
    .filter((e) => expired(e.end_date))
    .sort((a, b) => b.end_date.localeCompare(a.end_date))
    .slice(0, PAST_EVENTS_SHOWN);
  const event = (e: DashboardData['promotions']['events'][number], isPast: boolean) => (
    <div key={`e${e.id}`} data-promotion="event" data-past={isPast ? '' : undefined}>
      <Group gap="xs">
        <Anchor component={Link} href={`/event/${e.id}`} fw={600}>
          {e.title}
        </Anchor>
        <Badge variant="light" color={isPast ? 'gray' : 'teal'}>
          {t(isPast ? 'promotions.past' : 'promotions.upcoming')}
        </Badge>
        {e.tag && <Badge variant="light">{e.tag}</Badge>}
      </Group>
      <Text size="sm" c="dimmed">
        {t('promotions.when', { start: date(e.start_date), end: date(e.end_date), venue: e.venue })}
      </Text>
      <Text size="sm" lineClamp={2}>
        {e.about}
      </Text>
    </div>
  );
  return (
    <Stack gap="lg">
      {upcoming.length > 0 && (
        <Stack gap="sm" data-promotions="upcoming">
          <Title order={3} size="h5">
            {t('promotions.upcomingTitle')}
          </Title>
          {upcoming.map((e) => event(e, false))}
        </Stack>
      )}
      {past.length > 0 && (
        <Stack gap="sm" data-promotions="past">
          <Title order={3} size="h5">
            {t('promotions.pastTitle')}
          </Title>
          {past.map((e) => event(e, true))}
        </Stack>
      )}
      {promotions.articles.length > 0 && (
        <Stack gap="sm" data-promotions="articles">
          <Title order={3} size="h5">
            {t('promotions.articlesTitle')}
          </Title>
          {promotions.articles.map((a) => (
            <article key={`a${a.id}`} data-promotion="article">
              <Anchor component={Link} href={`/story/article/${a.id}`} fw={600}>
                {a.title}
              </Anchor>
              <Text size="xs" c="dimmed">
                {date(a.updated_at)}
              </Text>
              {/* A teaser, not the whole article: the dashboard is a summary. */}
              <Text size="sm" lineClamp={2}>
                {a.description}
              </Text>
            </article>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

export function DashboardView({
  actor,
  referralLink,
  renewHref,
}: {
  actor: ActorRefFrom<typeof homeDashboardMachine>;
  referralLink?: string | null;
  /** Where an expired package is renewed, when the member may (the package payment page). */
  renewHref?: string | null;
}) {
  // The wallet's words (transaction types) are asked for with the page's own, while the figures load.
  const { t } = useTranslation(['dashboard', 'wallet']);
  return (
    <LoadStates actor={actor as unknown as LoadActor<DashboardData>} loadingLabel={t('loading')}>
      {(data) => <DashboardContent data={data} referralLink={referralLink} renewHref={renewHref} />}
    </LoadStates>
  );
}
