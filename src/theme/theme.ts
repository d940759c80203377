/**
 * The app theme (spec §1, §9): Ubuntu font, a violet-blue primary colour, the spec's breakpoints,
 * light colour scheme by default (the scheme itself is chosen by MantineProvider with
 * `colourSchemeManager` from src/lib/colour-scheme.ts).
 */
import { createTheme, type MantineColorsTuple } from '@mantine/core';
import { FONT_FALLBACK } from '../app/server-page';

/** Violet-blue, lightest (0) to darkest (9). Shade 6 is the light-scheme primary (white text ≥ 6:1). */
export const uplineViolet: MantineColorsTuple = [
  '#f0eeff',
  '#dedaff',
  '#bab1fb',
  '#9486f7',
  '#7461f3',
  '#604af1',
  '#553ef0',
  '#4631d6',
  '#3d2bc0',
  '#3122a9',
];

const fontStack = `Ubuntu, ${FONT_FALLBACK}`;

/**
 * Breakpoints of spec §9: tabletSmall 37.5em (600 px), tabletLarge 48em (768 px), desktop 64em
 * (1024 px), desktopLarge 75em (1200 px); xl is a wide-desktop step above those.
 * postcss.config.cjs repeats these values for `$mantine-breakpoint-*` in CSS files.
 */
export const breakpoints = {
  xs: '37.5em',
  sm: '48em',
  md: '64em',
  lg: '75em',
  xl: '88em',
} as const;

export const theme = createTheme({
  primaryColor: 'upline',
  primaryShade: { light: 6, dark: 7 },
  colors: { upline: uplineViolet },
  fontFamily: fontStack,
  headings: { fontFamily: fontStack, fontWeight: '500' },
  breakpoints,
  defaultRadius: 'md',
  /** Keyboard users always see where focus is; mouse clicks do not leave rings behind. */
  focusRing: 'auto',
  cursorType: 'pointer',
  respectReducedMotion: true,
  other: {
    /** Spec §9 sizes shared by layouts. */
    logoMaxHeight: 50,
    contentPadding: 25,
    errorImageHeight: '25vh',
  },
});
