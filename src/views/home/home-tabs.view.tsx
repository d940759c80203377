/** /member/home: the tabs dashboard, binary (binary plans only), package, rank (links, keyboard-navigable) and the active tab's content. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionSelector } from '../../app/session-context';
import type { Plan } from '../../schemas/common.schema';
import { TabbedPage } from '../components/tabbed-page';

export const HOME_TABS = ['dashboard', 'binary', 'package', 'rank'] as const;
export type HomeTab = (typeof HOME_TABS)[number];

/** The tabs a company on `plan` shows: the binary summary only in a binary plan. */
export const homeTabs = (plan: Plan | undefined): readonly HomeTab[] => ((plan ?? 'binary') === 'binary' ? HOME_TABS : HOME_TABS.filter((k) => k !== 'binary'));

export function HomeTabsView({ tab, children }: { tab: HomeTab; children: ReactNode }) {
  const { t } = useTranslation('dashboard');
  const plan = useSessionSelector((s) => s.context.moduleData?.modules.compensation_plan);
  return (
    <TabbedPage title={t('title')} tabs={homeTabs(plan)} tab={tab} label={(k) => t(`tabs.${k}`)} href={(k) => `/home/${k}`}>
      {children}
    </TabbedPage>
  );
}
