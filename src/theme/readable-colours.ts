/**
 * Text that is read, in both colour schemes, at WCAG AA contrast (4.5:1) or better: Mantine's grey
 * "dimmed" text (#868e96 on white is 3.3:1) and its coloured text (`c="red"` is red.6, 3.3:1; teal.6
 * is 2.6:1) are replaced by the first shade of the same colour that is readable on the page's
 * background, darkened (light scheme) or lightened (dark scheme) a little more where no shade is.
 */
import { darken, lighten, luminance, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

export const READABLE_CONTRAST = 4.5;
const LIGHT_BODY = '#ffffff';

export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** The first colour of `candidates` readable on `background`, else the last one pushed by `step` until it is. */
function readable(candidates: string[], background: string, step: (c: string) => string): string {
  for (const c of candidates) if (contrast(c, background) >= READABLE_CONTRAST) return c;
  let c = candidates[candidates.length - 1];
  for (let i = 0; i < 40 && contrast(c, background) < READABLE_CONTRAST; i++) c = step(c);
  return c;
}

export const readableColours: CSSVariablesResolver = (theme) => {
  const darkBody = theme.colors.dark[7];
  const light: Record<string, string> = {
    '--mantine-color-dimmed': readable([theme.colors.gray[6]], LIGHT_BODY, (c) => darken(c, 0.05)),
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': readable([theme.colors.dark[2], theme.colors.dark[1]], darkBody, (c) => lighten(c, 0.05)),
  };
  for (const [name, shades] of Object.entries(theme.colors) as [string, MantineColorsTuple][]) {
    if (name === 'dark') continue;
    light[`--mantine-color-${name}-text`] = readable(shades.slice(6), LIGHT_BODY, (c) => darken(c, 0.05));
    dark[`--mantine-color-${name}-text`] = readable([shades[4], shades[3], shades[2]], darkBody, (c) => lighten(c, 0.05));
  }
  return { variables: {}, light, dark };
};
