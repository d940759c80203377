/**
 * The CRM's dashboard (what to do next: follow-ups due, today's and the next meetings, leads by status,
 * the pipeline's value, the month's wins — each item links to its record), its analytics (leads per month
 * by source and by status as charts with a table alternative, win and lead → contact rates, the period in
 * the URL) and the phone hub (/crm/index: every CRM area, with counts where they are cheap).
 */
import '@mantine/core/styles/SegmentedControl.css';
import { Alert, Anchor, Badge, Button, Card, Group, NavLink, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { crmAnalyticsMachine, crmCountsMachine, crmDashboardMachine } from '../../machines/crm/dashboard.machine';
import {
  ANALYTICS_PERIODS,
  DEFAULT_ANALYTICS_PERIOD,
  type AnalyticsPeriod,
  type CrmAnalyticsFilters,
  type CrmCounts,
  type FollowUp,
  type MeetingBrief,
  type MonthRow,
  type SalesMonth,
} from '../../schemas/crm-dashboard.schema';
import { LEAD_SOURCES, LEAD_STATUSES } from '../../schemas/crm.schema';
import { MoneyBarChart, type ChartSeries } from '../components/charts/money-bar-chart';
import { EmptyState } from '../components/empty-state';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { useDisplayFormat } from '../member/display-format';
import { calendarDay, LEADS, STATUS_COLOURS } from './leads.view';
import { Invitees } from './people.view';

type LoadActor = ActorRefFrom<typeof crmDashboardMachine> | ActorRefFrom<typeof crmAnalyticsMachine> | ActorRefFrom<typeof crmCountsMachine>;

/** The load's failure screens (connection, server: with retry); null while it has data or loads. */
function LoadFailure({ actor }: { actor: LoadActor }) {
  const value = useSelector(actor as ActorRefFrom<typeof crmCountsMachine>, (s) => String(s.value));
  if (value !== 'connectionError' && value !== 'error') return null;
  return <ErrorView kind={value === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'load.retry' })} />;
}

function Figure({ label, value, detail, href, id }: { label: string; value: ReactNode; detail?: ReactNode; href?: string; id: string }) {
  const body = (
    <>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl" style={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      {detail && (
        <Text size="sm" c="dimmed">
          {detail}
        </Text>
      )}
    </>
  );
  return (
    <Card withBorder radius="md" padding="md" data-figure={id}>
      {href ? (
        <Anchor component={Link} href={href} underline="never" c="inherit">
          {body}
        </Anchor>
      ) : (
        body
      )}
    </Card>
  );
}

