/**
 * /member/account: the profile hub — avatar, full name, username, member since and the KYC status (from
 * the server, linking to /member/kyc when the company uses KYC) — then every account setting as links in
 * groups (Profile, Security, Payouts, Preferences, Help), then "Your data": download it, or delete the
 * account. The links are given (derived from the menu), so the hub and the menu cannot disagree.
 */
import { Anchor, Avatar, Badge, Card, Group, NavLink, SimpleGrid, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { HubGroup } from '../../lib/account-hub';
import type { accountHubMachine } from '../../machines/account/account-hub.machine';
import type { AccountSummary } from '../../schemas/account-hub.schema';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { fullName, initials } from '../components/person';
import { useDisplayFormat } from '../member/display-format';
import { DataExportButton, type DataExportActor } from './data-export.view';
import { SupportSnapshotPanel } from '../support/support-snapshot.view';

const KYC_COLOUR: Record<AccountSummary['kyc_status'], string> = { not_submitted: 'gray', pending: 'yellow', approved: 'teal', rejected: 'red' };

export interface AccountHubViewProps {
  actor: ActorRefFrom<typeof accountHubMachine>;
  exporter: DataExportActor;
  groups: HubGroup[];
  /** The KYC page's path when the company uses KYC (the status links there). */
  kycLink: string | null;
}

function Profile({ member, kycLink }: { member: AccountSummary; kycLink: string | null }) {
  const { t } = useTranslation('account');
  const { day } = useDisplayFormat();
  const name = fullName(member);
  const status = (
    <Badge color={KYC_COLOUR[member.kyc_status]} variant="light" data-kyc-status={member.kyc_status}>
      {t(`hub.kycStatus.${member.kyc_status}`)}
    </Badge>
  );
  return (
    <Card withBorder radius="md" padding="lg" data-account-profile>
      <Group wrap="nowrap" align="flex-start" gap="md">
        <Avatar src={member.avatar || null} alt={name} size={72} radius="xl" color="upline">
          {initials(member)}
        </Avatar>
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }} data-account-name>
            {name}
          </Text>
          <Text c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }} data-account-username>
            <VisuallyHidden>{t('hub.username')}: </VisuallyHidden>@{member.username}
          </Text>
          <Text size="sm">{t('hub.memberSince', { date: day(member.member_since) })}</Text>
          <Group gap="xs" wrap="wrap">
            <Text size="sm">{t('hub.kyc')}:</Text>
            {kycLink ? (
              <Anchor component={Link} href={`~${kycLink}`} aria-label={`${t('hub.kycLink')}: ${t(`hub.kycStatus.${member.kyc_status}`)}`}>
                {status}
              </Anchor>
            ) : (
              status
            )}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}

function Groups({ groups }: { groups: HubGroup[] }) {
  const { t } = useTranslation(['account', 'common']);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      {groups.map((g) => (
        <Card key={g.id} withBorder radius="md" padding="md" component="section" aria-labelledby={`hub-group-${g.id}`} data-hub-group={g.id}>
          <Title order={2} size="h5" id={`hub-group-${g.id}`} mb="xs">
            {t(`account:hub.groups.${g.id}`)}
          </Title>
          <Stack gap={0} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {g.links.map((l) => (
              <li key={l.link}>
                <NavLink component={Link} href={`~${l.link}`} label={t(l.labelKey)} data-hub-link={l.id} />
              </li>
            ))}
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

export function AccountHubView({ actor, exporter, groups, kycLink }: AccountHubViewProps) {
  const { t } = useTranslation('account');
  const { t: tSupport } = useTranslation('support');
  const value = useSelector(actor, (s) => s.value as string);
  const member = useSelector(actor, (s) => s.context.data);

  if (value === 'connectionError' || value === 'error')
    return (
      <>
        <Title order={1} size="h2">
          {t('hub.title')}
        </Title>
        <ErrorView kind={value === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'load.retry' })} />
      </>
    );
  if (!member || value === 'forceLogout') return <PageLoader />;

  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('hub.title')}
      </Title>
      <Profile member={member} kycLink={kycLink} />
      <Groups groups={groups} />
      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="hub-your-data" data-hub-group="data">
        <Title order={2} size="h5" id="hub-your-data">
          {t('hub.yourData')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t('hub.yourDataDescription')}
        </Text>
        <Group gap="md" align="flex-start" wrap="wrap">
          <DataExportButton actor={exporter} />
          <Anchor component={Link} href="/account/delete" c="red" py={6} data-hub-link="deleteAccount">
            {t('hub.deleteLink')}
          </Anchor>
        </Group>
      </Card>
      <Card withBorder radius="md" padding="md" component="section" aria-labelledby="hub-support" data-hub-group="support">
        <Title order={2} size="h5" id="hub-support">
          {tSupport('snapshot.title')}
        </Title>
        <SupportSnapshotPanel />
      </Card>
    </Stack>
  );
}
