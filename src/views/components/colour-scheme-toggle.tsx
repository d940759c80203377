/** Switches between light and dark; the choice is remembered by the colour-scheme manager. */
import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MoonIcon, SunIcon } from './icons';

export function ColourSchemeToggle() {
  const { t } = useTranslation('common');
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light', { getInitialValueInEffect: false });
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      onClick={() => setColorScheme(next)}
      aria-label={t(next === 'dark' ? 'colourScheme.toDark' : 'colourScheme.toLight')}
      title={t(next === 'dark' ? 'colourScheme.toDark' : 'colourScheme.toLight')}
    >
      {computed === 'dark' ? <SunIcon /> : <MoonIcon />}
    </ActionIcon>
  );
}
