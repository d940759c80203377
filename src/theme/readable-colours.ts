/**
 * Text that is read, in both colour schemes, at WCAG AA contrast (4.5:1) or better: Mantine's grey
 * "dimmed" text (#868e96 on white is 3.3:1) and its coloured text (`c="red"` is red.6, 3.3:1; teal.6
 * is 2.6:1) are replaced by the first shade of the same colour that is readable on the page's
 * background, darkened (light scheme) or lightened (dark scheme) a little more where no shade is.
 *
 * The colours depend on the theme alone, so they are worked out ahead: `npm run theme:colours` writes what
 * `resolveReadableColours` answers for the app's theme into src/theme/readable-colour-values.ts, and the app hands
 * MantineProvider src/theme/readable-colours-resolved.ts, which reads them from there (no contrast search in the
 * browser at start, and none of this code in its scripts). tests/theme/readable-colours.test.ts fails when that file no longer matches the theme.
 */
import { darken, lighten, luminance, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

export const READABLE_CONTRAST = 4.5;
/** How much darker (light scheme) or lighter (dark scheme) a colour is pushed at a time where no shade is readable. */
export const STEP = 0.05;
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

/** `colour` laid over `background` at `alpha` (how a translucent "light" variant background reads). */
function over(colour: string, background: string, alpha: number): string {
  const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const [a, b] = [rgb(colour), rgb(background)];
  return `#${a.map((x, i) => Math.round(x * alpha + b[i] * (1 - alpha)).toString(16).padStart(2, '0')).join('')}`;
}

/** The first of `candidates` readable on every one of `backgrounds`, pushed by `step` where none is. */
function readableOnAll(candidates: string[], backgrounds: string[], step: (c: string) => string): string {
  const ok = (c: string) => backgrounds.every((b) => contrast(c, b) >= READABLE_CONTRAST);
  for (const c of candidates) if (ok(c)) return c;
  let c = candidates[candidates.length - 1];
  for (let i = 0; i < 40 && !ok(c); i++) c = step(c);
  return c;
}

/** The readable colours of `theme` (the theme as MantineProvider merges it with Mantine's defaults). */
export const resolveReadableColours: CSSVariablesResolver = (theme) => {
  const darkBody = theme.colors.dark[7];
  const primary = theme.colors[theme.primaryColor];
  // Where text is read in the light scheme: the page, grey panels and striped rows, the primary-tinted
  // active menu entry; in the dark scheme: the page and the cards and inputs a shade lighter.
  const lightSurfaces = [LIGHT_BODY, theme.colors.gray[0], theme.colors.gray[1], primary[1]];
  const darkSurfaces = [darkBody, theme.colors.dark[6]];
  const darker = (c: string) => darken(c, STEP);
  const lighter = (c: string) => lighten(c, STEP);
  const light: Record<string, string> = {
    '--mantine-color-dimmed': readableOnAll([theme.colors.gray[6], theme.colors.gray[7]], lightSurfaces, darker),
    '--mantine-color-placeholder': readableOnAll([theme.colors.gray[6], theme.colors.gray[7]], [LIGHT_BODY], darker),
    '--mantine-color-anchor': readableOnAll(primary.slice(6), lightSurfaces, darker),
  };
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': readableOnAll([theme.colors.dark[2], theme.colors.dark[1]], darkSurfaces, lighter),
    '--mantine-color-placeholder': readableOnAll([theme.colors.dark[2], theme.colors.dark[1]], darkSurfaces, lighter),
    '--mantine-color-anchor': readableOnAll([primary[4], primary[3], primary[2], primary[1]], darkSurfaces, lighter),
  };
  for (const [name, shades] of Object.entries(theme.colors) as [string, MantineColorsTuple][]) {
    if (name === 'dark') continue;
    light[`--mantine-color-${name}-text`] = readable(shades.slice(6), LIGHT_BODY, darker);
    dark[`--mantine-color-${name}-text`] = readableOnAll([shades[4], shades[3], shades[2]], darkSurfaces, lighter);
    // The "light" variant (badges, light buttons, alerts): its text on its own tinted background.
    light[`--mantine-color-${name}-light-color`] = readableOnAll(shades.slice(7), [shades[1], over(shades[6], LIGHT_BODY, 0.12), over(shades[6], theme.colors.gray[0], 0.12)], darker);
    dark[`--mantine-color-${name}-light-color`] = readableOnAll([shades[3], shades[2], shades[1]], darkSurfaces.map((b) => over(shades[8], b, 0.2)), lighter);
    // The "filled" variant carries white text: the first shade that keeps it readable.
    // (Filled is shade 6 in the light scheme and shade 7 in the dark one, as the primary's.)
    for (const [vars, from] of [
      [light, 6],
      [dark, 7],
    ] as const) {
      const filled = readableOnAll(shades.slice(from), ['#ffffff'], darker);
      if (filled === shades[from]) continue;
      vars[`--mantine-color-${name}-filled`] = filled;
      vars[`--mantine-color-${name}-filled-hover`] = darker(filled);
    }
  }
  return { variables: {}, light, dark };
};
