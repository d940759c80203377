/** Routes of the member network area (rendered inside the member shell's Switch, paths relative to /member). */
import type { ReactElement } from 'react';

export const networkRoutes: ReactElement[] = [];
