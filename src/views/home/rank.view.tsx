/** The rank tab (spec §3 Ranks): current rank, achieved ranks with dates, higher ranks with progress toward each criterion. */
import { Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import type { homeRankMachine } from '../../machines/home.machine';
import { COUNT_CRITERIA, type RankCriterion, type Ranks } from '../../schemas/home.schema';
import { EmptyState } from '../components/empty-state';
import { useDisplayFormat } from '../member/display-format';
import { Section } from './dashboard.view';
import { FigureCard, VOLUME } from './figure-card';
import { LoadStates, type LoadActor } from './load-states';

/** Whole percent of `required` reached, 0–100 (a criterion of 0 is met). */
export function progressPercent(current: string | number, required: string | number): number {
  const r = Number(required);
  const c = Number(current);
  if (!(r > 0)) return 100;
  return Math.max(0, Math.min(100, Math.floor((c / r) * 100)));
}

export function RankContent({ data }: { data: Ranks }) {
  const { t } = useTranslation('dashboard');
  const { money, day } = useDisplayFormat();
  const have = new Map(data.criteria_achieved.figures.map((f) => [f.key, f.value]));
  // Counts (recruits, levels, places) as whole numbers, volumes as volumes.
  const show = (key: RankCriterion, v: string) => (COUNT_CRITERIA.includes(key) ? String(Math.trunc(Number(v))) : money(v, VOLUME));
  // The plan's criteria (server: ranks.ts), each with what the member has and what the rank asks for.
  const criterionRows = (r: Ranks['higher_ranks'][number]) =>
    data.criteria_keys.map((key) => ({
      key,
      current: have.get(key) ?? '0',
      required: r.requirements.find((q) => q.key === key)?.value ?? '0',
      show: (v: string) => show(key, v),
    }));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
        <FigureCard
          index={0}
          label={t('rank.current')}
          value={data.current_rank?.name ?? t('figures.noRank')}
          hint={data.current_rank?.achieved_at ? t('figures.achievedOn', { date: day(data.current_rank.achieved_at) }) : undefined}
        />
        {data.current_rank && <FigureCard index={1} label={t('rank.bonus')} value={money(data.current_rank.bonus)} />}
      </SimpleGrid>
      {data.criteria_keys.length > 0 && (
        <Section title={t('rank.yourFigures')}>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} data-testid="rank-figures">
            {data.criteria_keys.map((key, i) => (
              <FigureCard key={key} index={i + 2} label={t(`rank.criteria.${key}`)} value={show(key, have.get(key) ?? '0')} />
            ))}
          </SimpleGrid>
        </Section>
      )}
      <Section title={t('rank.achieved')}>
        {data.rank_achievements.length ? (
          <Table.ScrollContainer minWidth={420}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('rank.name')}</Table.Th>
                  <Table.Th scope="col">{t('rank.date')}</Table.Th>
                  <Table.Th scope="col">{t('rank.bonus')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.rank_achievements.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Th scope="row">{r.name}</Table.Th>
                    <Table.Td>{day(r.created_at)}</Table.Td>
                    <Table.Td>{money(r.bonus)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <EmptyState description={t('empty.achievedRanks')} />
        )}
      </Section>
      <section aria-label={t('rank.higher')}>
        <Title order={2} size="h4" mb="sm">
          {t('rank.higher')}
        </Title>
        {data.higher_ranks.length ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {data.higher_ranks.map((r) => (
              <Card key={r.id} withBorder radius="md" data-rank={r.name}>
                <Group justify="space-between">
                  <Text fw={700}>{r.name}</Text>
                  <Text size="sm" c="dimmed">
                    {t('rank.bonusOf', { amount: money(r.bonus) })}
                  </Text>
                </Group>
                <Stack gap={8} mt="sm">
                  {criterionRows(r).map((c) => {
                    const pct = progressPercent(c.current, c.required);
                    const label = t(`rank.criteria.${c.key}`);
                    return (
                      <div key={c.key}>
                        <Group justify="space-between" gap="xs">
                          <Text size="sm">{label}</Text>
                          <Text size="sm" c="dimmed">
                            {c.show(c.current)} / {c.show(c.required)}
                          </Text>
                        </Group>
                        <Progress value={pct} color={pct >= 100 ? 'teal' : undefined} aria-label={t('rank.progressTo', { criterion: label, rank: r.name, percent: pct })} />
                      </div>
                    );
                  })}
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        ) : (
          <EmptyState title={t('empty.topRankTitle')} description={t('empty.topRank')} />
        )}
      </section>
    </Stack>
  );
}

export function RankView({ actor }: { actor: ActorRefFrom<typeof homeRankMachine> }) {
  const { t } = useTranslation('dashboard');
  return (
    <LoadStates actor={actor as unknown as LoadActor<Ranks>} loadingLabel={t('loading')}>
      {(data) => <RankContent data={data} />}
    </LoadStates>
  );
}
