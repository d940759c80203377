/**
 * /member/account/more: on a phone the bottom bar shows a few sections; this page lists the rest of the
 * menu (given, derived from the same menu), each section with its pages.
 */
import { Card, NavLink, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageIntro } from '../components/page-intro';
import { Link } from 'wouter';
import type { MenuEntry } from '../../lib/menu';
import { MenuIconView } from '../member/menu-icons';

export function MoreView({ entries }: { entries: MenuEntry[] }) {
  const { t } = useTranslation(['account', 'common']);
  return (
    <Stack gap="md" maw={640}>
      <PageIntro title={t('account:more.title')} description={t('account:more.description')} />
      {entries.length === 0 ? (
        <Text>{t('account:more.empty')}</Text>
      ) : (
        <Card withBorder radius="md" padding={0} component="nav" aria-label={t('account:more.title')}>
          <Stack gap={0} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {entries.map((e) => (
              <li key={e.id} data-more-entry={e.id}>
                <NavLink component={Link} href={`~${e.link}`} label={t(e.labelKey)} leftSection={<MenuIconView name={e.icon} />} />
                {e.children && e.children.length > 1 && (
                  <Stack gap={0} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} pl="xl">
                    {e.children.map((c) => (
                      <li key={c.id}>
                        <NavLink component={Link} href={`~${c.link}`} label={t(c.labelKey)} data-more-child={c.id} />
                      </li>
                    ))}
                  </Stack>
                )}
              </li>
            ))}
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
