/** The Network page frame: title and the genealogy / tabular / downline tabs (links, so each has its URL). */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TabbedPage } from '../components/tabbed-page';

export type NetworkTab = 'genealogy' | 'tabular' | 'downline';
export const NETWORK_TABS: NetworkTab[] = ['genealogy', 'tabular', 'downline'];

export function NetworkPageView({ tab, children }: { tab: NetworkTab; children: ReactNode }) {
  const { t } = useTranslation('network');
  return (
    <TabbedPage title={t('title')} tabs={NETWORK_TABS} tab={tab} label={(k) => t(`tabs.${k}`)} href={(k) => `~/member/network/${k}`}>
      {children}
    </TabbedPage>
  );
}
