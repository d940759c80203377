/**
 * A member page with tabs, one route each (home, wallet, network, referral): the page title, the tabs as links
 * (each tab has its own URL, so opening one in a new tab, copying it and Back all work) and the active tab's panel.
 * Arrow keys move between the tabs; Enter opens the focused one.
 */
import { Tabs, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';

export interface TabbedPageProps<T extends string> {
  title: string;
  tabs: readonly T[];
  tab: T;
  label: (tab: T) => string;
  /** Where a tab leads (as the router of the page resolves it). */
  href: (tab: T) => string;
  children: ReactNode;
}

export function TabbedPage<T extends string>({ title, tabs, tab, label, href, children }: TabbedPageProps<T>) {
  return (
    <div>
      <Title order={1} size="h2" mb="md">
        {title}
      </Title>
      {/* On a phone the tabs stay on one line and scroll sideways rather than wrapping onto two. */}
      <Tabs value={tab} keepMounted={false} styles={{ list: { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'thin' }, tab: { flexShrink: 0 } }}>
        <Tabs.List>
          {tabs.map((k) => (
            <Tabs.Tab key={k} value={k} component={Link as never} {...({ href: href(k) } as object)}>
              {label(k)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={tab} pt="md">
          {children}
        </Tabs.Panel>
      </Tabs>
    </div>
  );
}
