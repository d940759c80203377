import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { readableColours } from '../../src/theme/readable-colours-resolved';
import { contrast, resolveReadableColours } from '../../src/theme/readable-colours';
import { theme } from '../../src/theme/theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const resolved = readableColours(merged) as { light: Record<string, string>; dark: Record<string, string>; variables: Record<string, string> };
const darkBody = DEFAULT_THEME.colors.dark[7];

describe('readable text colours', () => {
  it('the colours the app is given are what the resolver answers for its theme (else: npm run theme:colours)', () => {
    expect(resolved).toEqual(resolveReadableColours(merged));
    expect(Object.keys(resolved.light).length).toBeGreaterThan(40);
  });

  it('grey "dimmed" text reads at 4.5:1 or better on the page in both schemes (Mantine\'s own is 3.3:1 on white)', () => {
    expect(contrast(DEFAULT_THEME.colors.gray[6], '#ffffff')).toBeLessThan(4.5);
    expect(contrast(resolved.light['--mantine-color-dimmed'], '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(resolved.dark['--mantine-color-dimmed'], darkBody)).toBeGreaterThanOrEqual(4.5);
  });

  it('every coloured text (debits in red, credits in teal, warnings in yellow…) reads at 4.5:1 or better in both schemes', () => {
    const names = Object.keys(merged.colors).filter((n) => n !== 'dark');
    expect(names).toEqual(expect.arrayContaining(['red', 'teal', 'green', 'yellow', 'orange', 'gray', 'upline']));
    for (const name of names) {
      const light = resolved.light[`--mantine-color-${name}-text`];
      const dark = resolved.dark[`--mantine-color-${name}-text`];
      expect(contrast(light, '#ffffff'), `${name} on white: ${light}`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark, darkBody), `${name} on dark: ${dark}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps a colour\'s own shade where one is readable (red text is red.8, not black)', () => {
    expect(resolved.light['--mantine-color-red-text']).toBe(DEFAULT_THEME.colors.red[8]);
  });

  it('links, placeholders and dimmed text read on every surface they sit on: grey panels, the active menu entry, dark cards', () => {
    const lightSurfaces = ['#ffffff', DEFAULT_THEME.colors.gray[0], DEFAULT_THEME.colors.gray[1], merged.colors.upline[1]];
    const darkSurfaces = [darkBody, DEFAULT_THEME.colors.dark[6]];
    for (const v of ['--mantine-color-dimmed', '--mantine-color-anchor']) {
      for (const b of lightSurfaces) expect(contrast(resolved.light[v], b), `${v} on ${b}`).toBeGreaterThanOrEqual(4.5);
      for (const b of darkSurfaces) expect(contrast(resolved.dark[v], b), `${v} on ${b} (dark)`).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast(resolved.light['--mantine-color-placeholder'], '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // The primary's own link shade (#7461f3) is 3.5:1 on the dark page: a lighter one is used.
    expect(contrast(merged.colors.upline[4], darkBody)).toBeLessThan(4.5);
  });

  it('badge and light-button text reads on its tinted background; white reads on every filled colour', () => {
    const names = Object.keys(merged.colors).filter((n) => n !== 'dark');
    for (const name of names) {
      const shades = merged.colors[name];
      const text = resolved.light[`--mantine-color-${name}-light-color`];
      expect(contrast(text, shades[1]), `${name} light variant: ${text} on ${shades[1]}`).toBeGreaterThanOrEqual(4.5);
      const filled = resolved.light[`--mantine-color-${name}-filled`] ?? shades[6];
      expect(contrast('#ffffff', filled), `white on ${name} filled ${filled}`).toBeGreaterThanOrEqual(4.5);
      const darkFilled = resolved.dark[`--mantine-color-${name}-filled`] ?? shades[7];
      expect(contrast('#ffffff', darkFilled), `white on ${name} filled ${darkFilled} (dark)`).toBeGreaterThanOrEqual(4.5);
    }
  });
});
