/**
 * Switches between light and dark; the choice is remembered by the colour-scheme manager. Reads and sets the scheme
 * on MantineProvider's context as Mantine's useMantineColorScheme/useComputedColorScheme do, without the rest of
 * those hooks on the first page.
 */
import { ActionIcon, useMantineContext } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { MoonIcon, SunIcon } from './icons';

/** As Mantine does on a switch: no transitions for a moment, so the page does not animate into the other scheme. */
function pauseTransitions(nonce: string | undefined): void {
  const style = document.createElement('style');
  style.setAttribute('data-mantine-styles', 'inline');
  style.innerHTML = '*, *::before, *::after {transition: none !important;}';
  style.setAttribute('data-mantine-disable-transition', 'true');
  if (nonce) style.setAttribute('nonce', nonce);
  document.head.appendChild(style);
  window.setTimeout(() => style.remove(), 10);
}

export function ColourSchemeToggle() {
  const { t } = useTranslation('common');
  const mantine = useMantineContext();
  const osDark = useMediaQuery('(prefers-color-scheme: dark)', false, { getInitialValueInEffect: false });
  const computed = mantine.colorScheme === 'auto' ? (osDark ? 'dark' : 'light') : mantine.colorScheme;
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      onClick={() => {
        mantine.setColorScheme(next);
        pauseTransitions(mantine.getStyleNonce?.());
      }}
      aria-label={t(next === 'dark' ? 'colourScheme.toDark' : 'colourScheme.toLight')}
      title={t(next === 'dark' ? 'colourScheme.toDark' : 'colourScheme.toLight')}
    >
      {computed === 'dark' ? <SunIcon /> : <MoonIcon />}
    </ActionIcon>
  );
}
