import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrast, readableColours } from '../../src/theme/readable-colours';
import { theme } from '../../src/theme/theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const resolved = readableColours(merged);
const darkBody = DEFAULT_THEME.colors.dark[7];

describe('readable text colours', () => {
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
});
