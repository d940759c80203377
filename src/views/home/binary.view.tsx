/** The binary tab (spec §3 Binary summary): bonus, leg volumes and carries, downline counts, placement and sponsor. */
import { SimpleGrid, Stack, Table } from '@mantine/core';
import type { ActorRefFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import type { homeBinaryMachine } from '../../machines/home.machine';
import type { BinarySummary } from '../../schemas/home.schema';
import { fullName } from '../components/person';
import { useDisplayFormat } from '../member/display-format';
import { Section } from './dashboard.view';
import { FigureCard, VOLUME } from './figure-card';
import { LoadStates, type LoadActor } from './load-states';

export function BinaryContent({ data: b }: { data: BinarySummary }) {
  const { t } = useTranslation('dashboard');
  const { money } = useDisplayFormat();
  const leg = (l: 'L' | 'R' | null) => (l ? t(l === 'L' ? 'binary.left' : 'binary.right') : t('binary.none'));
  const person = (first: string | null, last: string | null) => (first ? fullName({ first_name: first, last_name: last }) : t('binary.none'));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
        <FigureCard index={0} label={t('binary.totalBonus')} value={money(b.total_bonus)} />
        <FigureCard index={1} label={t('binary.leftDownlines')} value={b.left_downline_count} />
        <FigureCard index={2} label={t('binary.rightDownlines')} value={b.right_downline_count} />
      </SimpleGrid>
      <Section title={t('binary.volumes')}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th />
              <Table.Th scope="col">{t('binary.left')}</Table.Th>
              <Table.Th scope="col">{t('binary.right')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th scope="row">{t('binary.total')}</Table.Th>
              <Table.Td>{money(b.total_left, VOLUME)}</Table.Td>
              <Table.Td>{money(b.total_right, VOLUME)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('binary.carry')}</Table.Th>
              <Table.Td>{money(b.carry_left, VOLUME)}</Table.Td>
              <Table.Td>{money(b.carry_right, VOLUME)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Section>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <FigureCard index={3} label={t('binary.position')} value={leg(b.position)} />
        <FigureCard index={4} label={t('binary.defaultLeg')} value={leg(b.default_leg)} />
        <FigureCard index={5} label={t('binary.placement')} value={person(b.placement_first_name, b.placement_last_name)} />
        <FigureCard index={0} label={t('binary.sponsor')} value={person(b.sponsor_first_name, b.sponsor_last_name)} />
      </SimpleGrid>
    </Stack>
  );
}

export function BinaryView({ actor }: { actor: ActorRefFrom<typeof homeBinaryMachine> }) {
  const { t } = useTranslation('dashboard');
  return (
    <LoadStates actor={actor as unknown as LoadActor<BinarySummary>} loadingLabel={t('loading')}>
      {(data) => <BinaryContent data={data} />}
    </LoadStates>
  );
}
