/**
 * The member area's frame: a header with the company (or app) name, the member's avatar and full
 * name, the language switch, the colour toggle and Logout, and the content area (25 px padding,
 * spec §9). Works from 360 px wide: below the small-tablet breakpoint the member's name and the
 * Logout text hide (the avatar and the labelled Logout icon stay).
 */
import '../../theme/member-css';
import { AppShell, Avatar, Button, Group, Image, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Company, User } from '../../schemas/common.schema';
import { ColourSchemeToggle } from '../components/colour-scheme-toggle';
import { LogoutIcon } from '../components/icons';
import { LanguageSwitch, type LanguageOption } from '../components/language-switch';
import { OverlaySpinner } from '../components/overlay-spinner';
import { fullName, initials } from '../components/person';

export const HEADER_HEIGHT = 60;
export const CONTENT_PADDING = 25;

export interface MemberShellViewProps {
  user: Pick<User, 'first_name' | 'last_name' | 'avatar' | 'username'>;
  company?: Pick<Company, 'name' | 'logo_small' | 'logo'> | null;
  languages: readonly LanguageOption[];
  currentLanguage: string;
  onLanguage: (code: string) => void;
  onLogout: () => void;
  /** Logging out: buttons disabled, overlay shown. */
  busy?: boolean;
  children: ReactNode;
}

export function MemberShellView({
  user,
  company,
  languages,
  currentLanguage,
  onLanguage,
  onLogout,
  busy = false,
  children,
}: MemberShellViewProps) {
  const { t } = useTranslation('common');
  const name = fullName(user);
  const brand = company?.name || t('appName');
  const logo = company?.logo_small;
  return (
    <AppShell data-shell="member" header={{ height: HEADER_HEIGHT }} padding={CONTENT_PADDING}>
      <AppShell.Header px="sm">
        <Group h="100%" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" miw={0}>
            {logo && <Image src={logo} alt="" h={32} w={32} fit="contain" />}
            <Text fw={700} size="lg" truncate="end" component="span">
              {brand}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
            <Group gap="xs" wrap="nowrap" aria-label={t('userMenu', { name })} role="group">
              <Avatar src={user.avatar || null} alt={name} radius="xl" size={32} color="upline">
                {initials(user)}
              </Avatar>
              <Text size="sm" fw={500} visibleFrom="xs" truncate="end" maw={180}>
                {name}
              </Text>
            </Group>
            <LanguageSwitch languages={languages} current={currentLanguage} onChange={onLanguage} />
            <ColourSchemeToggle />
            <Button
              variant="default"
              size="compact-md"
              h={34}
              onClick={onLogout}
              disabled={busy}
              aria-label={t('logout')}
              title={t('logout')}
              px={8}
            >
              <LogoutIcon size={16} />
              <Text span inherit visibleFrom="xs" ml={6}>
                {t('logout')}
              </Text>
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main aria-label={t('mainContent')}>{children}</AppShell.Main>
      <OverlaySpinner visible={busy} />
    </AppShell>
  );
}
