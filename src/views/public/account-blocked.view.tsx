/**
 * Account blocked (spec §2): denied illustration, heading, how to reach support (support e-mail, or
 * the company e-mail when that is invalid; phone with messaging-app links), Try again, and Logout
 * for signed-in members. The session decides whether this screen applies; this view only renders.
 */
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { validSupportEmail } from '../../lib/links';
import type { Company } from '../../schemas/common.schema';
import { ContactLinks } from '../components/contact-links';
import { BlockedScreen } from './blocked-screen';

export interface AccountBlockedViewProps {
  company: Pick<Company, 'name' | 'support_email' | 'email' | 'phone'> | null;
  authenticated: boolean;
  busy: boolean;
  onTryAgain: () => void;
  onLogout: () => void;
}

export function AccountBlockedView({ company, ...rest }: AccountBlockedViewProps) {
  const { t } = useTranslation('common');
  return (
    <BlockedScreen
      image="/images/denied.svg"
      title={t('accountBlocked.title')}
      description={t('accountBlocked.description')}
      contact={
        company && (
          <Stack gap={6} align="center">
            <Text size="sm" fw={500}>
              {t('accountBlocked.contactIntro')}
            </Text>
            <ContactLinks email={validSupportEmail(company)} phone={company.phone} messaging />
          </Stack>
        )
      }
      {...rest}
    />
  );
}
