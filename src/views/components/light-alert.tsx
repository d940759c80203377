/**
 * A message in a tinted box, drawn exactly as Mantine's `<Alert variant="light" color=…>` with a message only (the
 * same markup and classes, so the same styles): the sign-in forms' alerts, without the Alert component and its
 * close button, title and icon machinery on the first page. tests/views/light-alert.test.tsx holds the two to the
 * same markup.
 */
import { useId } from '@mantine/hooks';
import type { CSSProperties, ReactNode } from 'react';

export interface LightAlertProps {
  /** A colour of the theme's palettes. */
  color: string;
  role?: 'alert' | 'status';
  children: ReactNode;
}

export function LightAlert({ color, role = 'alert', children }: LightAlertProps) {
  const id = useId();
  const style = {
    '--alert-bg': `var(--mantine-color-${color}-light)`,
    '--alert-color': `var(--mantine-color-${color}-light-color)`,
    '--alert-bd': 'calc(0.0625rem * var(--mantine-scale)) solid transparent',
  } as CSSProperties;
  return (
    <div id={id} className="m_66836ed3 mantine-Alert-root" style={style} data-variant="light" role={role} aria-describedby={`${id}-body`}>
      <div className="m_a5d60502 mantine-Alert-wrapper">
        <div className="m_667c2793 mantine-Alert-body">
          <div id={`${id}-body`} className="m_7fa78076 mantine-Alert-message" data-variant="light">
            {children}
          </div>
        </div>
      </div>
    </div>
  );
}
