/**
 * The dashboard tab (spec §2 Dashboard, §3 Dashboard summary/extra, Promotions), read top-down: first the
 * few figures that matter (balance, this month's income, rank with the way to its progress, package with
 * renew when it has expired), the other figures smaller (earnings, paid, new members, volumes); then what
 * to do next (the referral link with copy and share buttons, KYC, this month's recruitment); then the
 * detail in tabs — the credit/debit chart, recent transactions, joinings and recruitment progress beside
 * the promotions, recent articles and videos — so the page stays short on a desktop and on a phone.
 */
import { Anchor, Avatar, Badge, Button, Card, CopyButton, Group, Progress, SimpleGrid, Skeleton, Stack, Tabs, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { absoluteUrl, shareLinks } from '../../lib/links';
import { homeDashboardMoreMachine, type DashboardData, type DashboardFigures, type DashboardMore, type homeDashboardMachine } from '../../machines/home.machine';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
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
      {/* Buttons, not small text links: each is a comfortable target on a phone. */}
      <Group gap={6}>
        {links.map((l) => (
          <Button key={l.key} component="a" href={l.href} target="_blank" rel="noopener noreferrer" size="xs" variant="default">
            {t(`share.${l.key}`)}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

const KYC_COLOUR = { approved: 'teal', pending: 'yellow', rejected: 'red', not_submitted: 'gray' } as const;

/** A date-time that has passed. */
const expired = (iso: string) => new Date(iso).getTime() < Date.now();

/** How many past and upcoming events, and announcements, the dashboard lists (the rest are on their own pages). */
const PAST_EVENTS_SHOWN = 3;
const UPCOMING_EVENTS_SHOWN = 3;
const NEWS_SHOWN = 4;

/** The calendar month (yyyy-MM, UTC) an instant falls in: the server's months are UTC months. */
const monthOf = (at: Date | string) => new Date(at).toISOString().slice(0, 7);

/** A small heading over a group of the dashboard, so the page reads top-down: figures, next steps, detail. */
function GroupTitle({ id, children }: { id: string; children: React.ReactNode }) {
  return (
    <Title order={2} size="h4" id={id} mt="xs">
      {children}
    </Title>
  );
}

/** A link that is a comfortable target (24 px or more) inside a figure's hint line. */
function HintLink({ href, children, ...rest }: { href: string; children: React.ReactNode } & Record<`data-${string}`, string>) {
  return (
    <Anchor component={Link} href={href} size="sm" fw={600} className="upline-target" {...rest}>
      {children}
    </Anchor>
  );
}

/** The rest of the dashboard beside the figures: its data once it has arrived, else how its load stands. */
type More = { data: DashboardMore } | { data: null; failed: 'connection' | 'server' | null; retry: () => void };

/** Where the rest is shown while it loads (a placeholder) or after it failed (the error with retry). */
function MorePending({ more, label }: { more: Extract<More, { data: null }>; label: string }) {
  if (more.failed) return <ErrorView compact kind={more.failed} onRetry={more.retry} />;
  return <Skeleton h={120} radius="sm" aria-busy="true" aria-label={label} role="status" data-state="loading" />;
}

/**
 * False for the first drawing of the figures, true right after: what lies below them (next steps, the detail tabs
 * with the chart and the lists) is drawn by a second render in a task of its own, so the figures are on the page
 * (laid out with the shell alone) without waiting for it.
 */
function useDrawnAfterFigures(): boolean {
  const [later, setLater] = useState(false);
  useEffect(() => setLater(true), []);
  return later;
}

export function DashboardContent({
  figures,
  more,
  referralLink,
  renewHref,
}: {
  figures: DashboardFigures;
  more: More;
  referralLink?: string | null;
  renewHref?: string | null;
}) {
  const { t } = useTranslation(['dashboard', 'wallet']);
  const { money, date, day } = useDisplayFormat();
  const { summary: s } = figures;
  const extra = more.data?.extra ?? null;
  const promotions = more.data?.promotions ?? null;
  // The wallet's vocabulary, in the member's language; a key the app does not know yet shows the server's label.
  const labelOf = (key: string) => t(`wallet:transactionKeys.${key}`, { defaultValue: s.transaction_labels[key] ?? key });
  const thisMonth = monthOf(new Date());
  const creditedThisMonth = s.credit_history.find((c) => c.month === thisMonth)?.total ?? '0';
  const recruitmentNow = s.recruitment_progress.find((r) => r.month === thisMonth);
  const joinedThisMonth = recruitmentNow?.current_count ?? s.recent_joinings.filter((j) => monthOf(j.joined_date) === thisMonth).length;
  const packageExpired = !!s.package_expiry && expired(s.package_expiry);
  const showReferral = !!referralLink && !!extra?.referral_allowed;
  const kycToDo = s.kyc_status === 'not_submitted' || s.kyc_status === 'rejected';
  const restDrawn = useDrawnAfterFigures();
  return (
    <Stack gap="md">
      {/* 1 · What matters first: money, rank, package and team, one glance. */}
      <section aria-labelledby="dashboard-glance">
        <VisuallyHidden>
          <h2 id="dashboard-glance">{t('sections.glance')}</h2>
        </VisuallyHidden>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" data-dashboard-group="glance">
          <FigureCard index={0} label={t('figures.walletBalance')} value={money(s.wallet_balance)} />
          <FigureCard index={2} label={t('figures.thisMonth')} value={money(creditedThisMonth)} hint={t('figures.thisMonthHint')} />
          <FigureCard
            index={1}
            label={t('figures.rank')}
            value={s.rank_name ?? t('figures.noRank')}
            hint={
              <>
                {s.rank_achieved_date ? <Text span size="xs" c="dimmed" display="block">{t('figures.achievedOn', { date: day(s.rank_achieved_date) })}</Text> : null}
                <HintLink href="/home/rank" data-rank-progress="">
                  {t('figures.rankProgress')}
                </HintLink>
              </>
            }
          />
          <FigureCard
            index={3}
            label={t('figures.package')}
            value={s.package_name ?? t('figures.noPackage')}
            hint={
              s.package_expiry ? (
                packageExpired ? (
                  <Group gap="xs" component="span">
                    <Text span size="sm" c="red" fw={600} data-package-expired="">
                      {t('figures.expired', { date: day(s.package_expiry) })}
                    </Text>
                    {renewHref && (
                      <HintLink href={renewHref} data-package-renew="">
                        {t('figures.renew')}
                      </HintLink>
                    )}
                  </Group>
                ) : (
                  t('figures.expires', { date: day(s.package_expiry) })
                )
              ) : undefined
            }
          />
        </SimpleGrid>
        {/* The other figures, smaller: they are looked up rather than watched. */}
        <SimpleGrid cols={{ base: 2, xs: 3, md: 6 }} spacing="sm" mt="sm" data-dashboard-group="figures">
          <FigureCard compact index={4} label={t('figures.totalEarnings')} value={money(s.total_earnings)} />
          <FigureCard compact index={5} label={t('figures.totalPaid')} value={money(s.total_paid)} />
          <FigureCard compact index={0} label={t('figures.newMembers')} value={String(joinedThisMonth)} hint={recruitmentNow ? t('recruitment.count', { current: recruitmentNow.current_count, required: recruitmentNow.required_count }) : undefined} />
          <FigureCard compact index={1} label={t('figures.pv')} value={money(s.pv, VOLUME)} />
          <FigureCard compact index={2} label={t('figures.tv')} value={money(s.tv, VOLUME)} />
          <FigureCard compact index={3} label={t('figures.cv')} value={money(s.cv, VOLUME)} />
        </SimpleGrid>
      </section>

      {restDrawn && (
        <>
          {/* 2 · What to do next. */}
          <section aria-labelledby="dashboard-next" data-dashboard-group="next">
            <GroupTitle id="dashboard-next">{t('sections.next')}</GroupTitle>
            <SimpleGrid cols={{ base: 1, md: showReferral ? 2 : 1 }} spacing="sm" mt="xs">
              {showReferral && (
                <Section title={t('referral.title')}>
                  <ReferralLink link={referralLink} />
                </Section>
              )}
              <Card withBorder radius="md" padding="md">
                <Stack gap="sm">
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    <Text size="sm" fw={500} component="h3" m={0}>
                      {t('figures.kyc')}
                    </Text>
                    <Badge color={KYC_COLOUR[s.kyc_status]} variant="light" size="lg">
                      {t(`kyc.${s.kyc_status}`)}
                    </Badge>
                  </Group>
                  {kycToDo && (
                    <Text size="sm">
                      {t('next.kyc')}{' '}
                      <HintLink href="/kyc" data-next="kyc">
                        {t('next.kycLink')}
                      </HintLink>
                    </Text>
                  )}
                  {packageExpired && renewHref && <Text size="sm">{t('next.renew')}</Text>}
                  {recruitmentNow && (
                    <div>
                      <Text size="sm" mb={4}>
                        {t('next.recruitment', { count: Math.max(0, recruitmentNow.required_count - recruitmentNow.current_count) })}
                      </Text>
                      <Progress value={recruitmentNow.progress} aria-hidden color={recruitmentNow.status === 'achieved' ? 'teal' : undefined} />
                    </div>
                  )}
                </Stack>
              </Card>
            </SimpleGrid>
          </section>

          {/* 3 · The detail, in tabs: activity on one side, the company's news on the other. */}
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" data-dashboard-group="detail">
            <section aria-labelledby="dashboard-activity">
              <GroupTitle id="dashboard-activity">{t('sections.activity')}</GroupTitle>
              <Card withBorder radius="md" padding="sm" mt="xs">
                <Tabs defaultValue="chart" keepMounted styles={TAB_STYLES}>
                  <Tabs.List>
                    <Tabs.Tab value="chart">{t('chart.tab')}</Tabs.Tab>
                    <Tabs.Tab value="transactions">{t('transactions.tab')}</Tabs.Tab>
                    <Tabs.Tab value="team">{t('joinings.tab')}</Tabs.Tab>
                  </Tabs.List>
                  <Tabs.Panel value="chart" pt="sm" aria-label={t('chart.title')}>
                    {s.credit_history.length ? <HistoryChart credit={s.credit_history} debit={s.debit_history} /> : <EmptyState description={t('empty.chart')} />}
                  </Tabs.Panel>
                  <Tabs.Panel value="transactions" pt="sm">
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
                            <Text size="sm" fw={600} c={tx.cash_flow === 'credit' ? 'teal' : 'red'} style={{ whiteSpace: 'nowrap' }}>
                              {tx.cash_flow === 'credit' ? '+' : '−'}
                              {money(tx.amount)}
                            </Text>
                          </Group>
                        ))}
                      </Stack>
                    ) : (
                      <EmptyState description={t('empty.transactions')} />
                    )}
                  </Tabs.Panel>
                  <Tabs.Panel value="team" pt="sm">
                    <Stack gap="md">
                      <div>
                        <Title order={3} size="h5" mb="xs">
                          {t('joinings.title')}
                        </Title>
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
                      </div>
                      <div>
                        <Title order={3} size="h5" mb="xs">
                          {t('recruitment.title')}
                        </Title>
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
                      </div>
                    </Stack>
                  </Tabs.Panel>
                </Tabs>
              </Card>
            </section>

            <section aria-labelledby="dashboard-news">
              <GroupTitle id="dashboard-news">{t('sections.news')}</GroupTitle>
              <Card withBorder radius="md" padding="sm" mt="xs">
                {!promotions ? (
                  <MorePending more={more as Extract<More, { data: null }>} label={t('loading')} />
                ) : promotions.events.length || promotions.articles.length || s.recent_articles.length || s.recent_videos.length ? (
                  // The first tab that has something opens first.
                  <Tabs defaultValue={promotions.events.length ? 'events' : promotions.articles.length ? 'news' : 'stories'} keepMounted styles={TAB_STYLES}>
                    <Tabs.List>
                      <Tabs.Tab value="events">{t('promotions.eventsTab')}</Tabs.Tab>
                      <Tabs.Tab value="news">{t('promotions.articlesTitle')}</Tabs.Tab>
                      <Tabs.Tab value="stories">{t('stories.tab')}</Tabs.Tab>
                    </Tabs.List>
                    <Tabs.Panel value="events" pt="sm">
                      {promotions.events.length ? <PromotedEvents events={promotions.events} /> : <EmptyState description={t('empty.promotions')} />}
                    </Tabs.Panel>
                    <Tabs.Panel value="news" pt="sm">
                      {promotions.articles.length ? <PromotedArticles articles={promotions.articles} /> : <EmptyState description={t('empty.promotions')} />}
                    </Tabs.Panel>
                    <Tabs.Panel value="stories" pt="sm">
                      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                        <div>
                          <Title order={3} size="h5" mb="xs">
                            {t('stories.articles')}
                          </Title>
                          {s.recent_articles.length ? (
                            <Stack gap={6}>
                              {s.recent_articles.map((a) => (
                                <div key={a.id}>
                                  <Anchor component={Link} href={`/story/article/${a.id}`} size="sm" fw={500} className="upline-target" data-recent-article={a.id}>
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
                        </div>
                        <div>
                          <Title order={3} size="h5" mb="xs">
                            {t('stories.videos')}
                          </Title>
                          {s.recent_videos.length ? (
                            <Stack gap={6}>
                              {s.recent_videos.map((v) => (
                                <Anchor key={v.id} component={Link} href={`/story/video/${v.id}`} size="sm" className="upline-target" data-recent-video={v.id}>
                                  {v.title}
                                </Anchor>
                              ))}
                            </Stack>
                          ) : (
                            <EmptyState description={t('empty.videos')} />
                          )}
                        </div>
                      </SimpleGrid>
                    </Tabs.Panel>
                  </Tabs>
                ) : (
                  <EmptyState description={t('empty.promotions')} />
                )}
              </Card>
            </section>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

/** On a phone a group's tabs stay on one line and scroll sideways rather than wrapping. */
const TAB_STYLES = { list: { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'thin' }, tab: { flexShrink: 0 } } as const;

/**
 * The company's events: the next few upcoming ones (soonest first), then the last few past ones, and a link
 * to every event.
 */
function PromotedEvents({ events }: { events: DashboardData['promotions']['events'] }) {
  const { t } = useTranslation('dashboard');
  const { date } = useDisplayFormat();
  const upcoming = events
    .filter((e) => !expired(e.end_date))
    .sort((a, b) => a.start_date.localeCompare(b.start_date))
    .slice(0, UPCOMING_EVENTS_SHOWN);
  const past = events
    .filter((e) => expired(e.end_date))
    .sort((a, b) => b.end_date.localeCompare(a.end_date))
    .slice(0, PAST_EVENTS_SHOWN);
  const event = (e: DashboardData['promotions']['events'][number], isPast: boolean) => (
    <div key={`e${e.id}`} data-promotion="event" data-past={isPast ? '' : undefined}>
      <Group gap="xs">
        <Anchor component={Link} href={`/event/${e.id}`} fw={600} className="upline-target">
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
      <div>
        <Anchor component={Link} href="/events" size="sm" fw={600} className="upline-target">
          {t('promotions.allEvents')}
        </Anchor>
      </div>
    </Stack>
  );
}

/** The company's announcements, newest first, as short teasers linking to the article (the dashboard is a summary). */
function PromotedArticles({ articles }: { articles: DashboardData['promotions']['articles'] }) {
  const { t } = useTranslation('dashboard');
  const { date } = useDisplayFormat();
  return (
    <Stack gap="sm" data-promotions="articles">
      {articles.slice(0, NEWS_SHOWN).map((a) => (
        <article key={`a${a.id}`} data-promotion="article">
          <Anchor component={Link} href={`/story/article/${a.id}`} fw={600} className="upline-target">
            {a.title}
          </Anchor>
          <Text size="xs" c="dimmed">
            {date(a.updated_at)}
          </Text>
          <Text size="sm" lineClamp={2}>
            {a.description}
          </Text>
        </article>
      ))}
      <div>
        <Anchor component={Link} href="/story/article" size="sm" fw={600} className="upline-target">
          {t('promotions.allNews')}
        </Anchor>
      </div>
    </Stack>
  );
}

export function DashboardView({
  actor,
  moreLogic = homeDashboardMoreMachine,
  referralLink,
  renewHref,
}: {
  actor: ActorRefFrom<typeof homeDashboardMachine>;
  /** What loads the rest beside the figures (tests give it their answers). */
  moreLogic?: typeof homeDashboardMoreMachine;
  referralLink?: string | null;
  /** Where an expired package is renewed, when the member may (the package payment page). */
  renewHref?: string | null;
}) {
  // The wallet's words (transaction types) are asked for with the page's own, while the figures load.
  const { t } = useTranslation(['dashboard', 'wallet']);
  // The rest (referral rights, promotions) loads beside the figures, which are drawn as soon as they arrive.
  const moreActor = useActorRef(moreLogic, { input: {} });
  const moreValue = useSelector(moreActor, (s) => s.value as string);
  const moreData = useSelector(moreActor, (s) => s.context.data);
  const more: More = moreData
    ? { data: moreData }
    : {
        data: null,
        failed: moreValue === 'connectionError' ? 'connection' : moreValue === 'error' ? 'server' : null,
        retry: () => moreActor.send({ type: 'load.retry' }),
      };
  return (
    <LoadStates actor={actor as unknown as LoadActor<DashboardFigures>} loadingLabel={t('loading')}>
      {(figures) => <DashboardContent figures={figures} more={more} referralLink={referralLink} renewHref={renewHref} />}
    </LoadStates>
  );
}
