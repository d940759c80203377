/** A member page the member's role, account type or the company's switches do not allow (spec §6). */
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../components/empty-state';

/** `messageKey` is namespaced (`referral:forbidden`); its namespace is loaded before it shows. */
export function ForbiddenView({ messageKey }: { messageKey: string }) {
  const { t } = useTranslation(messageKey.split(':')[0]);
  return <EmptyState title={t(messageKey)} description=" " />;
}
