/** A public page: the public layout with the company from the session's module data. */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../views/components/public-layout';
import { useSession } from './session-context';

export function PublicPage({ children, width }: { children: ReactNode; width?: number }) {
  const { moduleData, send } = useSession();
  const { i18n } = useTranslation('common');
  const languages = moduleData?.languages.length ? moduleData.languages : undefined;
  return (
    <PublicLayout
      company={moduleData?.company}
      width={width}
      languages={languages}
      currentLanguage={i18n.resolvedLanguage ?? i18n.language}
      onLanguage={(code) => send({ type: 'language.change', code })}
    >
      {children}
    </PublicLayout>
  );
}
