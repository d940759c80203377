/**
 * The readable text colours of src/theme/readable-colours.ts as MantineProvider's cssVariablesResolver, read from
 * what `npm run theme:colours` worked out for the app's theme (src/theme/readable-colour-values.ts; its form is
 * described in scripts/readable-colours.ts): the browser looks a few shades up instead of searching for them by
 * contrast at start.
 */
import { darken, lighten, type CSSVariablesResolver } from '@mantine/core';
import { READABLE_COLOURS } from './readable-colour-values';
import { STEP } from './readable-colours';

type Theme = Parameters<CSSVariablesResolver>[0];
const darker = (c: string) => darken(c, STEP);

function variables(theme: Theme, encoded: string, step: (c: string) => string): Record<string, string> {
  /** `shade[.steps]` of `palette`: the shade pushed `steps` times by `push`. */
  const colour = (palette: string, ref: string, push = step) => {
    const [shade, steps = 0] = ref.split('.');
    let c = theme.colors[palette][+shade];
    for (let i = 0; i < +steps; i++) c = push(c);
    return c;
  };
  const [dimmed, placeholder, anchor, ...palettes] = encoded.split(' ');
  const vars: Record<string, string> = {};
  for (const [name, ref] of [['dimmed', dimmed], ['placeholder', placeholder], ['anchor', anchor]]) {
    const dot = ref.indexOf('.');
    vars[`--mantine-color-${name}`] = colour(ref.slice(0, dot), ref.slice(dot + 1));
  }
  Object.keys(theme.colors)
    .filter((palette) => palette !== 'dark')
    .forEach((palette, i) => {
      const [text, lightColour, filled] = palettes[i].split(',');
      const v = `--mantine-color-${palette}-`;
      vars[`${v}text`] = colour(palette, text);
      vars[`${v}light-color`] = colour(palette, lightColour);
      if (filled) {
        vars[`${v}filled`] = colour(palette, filled, darker);
        vars[`${v}filled-hover`] = darker(vars[`${v}filled`]);
      }
    });
  return vars;
}

export const readableColours: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: variables(theme, READABLE_COLOURS.light, darker),
  dark: variables(theme, READABLE_COLOURS.dark, (c) => lighten(c, STEP)),
});
