/** The package tab (spec §3 Package data): current package and expiry, upgrade and autoship, bonuses, available packages. */
import { Badge, Button, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import type { homePackageMachine } from '../../machines/home.machine';
import type { PackageData } from '../../schemas/home.schema';
import { EmptyState } from '../components/empty-state';
import { useDisplayFormat } from '../member/display-format';
import { Section } from './dashboard.view';
import { FigureCard, VOLUME } from './figure-card';
import { LoadStates, type LoadActor } from './load-states';

const PERCENT = { withoutSymbol: true, converted: true, decimals: 2 } as const;

export function PackageContent({ data: p }: { data: PackageData }) {
  const { t } = useTranslation('dashboard');
  const { money, day } = useDisplayFormat();
  const current = p.packages.find((x) => x.is_current) ?? p.packages.find((x) => x.id === p.current_package_id) ?? null;
  const onOff = (v: boolean) => t(v ? 'package.on' : 'package.off');
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
        <FigureCard
          index={0}
          label={t('package.current')}
          value={current?.name ?? t('figures.noPackage')}
          hint={t(`package.status.${p.package_status}`)}
        />
        <FigureCard index={1} label={t('package.expiry')} value={p.current_package_expiry ? day(p.current_package_expiry) : t('package.never')} />
        <FigureCard index={2} label={t('package.upgrade')} value={onOff(p.upgrade_status)} />
        <FigureCard index={3} label={t('package.autoship')} value={onOff(p.autoship_status)} />
        {p.direct_bonus && <FigureCard index={4} label={t('package.directBonus')} value={`${money(p.direct_bonus_rate, PERCENT)} %`} />}
        {p.roi_bonus && <FigureCard index={5} label={t('package.roiBonus')} value={`${money(p.roi_bonus_rate, PERCENT)} %`} />}
        {p.price_difference !== null && <FigureCard index={0} label={t('package.nextPriceDifference')} value={money(p.price_difference)} />}
        {p.pv_difference !== null && <FigureCard index={1} label={t('package.nextPvDifference')} value={money(p.pv_difference, VOLUME)} />}
        {p.plan.compensation_plan === 'matrix' && p.plan.matrix_width !== null && (
          <FigureCard index={2} label={t('package.matrix')} value={t('package.matrixShape', { width: p.plan.matrix_width, depth: p.plan.matrix_depth })} />
        )}
        {p.plan.level_percents.length > 0 && (
          <FigureCard
            index={3}
            label={t(p.plan.compensation_plan === 'matrix' ? 'package.levelCommissions' : 'package.generationCommissions')}
            value={p.plan.level_percents.map((x) => `${money(x, PERCENT)} %`).join(' · ')}
          />
        )}
      </SimpleGrid>
      <Group>
        <Button component={Link} href="/packages/payment" variant="light" data-package-payment="">
          {t(current ? 'package.buyUpgradeRenew' : 'package.buy')}
        </Button>
      </Group>
      <Section title={t('package.available')}>
        {p.packages.length ? (
          <Table.ScrollContainer minWidth={640}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('package.name')}</Table.Th>
                  <Table.Th scope="col">{t('package.price')}</Table.Th>
                  <Table.Th scope="col">{t('package.bv')}</Table.Th>
                  <Table.Th scope="col">{t('package.priceDifference')}</Table.Th>
                  <Table.Th scope="col">{t('package.pvDifference')}</Table.Th>
                  {p.direct_bonus && <Table.Th scope="col">{t('package.directBonus')}</Table.Th>}
                  {p.roi_bonus && <Table.Th scope="col">{t('package.roiBonus')}</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {p.packages.map((x) => (
                  <Table.Tr key={x.id} data-package={x.id}>
                    <Table.Th scope="row">
                      <Group gap={6}>
                        <Text size="sm" fw={600}>
                          {x.name}
                        </Text>
                        {x.is_current && <Badge size="xs">{t('package.currentBadge')}</Badge>}
                        {x.can_upgrade && (
                          <Badge size="xs" color="teal" variant="light">
                            {t('package.upgradeBadge')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Th>
                    <Table.Td>{money(x.price)}</Table.Td>
                    <Table.Td>{money(x.bv, VOLUME)}</Table.Td>
                    <Table.Td>{money(x.price_difference)}</Table.Td>
                    <Table.Td>{money(x.pv_difference, VOLUME)}</Table.Td>
                    {p.direct_bonus && <Table.Td>{money(x.direct_bonus, PERCENT)} %</Table.Td>}
                    {p.roi_bonus && <Table.Td>{money(x.roi_bonus, PERCENT)} %</Table.Td>}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : (
          <EmptyState title={t('empty.packagesTitle')} description={t('empty.packages')} />
        )}
      </Section>
    </Stack>
  );
}

export function PackageView({ actor }: { actor: ActorRefFrom<typeof homePackageMachine> }) {
  const { t } = useTranslation('dashboard');
  return (
    <LoadStates actor={actor as unknown as LoadActor<PackageData>} loadingLabel={t('loading')}>
      {(data) => <PackageContent data={data} />}
    </LoadStates>
  );
}
