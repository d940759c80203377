/**
 * Demo blocked (spec §2): support illustration, heading, contact text with messaging links from the
 * demo contact phone (plus the demo contact e-mail, or the company's support e-mail, and Skype),
 * the privacy policy, Try again, and Logout for signed-in visitors.
 */
import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { validSupportEmail } from '../../lib/links';
import type { Company, DemoInfo } from '../../schemas/common.schema';
import { ContactLinks } from '../components/contact-links';
import { BlockedScreen } from './blocked-screen';

export interface DemoBlockedViewProps {
  demoInfo: Pick<DemoInfo, 'contact_email' | 'contact_phone' | 'contact_skype' | 'messenger_name' | 'privacy_policy_url'> | null;
  company: Pick<Company, 'name' | 'support_email' | 'email' | 'phone'> | null;
  authenticated: boolean;
  busy: boolean;
  onTryAgain: () => void;
  onLogout: () => void;
}

export function DemoBlockedView({ demoInfo, company, ...rest }: DemoBlockedViewProps) {
  const { t } = useTranslation('common');
  const email = demoInfo?.contact_email?.trim() || (company ? validSupportEmail(company) : null);
  const phone = demoInfo?.contact_phone?.trim() || null;
  const person = demoInfo?.messenger_name?.trim();
  return (
    <BlockedScreen
      image="/images/support.svg"
      title={t('demoBlocked.title')}
      description={t('demoBlocked.description')}
      contact={
        (email || phone || demoInfo?.contact_skype) && (
          <Stack gap={6} align="center">
            <Text size="sm" fw={500}>
              {t('demoBlocked.contactIntro')} {person ? t('demoBlocked.contactPerson', { name: person }) : null}
            </Text>
            <ContactLinks email={email} phone={phone} messaging skype={demoInfo?.contact_skype} />
          </Stack>
        )
      }
      footer={
        demoInfo?.privacy_policy_url && (
          <Anchor href={demoInfo.privacy_policy_url} target="_blank" rel="noopener noreferrer" size="sm">
            {t('demoBlocked.privacyPolicy')}
          </Anchor>
        )
      }
      {...rest}
    />
  );
}
