/** Contact links of the blocked screens: e-mail, phone and messaging apps (spec §2). */
import { Anchor, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { mailtoLink, skypeLink, telLink, telegramLink, whatsappChatLink } from '../../lib/links';
import { ChatIcon, MailIcon, PhoneIcon, SendIcon } from './more-icons';

export interface ContactLinksProps {
  email?: string | null;
  phone?: string | null;
  /** Adds WhatsApp and Telegram chat links for the phone number. */
  messaging?: boolean;
  skype?: string | null;
}

function Row({ icon, label, href, value, external }: { icon: ReactNode; label: string; href: string; value: string; external?: boolean }) {
  const { t } = useTranslation('common');
  return (
    <Group gap="xs" wrap="nowrap" justify="center">
      <Text component="span" c="dimmed" style={{ display: 'inline-flex' }}>
        {icon}
      </Text>
      <Text component="span" size="sm" c="dimmed">
        {label}:
      </Text>
      <Anchor
        href={href}
        aria-label={`${label}: ${value}`}
        size="sm"
        style={{ overflowWrap: 'anywhere' }}
        {...(external ? { target: '_blank', rel: 'noopener noreferrer', title: `${value} ${t('contact.opensInNewTab')}` } : {})}
      >
        {value}
      </Anchor>
    </Group>
  );
}

export function ContactLinks({ email, phone, messaging = true, skype }: ContactLinksProps) {
  const { t } = useTranslation('common');
  const hasPhone = !!phone?.trim();
  return (
    <Stack gap={6} component="address" style={{ fontStyle: 'normal' }}>
      {email?.trim() && <Row icon={<MailIcon />} label={t('contact.email')} href={mailtoLink(email)} value={email.trim()} />}
      {hasPhone && <Row icon={<PhoneIcon />} label={t('contact.phone')} href={telLink(phone!)} value={phone!.trim()} />}
      {hasPhone && messaging && (
        <Row icon={<ChatIcon />} label={t('contact.whatsapp')} href={whatsappChatLink(phone!)} value={phone!.trim()} external />
      )}
      {hasPhone && messaging && (
        <Row icon={<SendIcon />} label={t('contact.telegram')} href={telegramLink(phone!)} value={phone!.trim()} external />
      )}
      {skype?.trim() && <Row icon={<ChatIcon />} label={t('contact.skype')} href={skypeLink(skype)} value={skype.trim()} />}
    </Stack>
  );
}
