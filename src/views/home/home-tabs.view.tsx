/** /member/home: the tabs dashboard, binary, package, rank (links, keyboard-navigable) and the active tab's content. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TabbedPage } from '../components/tabbed-page';

export const HOME_TABS = ['dashboard', 'binary', 'package', 'rank'] as const;
export type HomeTab = (typeof HOME_TABS)[number];

export function HomeTabsView({ tab, children }: { tab: HomeTab; children: ReactNode }) {
  const { t } = useTranslation('dashboard');
  return (
    <TabbedPage title={t('title')} tabs={HOME_TABS} tab={tab} label={(k) => t(`tabs.${k}`)} href={(k) => `/home/${k}`}>
      {children}
    </TabbedPage>
  );
}
