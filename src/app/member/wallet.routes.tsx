/** Routes of the member wallet area (rendered inside the member shell's Switch, paths relative to /member). */
import type { ReactElement } from 'react';

export const walletRoutes: ReactElement[] = [];
