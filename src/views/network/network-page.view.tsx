/** The Network page frame: title and the genealogy / tabular / downline tabs (links, so each has its URL). */
import { Tabs, Title, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';

export type NetworkTab = 'genealogy' | 'tabular' | 'downline';
export const NETWORK_TABS: NetworkTab[] = ['genealogy', 'tabular', 'downline'];

export function NetworkPageView({ tab, children }: { tab: NetworkTab; children: ReactNode }) {
  const { t } = useTranslation('network');
  const [, navigate] = useLocation();
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('title')}
      </Title>
      <Tabs value={tab} onChange={(v) => v && navigate(`~/member/network/${v}`)} keepMounted={false}>
        <Tabs.List>
          {NETWORK_TABS.map((k) => (
            <Tabs.Tab key={k} value={k}>
              {t(`tabs.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {children}
    </Stack>
  );
}