function Section({ id, title, children, action }: { id: string; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={`crm-${id}`} data-section={id}>
      <Group justify="space-between" mb="xs" wrap="wrap" gap="xs">
        <Title order={2} size="h4" id={`crm-${id}`}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

function FollowUps({ items, overdue }: { items: FollowUp[]; overdue: boolean }) {
  const { t } = useTranslation('crm');
  const { money } = useDisplayFormat();
  const { dateFormat } = useDisplayFormat();
  return (
    <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((f) => (
        <Group key={f.id} component="li" justify="space-between" wrap="nowrap" gap="xs" data-follow-up={f.id}>
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Anchor component={Link} href={`${LEADS}/${f.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
              {f.name}
            </Anchor>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {[f.company, t(`status.${f.status}`), money(f.estimated_value)].filter(Boolean).join(' · ')}
            </Text>
          </Stack>
          <Badge color={overdue ? 'red' : 'blue'} variant="light" style={{ flexShrink: 0 }}>
            {overdue ? t('dashboard.overdueSince', { day: calendarDay(f.next_follow_up, dateFormat) }) : t('dashboard.today')}
          </Badge>
        </Group>
      ))}
    </Stack>
  );
}

function Meetings({ items, today }: { items: MeetingBrief[]; today: boolean }) {
  const { t } = useTranslation('crm');
  const { dateFormat } = useDisplayFormat();
  return (
    <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {items.map((m) => (
        <Stack key={m.id} component="li" gap={2} data-dashboard-meeting={m.id}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Anchor component={Link} href={`/crm/meetings/edit/${m.id}`} fw={600} style={{ overflowWrap: 'anywhere' }}>
              {m.title}
            </Anchor>
            <Text size="sm" style={{ flexShrink: 0, fontVariantNumeric: 'tabular-nums' }}>
              {today ? m.time : `${calendarDay(m.date, dateFormat)} ${m.time}`}
            </Text>
          </Group>
          {(m.place || m.link) && (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {m.place || m.link} · {t('calls.minutes', { count: m.duration_minutes })}
            </Text>
          )}
          <Invitees invitees={m.invitees} />
        </Stack>
      ))}
    </Stack>
  );
}

function Nothing({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" c="dimmed">
      {children}
    </Text>
  );
}

export function CrmDashboardView({ actor }: { actor: ActorRefFrom<typeof crmDashboardMachine> }) {
  const { t } = useTranslation('crm');
  const { money } = useDisplayFormat();
  const data = useSelector(actor, (s) => s.context.data);
  const failed = useSelector(actor, (s) => s.hasTag('error') && s.value !== 'forceLogout');
  const header = (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Title order={1} size="h2">
        {t('dashboard.title')}
      </Title>
      <Group gap="xs">
        <Button component={Link} href="/crm/dashboard/analytics" variant="default">
          {t('analytics.title')}
        </Button>
        <Button component={Link} href="/crm/leads/new">
          {t('leads.new')}
        </Button>
      </Group>
    </Group>
  );
  if (failed)
    return (
      <Stack gap="md">
        {header}
        <LoadFailure actor={actor} />
      </Stack>
    );
  if (!data) return <PageLoader />;
  if (!data.has_records)
    return (
      <Stack gap="md" data-crm-dashboard="empty">
        {header}
        <EmptyState
          title={t('dashboard.emptyTitle')}
          description={t('dashboard.emptyDescription')}
          action={
            <Group gap="xs" justify="center">
              <Button component={Link} href="/crm/leads/new">
                {t('dashboard.firstLead')}
              </Button>
              <Button component={Link} href="/crm/contacts/import" variant="default">
                {t('dashboard.importContacts')}
              </Button>
            </Group>
          }
        />
      </Stack>
    );
  const { follow_ups: f, meetings: m } = data;
  const due = f.overdue_total + f.today_total;
  return (
    <Stack gap="md" data-crm-dashboard="ready">
      {header}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 5 }} spacing="md">
        <Figure id="pipeline" label={t('dashboard.pipeline')} value={money(data.pipeline.value)} detail={t('dashboard.openLeads', { count: data.pipeline.count })} href={`${LEADS}/board`} />
        <Figure id="won" label={t('dashboard.wonThisMonth')} value={data.won_this_month.count} detail={money(data.won_this_month.value)} href={`${LEADS}?status=won`} />
        <Figure id="sales" label={t('dashboard.salesThisMonth')} value={money(data.sales_this_month.total)} detail={t('dashboard.salesCount', { count: data.sales_this_month.count })} href="/crm/sales" />
        <Figure id="followUps" label={t('dashboard.followUpsDue')} value={due} detail={t('dashboard.overdueCount', { count: f.overdue_total })} />
        <Figure id="meetingsToday" label={t('dashboard.meetingsToday')} value={m.today.length} detail={t('dashboard.upcomingCount', { count: m.upcoming_total })} href="/crm/meetings" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Section id="follow-ups" title={t('dashboard.followUps')}>
          {due === 0 ? (
            <Nothing>{t('dashboard.noFollowUps')}</Nothing>
          ) : (
            <Stack gap="sm">
              {f.overdue.length > 0 && (
                <div>
                  <Text size="sm" fw={600} c="red" mb={4}>
                    {t('dashboard.overdue', { count: f.overdue_total })}
                  </Text>
                  <FollowUps items={f.overdue} overdue />
                </div>
              )}
              {f.today.length > 0 && (
                <div>
                  <Text size="sm" fw={600} mb={4}>
                    {t('dashboard.dueToday', { count: f.today_total })}
                  </Text>
                  <FollowUps items={f.today} overdue={false} />
                </div>
              )}
            </Stack>
          )}
        </Section>
        <Section
          id="meetings"
          title={t('dashboard.meetings')}
          action={
            <Anchor component={Link} href="/crm/meetings/new" size="sm">
              {t('meetings.new')}
            </Anchor>
          }
        >
          <Stack gap="sm">
            <div>
              <Text size="sm" fw={600} mb={4}>
                {t('dashboard.today')}
              </Text>
              {m.today.length ? <Meetings items={m.today} today /> : <Nothing>{t('dashboard.noMeetingsToday')}</Nothing>}
            </div>
            <div>
              <Text size="sm" fw={600} mb={4}>
                {t('dashboard.upcoming')}
              </Text>
              {m.upcoming.length ? <Meetings items={m.upcoming} today={false} /> : <Nothing>{t('dashboard.noUpcoming')}</Nothing>}
            </div>
          </Stack>
        </Section>
      </SimpleGrid>
      <Section id="by-status" title={t('dashboard.byStatus')}>
        <SimpleGrid cols={{ base: 2, xs: 3, md: 6 }} spacing="xs">
          {data.by_status.map((s) => (
            <Anchor key={s.status} component={Link} href={`${LEADS}?status=${s.status}`} underline="never" c="inherit" data-status-count={s.status}>
              <Card withBorder padding="xs" radius="md">
                <Badge color={STATUS_COLOURS[s.status as keyof typeof STATUS_COLOURS] ?? 'gray'} variant="light">
                  {t(`status.${s.status}`)}
                </Badge>
                <Text fw={700} mt={4}>
                  {s.count}
                </Text>
                <Text size="xs" c="dimmed">
                  {money(s.value)}
                </Text>
              </Card>
            </Anchor>
          ))}
        </SimpleGrid>
      </Section>
    </Stack>
  );
}

// ── Analytics ───────────────────────────────────────────────────────────────────────────────────────

const SOURCE_COLOURS: Record<string, string> = { website: 'blue.6', referral: 'teal.6', social: 'grape.6', event: 'orange.6', advert: 'yellow.7', other: 'gray.6' };
const STATUS_CHART_COLOURS: Record<string, string> = { new: 'gray.6', contacted: 'blue.6', qualified: 'cyan.6', proposal: 'violet.6', won: 'teal.7', lost: 'red.6' };

/** Rows of a month series as the chart reads them (a short and a long month name, values as text). */
function useMonthRows(rows: Array<{ month: string; values: Record<string, number | string> }>) {
  const { i18n } = useTranslation();
  const monthName = (month: string, style: Intl.DateTimeFormatOptions) => {
    const [y, mo] = month.split('-').map(Number);
    return new Date(y, mo - 1, 1).toLocaleDateString(i18n.resolvedLanguage ?? 'en', style);
  };
  return rows.map((r) => ({
    key: r.month,
    label: monthName(r.month, { month: 'short' }),
    longLabel: monthName(r.month, { month: 'long', year: 'numeric' }),
    values: Object.fromEntries(Object.entries(r.values).map(([k, v]) => [k, String(v)])),
  }));
}

function CountChart({ id, title, rows, series }: { id: string; title: string; rows: MonthRow[]; series: ChartSeries[] }) {
  const { t, i18n } = useTranslation('crm');
  const chartRows = useMonthRows(rows);
  const count = (v: string | number) => Number(v).toLocaleString(i18n.resolvedLanguage ?? 'en');
  const total = rows.reduce((n, r) => n + Object.values(r.values).reduce((a, b) => a + b, 0), 0);
  return (
    <Section id={id} title={title}>
      <MoneyBarChart
        periodLabel={t('analytics.month')}
        series={series}
        rows={chartRows}
        money={count}
        stacked
        height={240}
        summary={t('analytics.summary', { title, count: total, months: rows.length })}
      />
    </Section>
  );
}

/** The member's sales per month: their total in the member's currency (the count in the summary). */
function SalesChart({ rows }: { rows: SalesMonth[] }) {
  const { t } = useTranslation('crm');
  const { money } = useDisplayFormat();
  const chartRows = useMonthRows(rows.map((r) => ({ month: r.month, values: { total: r.total } })));
  const title = t('analytics.salesPerMonth');
  return (
    <Section id="sales-per-month" title={title}>
      <MoneyBarChart
        periodLabel={t('analytics.month')}
        series={[{ name: 'total', label: t('analytics.salesTotal'), color: 'teal.7' }]}
        rows={chartRows}
        money={money}
        height={240}
        summary={t('analytics.salesSummary', { title, count: rows.reduce((n, r) => n + r.count, 0), months: rows.length })}
      />
    </Section>
  );
}

export function CrmAnalyticsView({ actor, filters, onFilters }: { actor: ActorRefFrom<typeof crmAnalyticsMachine>; filters: CrmAnalyticsFilters; onFilters: (f: CrmAnalyticsFilters) => void }) {
  const { t } = useTranslation('crm');
  const data = useSelector(actor, (s) => s.context.data);
  const loading = useSelector(actor, (s) => s.hasTag('busy'));
  const failed = useSelector(actor, (s) => s.hasTag('error') && s.value !== 'forceLogout');
  const period = filters.period ?? DEFAULT_ANALYTICS_PERIOD;
  const header = (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={1} size="h2">
          {t('analytics.title')}
        </Title>
        <Button component={Link} href="/crm/dashboard" variant="subtle" px={0}>
          {t('analytics.back')}
        </Button>
      </Group>
      <SegmentedControl
        aria-label={t('analytics.period')}
        value={period}
        onChange={(v) => onFilters(v === DEFAULT_ANALYTICS_PERIOD ? {} : { period: v as AnalyticsPeriod })}
        data={ANALYTICS_PERIODS.map((p) => ({ value: p, label: t('analytics.months', { count: Number(p.slice(0, -1)) }) }))}
        style={{ alignSelf: 'flex-start' }}
      />
    </Stack>
  );
  if (failed)
    return (
      <Stack gap="md">
        {header}
        <LoadFailure actor={actor} />
      </Stack>
    );
  if (!data) return <PageLoader />;
  const c = data.conversion;
  const sourceSeries = LEAD_SOURCES.map((s) => ({ name: s, label: t(`source.${s}`), color: SOURCE_COLOURS[s] }));
  const statusSeries = LEAD_STATUSES.map((s) => ({ name: s, label: t(`status.${s}`), color: STATUS_CHART_COLOURS[s] }));
  const sales = data.sales_per_month.reduce((n, m) => n + m.count, 0);
  return (
    <Stack gap="md" data-crm-analytics={data.period} aria-busy={loading}>
      {header}
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="md">
        <Figure id="leads" label={t('analytics.leadsCreated')} value={c.leads} />
        <Figure id="winRate" label={t('analytics.winRate')} value={c.win_rate === null ? '—' : `${c.win_rate} %`} detail={t('analytics.wonOfClosed', { won: c.won, closed: c.closed })} />
        <Figure id="contactRate" label={t('analytics.contactRate')} value={c.contact_rate === null ? '—' : `${c.contact_rate} %`} detail={t('analytics.toContact', { count: c.to_contact, leads: c.leads })} />
      </SimpleGrid>
      {c.leads === 0 && (
        <EmptyState
          title={t('analytics.emptyTitle')}
          description={t('analytics.emptyDescription')}
          action={
            <Button component={Link} href="/crm/leads/new">
              {t('dashboard.firstLead')}
            </Button>
          }
        />
      )}
      {/* A period without leads may still have sales: their chart shows whenever there are any. */}
      {(c.leads > 0 || sales > 0) && (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          {c.leads > 0 && <CountChart id="by-source" title={t('analytics.bySource')} rows={data.leads_by_source} series={sourceSeries} />}
          {c.leads > 0 && <CountChart id="by-status-month" title={t('analytics.byStatus')} rows={data.leads_by_status} series={statusSeries} />}
          <SalesChart rows={data.sales_per_month} />
        </SimpleGrid>
      )}
    </Stack>
  );
}

// ── The phone hub ───────────────────────────────────────────────────────────────────────────────────

/** Every CRM area in the hub's order, with the count it shows when there is one. */
const AREAS: Array<{ id: string; href: string; count?: (c: CrmCounts) => number }> = [
  { id: 'dashboard', href: '/crm/dashboard' },
  { id: 'analytics', href: '/crm/dashboard/analytics' },
  { id: 'leads', href: '/crm/leads', count: (c) => c.open_leads },
  { id: 'contacts', href: '/crm/contacts', count: (c) => c.contacts },
  { id: 'sales', href: '/crm/sales', count: (c) => c.sales },
  { id: 'invoices', href: '/crm/invoices', count: (c) => c.invoices },
  { id: 'meetings', href: '/crm/meetings', count: (c) => c.upcoming_meetings },
  { id: 'calls', href: '/crm/calls', count: (c) => c.calls },
];

export function CrmIndexView({ actor }: { actor: ActorRefFrom<typeof crmCountsMachine> }) {
  const { t } = useTranslation('crm');
  const counts = useSelector(actor, (s) => s.context.data);
  const value = useSelector(actor, (s) => String(s.value));
  return (
    <Stack gap="md" maw={720}>
      <Title order={1} size="h2">
        {t('hub.title')}
      </Title>
      {(value === 'connectionError' || value === 'error') && (
        <Alert color="yellow" role="alert" title={t(value === 'connectionError' ? 'hub.countsOffline' : 'hub.countsFailed')}>
          <Button size="xs" variant="default" onClick={() => actor.send({ type: 'load.retry' })}>
            {t('leads.retry')}
          </Button>
        </Alert>
      )}
      <Card withBorder radius="md" padding={0} component="nav" aria-label={t('hub.title')}>
        <Stack gap={0} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {AREAS.map((a) => {
            const n = counts && a.count ? a.count(counts) : null;
            return (
              <li key={a.id}>
                <NavLink
                  component={Link}
                  href={a.href}
                  label={t(`hub.areas.${a.id}`)}
                  description={t(`hub.descriptions.${a.id}`)}
                  py="sm"
                  data-hub-area={a.id}
                  rightSection={
                    n !== null ? (
                      <Badge variant="light" aria-label={t(`hub.counts.${a.id}`, { count: n })}>
                        {n}
                      </Badge>
                    ) : undefined
                  }
                />
              </li>
            );
          })}
        </Stack>
      </Card>
    </Stack>
  );
}
