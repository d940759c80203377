/**
 * `npm run theme:colours`: writes src/theme/readable-colour-values.ts, the readable text colours of the app's theme
 * (src/theme/readable-colours.ts, resolveReadableColours) worked out once, so the browser gets the answer instead
 * of the search. Run it after changing the theme's colours; tests/theme/readable-colours.test.ts says when.
 */
import { writeFileSync } from 'node:fs';
import { darken, DEFAULT_THEME, lighten, mergeMantineTheme } from '@mantine/core';
import { resolveReadableColours, STEP } from '../src/theme/readable-colours';
import { theme } from '../src/theme/theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const darker = (c: string) => darken(c, STEP);
const lighter = (c: string) => lighten(c, STEP);

/** `value` as `shade[.steps]` of `palette` (the shade pushed `steps` times by `step`), or null. */
function shadeOf(palette: string, value: string, step: (c: string) => string): string | null {
  for (let steps = 0; steps <= 40; steps++)
    for (const [shade, colour] of merged.colors[palette].entries()) {
      let c = colour;
      for (let i = 0; i < steps; i++) c = step(c);
      if (c === value) return steps ? `${shade}.${steps}` : `${shade}`;
    }
  return null;
}

function must<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`${what} is no shade of the theme's palettes`);
  return value;
}

/**
 * One scheme's colours in the form src/theme/readable-colours-resolved.ts reads: dimmed, placeholder and anchor as
 * `palette.shade[.steps]`, then for each palette (the theme's order, without dark) `text,light-color[,filled]` as
 * `shade[.steps]`: the palette's shade, pushed `steps` times by STEP (darker in the light scheme, lighter in the
 * dark one; a filled colour, which carries white text, always darker). A filled colour stands for its hover too
 * (a step darker); none is written where the palette's own filled shade stays.
 */
function encode(vars: Record<string, string>, step: (c: string) => string): string {
  const words: string[] = [];
  for (const name of ['dimmed', 'placeholder', 'anchor']) {
    const value = vars[`--mantine-color-${name}`];
    const found = Object.keys(merged.colors)
      .map((palette) => [palette, shadeOf(palette, value, step)] as const)
      .find(([, shade]) => shade !== null);
    const [palette, shade] = must(found ?? null, name);
    words.push(`${palette}.${shade}`);
  }
  const expected = new Set(Object.keys(vars));
  for (const palette of Object.keys(merged.colors).filter((p) => p !== 'dark')) {
    const v = (kind: string) => `--mantine-color-${palette}-${kind}`;
    const parts = [must(shadeOf(palette, vars[v('text')], step), v('text')), must(shadeOf(palette, vars[v('light-color')], step), v('light-color'))];
    expected.delete(v('text'));
    expected.delete(v('light-color'));
    if (vars[v('filled')]) {
      parts.push(must(shadeOf(palette, vars[v('filled')], darker), v('filled')));
      if (vars[v('filled-hover')] !== darker(vars[v('filled')])) throw new Error(`${v('filled-hover')} is not its filled colour a step darker`);
      expected.delete(v('filled'));
      expected.delete(v('filled-hover'));
    }
    words.push(parts.join(','));
  }
  for (const name of ['dimmed', 'placeholder', 'anchor']) expected.delete(`--mantine-color-${name}`);
  if (expected.size) throw new Error(`not written: ${[...expected].join(', ')}`);
  return words.join(' ');
}

const { light, dark } = resolveReadableColours(merged);

writeFileSync(
  new URL('../src/theme/readable-colour-values.ts', import.meta.url),
  `/**
 * The readable text colours of the app's theme (src/theme/readable-colours.ts explains them), as
 * resolveReadableColours answers for src/theme/theme.ts, in the few bytes src/theme/readable-colours-resolved.ts
 * reads them from (scripts/readable-colours.ts describes the form). Written by \`npm run theme:colours\`: do not
 * edit by hand; tests/theme/readable-colours.test.ts fails when it no longer matches the theme.
 */
export const READABLE_COLOURS = {
  light: '${encode(light, darker)}',
  dark: '${encode(dark, lighter)}',
};
`,
);
