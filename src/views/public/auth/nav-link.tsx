/** An in-app link styled as a Mantine anchor (client-side navigation through the router). */
import { Anchor, type AnchorProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

export function NavLink({ href, children, ...rest }: AnchorProps & { href: string; children: ReactNode }) {
  return (
    <Anchor component={Link} href={href} size="sm" {...rest}>
      {children}
    </Anchor>
  );
}
