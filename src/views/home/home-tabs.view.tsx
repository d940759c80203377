/** /member/home: the tabs dashboard, binary, package, rank (links, keyboard-navigable) and the active tab's content. */
import { Tabs, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export const HOME_TABS = ['dashboard', 'binary', 'package', 'rank'] as const;
export type HomeTab = (typeof HOME_TABS)[number];

export function HomeTabsView({ tab, onTab, children }: { tab: HomeTab; onTab: (tab: HomeTab) => void; children: ReactNode }) {
  const { t } = useTranslation('dashboard');
  return (
    <div>
      <Title order={1} size="h2" mb="md">
        {t('title')}
      </Title>
      <Tabs value={tab} onChange={(v) => v && onTab(v as HomeTab)} keepMounted={false} mb="md">
        <Tabs.List>
          {HOME_TABS.map((k) => (
            <Tabs.Tab key={k} value={k}>
              {t(`tabs.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={tab} pt="md">
          {children}
        </Tabs.Panel>
      </Tabs>
    </div>
  );
}
