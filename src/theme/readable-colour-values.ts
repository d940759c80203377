/**
 * The readable text colours of the app's theme (src/theme/readable-colours.ts explains them), as
 * resolveReadableColours answers for src/theme/theme.ts, in the few bytes src/theme/readable-colours-resolved.ts
 * reads them from (scripts/readable-colours.ts describes the form). Written by `npm run theme:colours`: do not
 * edit by hand; tests/theme/readable-colours.test.ts fails when it no longer matches the theme.
 */
export const READABLE_COLOURS = {
  light: 'gray.7 gray.7 upline.6 7,7,7 8,9,8 7,8,7 7,9,7 6,8 7,9,7 8,9,8 9,9,9 9,9.1,9 9.1,9.3,9.1 9.3,9.4,9.3 9.5,9.6,9.5 9.1,9.3,9.1 6,7',
  dark: 'dark.1 dark.1 upline.3 4,3 4,3,8 4,3 4,3 3,3 4,3 4,3,8 4,3,9 4,3,9 4,3,9.1 4,3,9.3 4,3,9.5 4,3,9.1 3,2',
};
