/**
 * Layout of the public pages (spec §2): a small top bar with the language switch and the colour
 * toggle, the page centred with the company logo (max 50 px high) above it, and a footer with the
 * current year, the company name and a rights notice.
 */
import { Box, Container, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n/i18n';
import { APP_LANGUAGES } from '../../i18n/languages';
import type { Company } from '../../schemas/common.schema';
import { ColourSchemeToggle } from './colour-scheme-toggle';
import { LanguageSwitch, type LanguageOption } from './language-switch';
import { PlainImage } from './plain-boxes';

export interface PublicLayoutProps {
  company: Pick<Company, 'name' | 'logo'> | null | undefined;
  children: ReactNode;
  /** Content width in px; spec §9's narrow layout is 400. */
  width?: number;
  languages?: readonly LanguageOption[];
  currentLanguage?: string;
  onLanguage?: (code: string) => void;
}

export function PublicLayout({ company, children, width = 400, languages, currentLanguage, onLanguage }: PublicLayoutProps) {
  const { t, i18n } = useTranslation('common');
  const name = company?.name || t('appName');
  const year = new Date().getFullYear();
  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group component="header" justify="flex-end" gap="xs" px="md" py="xs">
        <LanguageSwitch
          languages={languages ?? APP_LANGUAGES}
          current={currentLanguage ?? i18n.resolvedLanguage ?? i18n.language}
          onChange={onLanguage ?? ((code) => void changeLanguage(code))}
        />
        <ColourSchemeToggle />
      </Group>
      <Container component="main" size={width} w="100%" px="md" py="lg" style={{ flex: 1, display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
        <Stack gap="lg">
          {company?.logo && (
            <PlainImage src={company.logo} alt={t('companyLogo', { company: name })} mah={50} w="auto" fit="contain" mx="auto" />
          )}
          <div>{children}</div>
        </Stack>
      </Container>
      <Box component="footer" py="md" px="md" ta="center">
        <Text size="sm" c="dimmed">
          {t('copyright', { year, company: name })}
        </Text>
      </Box>
    </Box>
  );
}
