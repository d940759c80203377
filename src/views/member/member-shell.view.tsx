/**
 * The member area's frame (spec §6, §9): a header with the company (or app) name, the member's
 * avatar and full name, the language and currency switches, the colour toggle and Logout; the menu
 * as a left sidebar on desktop (≥ 1024 px: 275 px, collapsible to 90 px with icons only, the choice
 * remembered on this device), as a drawer opened by the burger below that, and on phones (< 600 px)
 * a bottom bar with the first bottom entries plus "More" (the full menu). A skip link jumps to the
 * content (25 px padding). The notifications entry carries the unread badge.
 */
import '../../theme/member-css';
import './member-shell.css';
import { AppShell, Avatar, Badge, Burger, Button, Group, Image, NativeSelect, NavLink, ScrollArea, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { activeMenu, type MenuEntry } from '../../lib/menu';
import type { Company, Currency, User } from '../../schemas/common.schema';
import { ColourSchemeToggle } from '../components/colour-scheme-toggle';
import { LogoutIcon } from '../components/more-icons';
import { LanguageSwitch, type LanguageOption } from '../components/language-switch';
import { OverlaySpinner } from '../components/overlay-spinner';
import { fullName, initials } from '../components/person';
import { MenuIconView } from './menu-icons';

export const HEADER_HEIGHT = 60;
export const CONTENT_PADDING = 25;
export const SIDEBAR_WIDTH = 275;
export const SIDEBAR_COLLAPSED_WIDTH = 90;
export const BOTTOM_BAR_HEIGHT = 64;
export const SIDEBAR_STORAGE_KEY = 'upline.sidebar.collapsed';
export const MAIN_ID = 'member-main';
/** Desktop from 64em (1024 px), phones below 37.5em (600 px): spec §9. */
const DESKTOP_QUERY = '(min-width: 64em)';
const PHONE_QUERY = '(max-width: 37.49em)';

export interface MemberShellViewProps {
  user: Pick<User, 'first_name' | 'last_name' | 'avatar' | 'username'>;
  company?: Pick<Company, 'name' | 'logo_small' | 'logo'> | null;
  languages: readonly LanguageOption[];
  currentLanguage: string;
  onLanguage: (code: string) => void;
  onLogout: () => void;
  /** Logging out: buttons disabled, overlay shown. */
  busy?: boolean;
  /** The member menu (src/lib/menu.ts) and the bottom-bar entries; without them only the header shows. */
  menu?: MenuEntry[];
  bottom?: MenuEntry[];
  /** The current full path (e.g. /member/wallet/statement): the active entry. */
  path?: string;
  /** Currencies the member may switch between (shown when there are two or more). */
  currencies?: readonly Pick<Currency, 'code' | 'name' | 'symbol'>[];
  currentCurrency?: string;
  onCurrency?: (code: string) => void;
  /** A currency change is being saved. */
  currencyBusy?: boolean;
  children: ReactNode;
}

function CountBadge({ count }: { count: number }) {
  const { t } = useTranslation('common');
  return (
    <Badge size="sm" color="red" variant="filled" circle={count < 10} aria-label={t('shell.unreadCount', { count })} data-badge="notifications">
      {count > 99 ? '99+' : count}
    </Badge>
  );
}

function SidebarMenu({
  menu,
  path,
  collapsed,
  onNavigate,
}: {
  menu: MenuEntry[];
  path: string;
  collapsed: boolean;
  onNavigate: () => void;
}) {
  const { t } = useTranslation('common');
  const active = activeMenu(menu, path);
  return (
    <nav aria-label={t('shell.mainMenu')} className="upline-nav">
      {menu.map((entry) => {
        const isActive = active?.id === entry.id;
        const label = t(entry.labelKey);
        const icon = <MenuIconView name={entry.icon} />;
        if (collapsed) {
          return (
            <Tooltip key={entry.id} label={label} position="right" withArrow>
              <NavLink
                component={Link}
                href={`~${entry.link}`}
                aria-label={entry.badge ? `${label}, ${t('shell.unreadCount', { count: entry.badge })}` : label}
                aria-current={isActive ? 'page' : undefined}
                active={isActive}
                onClick={onNavigate}
                leftSection={icon}
                rightSection={entry.badge ? <CountBadge count={entry.badge} /> : undefined}
                styles={{ root: { justifyContent: 'center' }, body: { display: 'none' } }}
                data-menu-id={entry.id}
              />
            </Tooltip>
          );
        }
        const children = entry.children ?? [];
        if (!children.length) {
          return (
            <NavLink
              key={entry.id}
              component={Link}
              href={`~${entry.link}`}
              label={label}
              leftSection={icon}
              rightSection={entry.badge ? <CountBadge count={entry.badge} /> : undefined}
              active={isActive}
              aria-current={isActive ? 'page' : undefined}
              disableRightSectionRotation
              onClick={onNavigate}
              data-menu-id={entry.id}
            />
          );
        }
        return (
          <MenuGroup key={entry.id} id={entry.id} label={label} icon={icon} isActive={isActive} headerActive={isActive && active?.childId === null}>
            {children.map((c) => {
              const childActive = isActive && active?.childId === c.id;
              return (
                <NavLink
                  key={c.id}
                  component={Link}
                  href={`~${c.link}`}
                  label={t(c.labelKey)}
                  active={childActive}
                  aria-current={childActive ? 'page' : undefined}
                  onClick={onNavigate}
                  data-menu-id={c.id}
                />
              );
            })}
          </MenuGroup>
        );
      })}
    </nav>
  );
}

/**
 * A menu group (Network, Wallet, Account…): a button that opens and closes its items, so it is reached
 * with Tab and toggled with Enter or Space, and says whether it is open. It opens on the active group.
 */
function MenuGroup({
  id,
  label,
  icon,
  isActive,
  headerActive,
  children,
}: {
  id: string;
  label: string;
  icon: ReactNode;
  isActive: boolean;
  headerActive: boolean;
  children: ReactNode;
}) {
  const [opened, setOpened] = useState(isActive);
  // Arriving in the group from elsewhere (a link, the bottom bar) opens it.
  const [wasActive, setWasActive] = useState(isActive);
  if (isActive !== wasActive) {
    setWasActive(isActive);
    if (isActive) setOpened(true);
  }
  const itemsId = `menu-group-${id}`;
  return (
    <NavLink
      component="button"
      type="button"
      label={label}
      leftSection={icon}
      active={headerActive}
      opened={opened}
      onChange={setOpened}
      aria-expanded={opened}
      aria-controls={itemsId}
      data-menu-id={id}
      childrenOffset={34}
    >
      <div id={itemsId}>{children}</div>
    </NavLink>
  );
}

function BottomBar({ entries, menu, path, onMore }: { entries: MenuEntry[]; menu: MenuEntry[]; path: string; onMore: () => void }) {
  const { t } = useTranslation('common');
  const active = activeMenu(menu, path);
  const inBar = entries.some((e) => e.id === active?.id);
  return (
    <nav aria-label={t('shell.bottomMenu')} style={{ height: '100%' }} data-bottom-bar>
      <ul className="upline-bottom-bar">
        {entries.map((e) => (
          <li key={e.id}>
            <Link href={`~${e.link}`} className="upline-bottom-item" aria-current={active?.id === e.id ? 'page' : undefined} data-menu-id={e.id}>
              <span style={{ position: 'relative' }}>
                <MenuIconView name={e.icon} size={22} />
                {e.badge ? (
                  <span style={{ position: 'absolute', top: -8, right: -14 }}>
                    <CountBadge count={e.badge} />
                  </span>
                ) : null}
              </span>
              {/* A shorter word where the menu's own does not fit a phone's bar (bottomLabel.<id>). */}
              <span className="upline-bottom-label">{t([`bottomLabel.${e.id}`, e.labelKey])}</span>
            </Link>
          </li>
        ))}
        <li>
          <button type="button" className="upline-bottom-item" onClick={onMore} aria-current={!inBar && active ? 'page' : undefined} aria-haspopup="dialog">
            <MenuIconView name="more" size={22} />
            <span className="upline-bottom-label">{t('shell.moreMenu')}</span>
          </button>
        </li>
      </ul>
    </nav>
  );
}

export function MemberShellView({
  user,
  company,
  languages,
  currentLanguage,
  onLanguage,
  onLogout,
  busy = false,
  menu,
  bottom = [],
  path = '',
  currencies = [],
  currentCurrency = '',
  onCurrency,
  currencyBusy = false,
  children,
}: MemberShellViewProps) {
  const { t } = useTranslation('common');
  const name = fullName(user);
  const brand = company?.name || t('appName');
  // The full logo (a wordmark is wider than tall), the small one when that is all there is.
  const logo = company?.logo || company?.logo_small;
  const mark = company?.logo_small || company?.logo;
  const desktop = useMediaQuery(DESKTOP_QUERY, false, { getInitialValueInEffect: false });
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [collapsed, setCollapsed] = useLocalStorage<boolean>({ key: SIDEBAR_STORAGE_KEY, defaultValue: false, getInitialValueInEffect: false });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const hasMenu = !!menu?.length;
  const narrowSidebar = desktop && collapsed;
  const showBottom = hasMenu && phone && bottom.length > 0;

  return (
    <AppShell
      data-shell="member"
      header={{ height: HEADER_HEIGHT }}
      navbar={
        hasMenu
          ? { width: narrowSidebar ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH, breakpoint: 'md', collapsed: { mobile: !drawerOpen } }
          : undefined
      }
      footer={showBottom ? { height: BOTTOM_BAR_HEIGHT } : undefined}
      padding={CONTENT_PADDING}
    >
      <a href={`#${MAIN_ID}`} className="upline-skip-link">
        {t('shell.skipToContent')}
      </a>
      <AppShell.Header px="sm">
        <Group h="100%" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" miw={0}>
            {hasMenu && !desktop && (
              <Burger
                opened={drawerOpen}
                onClick={() => setDrawerOpen((o) => !o)}
                size="sm"
                aria-label={t(drawerOpen ? 'shell.closeMenu' : 'shell.openMenu')}
                aria-expanded={drawerOpen}
              />
            )}
            {logo && <Image src={logo} alt={brand} h={32} w="auto" maw={180} fit="contain" visibleFrom="xs" style={{ flexShrink: 0 }} data-logo="full" />}
            {/* Phones: the company's mark (its small logo), whole and never squeezed by the header's switches. */}
            {mark && (
              <Image src={mark} alt={brand} h={32} w={mark === logo ? 'auto' : 32} maw={96} fit="contain" hiddenFrom="xs" style={{ flexShrink: 0 }} data-logo="mark" />
            )}
            <Text fw={700} size="lg" truncate="end" component="span" visibleFrom={hasMenu || logo ? 'xs' : undefined} hidden={!!logo}>
              {brand}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
            {/* On phones the header keeps its switches; the avatar would crowd the menu button. */}
            <Group gap="xs" wrap="nowrap" aria-label={t('userMenu', { name })} role="group" visibleFrom="xs">
              <Avatar src={user.avatar || null} alt={name} radius="xl" size={32} color="upline">
                {initials(user)}
              </Avatar>
              <Text size="sm" fw={500} visibleFrom="xs" truncate="end" maw={180}>
                {name}
              </Text>
            </Group>
            <LanguageSwitch languages={languages} current={currentLanguage} onChange={onLanguage} />
            {currencies.length > 1 && onCurrency && (
              <NativeSelect
                // On phones the currency is chosen in Account → Currency; the header keeps room for the logo.
                visibleFrom="xs"
                aria-label={t('shell.currency')}
                title={t('shell.currency')}
                size="sm"
                w={84}
                disabled={currencyBusy}
                value={currentCurrency}
                onChange={(e) => {
                  const code = e.currentTarget.value;
                  if (code && code !== currentCurrency) onCurrency(code);
                }}
                data={currencies.map((c) => ({ value: c.code, label: c.code }))}
              />
            )}
            <ColourSchemeToggle />
            <Button
              variant="default"
              size="compact-md"
              h={34}
              onClick={onLogout}
              disabled={busy}
              aria-label={t('logout')}
              title={t('logout')}
              px={8}
            >
              <LogoutIcon size={16} />
              <Text span inherit visibleFrom="xs" ml={6}>
                {t('logout')}
              </Text>
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      {hasMenu && (
        <AppShell.Navbar p="xs" data-sidebar={narrowSidebar ? 'collapsed' : 'expanded'}>
          <AppShell.Section grow component={ScrollArea}>
            <SidebarMenu menu={menu!} path={path} collapsed={narrowSidebar} onNavigate={() => setDrawerOpen(false)} />
          </AppShell.Section>
          {desktop && (
            <AppShell.Section pt="xs">
              <UnstyledButton
                onClick={() => setCollapsed(!collapsed)}
                aria-label={t(collapsed ? 'shell.expandSidebar' : 'shell.collapseSidebar')}
                aria-expanded={!collapsed}
                title={t(collapsed ? 'shell.expandSidebar' : 'shell.collapseSidebar')}
                p="xs"
                style={{ display: 'flex', justifyContent: 'center', width: '100%', borderRadius: 6 }}
              >
                <MenuIconView name={collapsed ? 'chevronRight' : 'chevronLeft'} />
              </UnstyledButton>
            </AppShell.Section>
          )}
        </AppShell.Navbar>
      )}
      <AppShell.Main aria-label={t('mainContent')} id={MAIN_ID} tabIndex={-1}>
        {children}
      </AppShell.Main>
      {showBottom && (
        <AppShell.Footer>
          <BottomBar entries={bottom} menu={menu!} path={path} onMore={() => setDrawerOpen(true)} />
        </AppShell.Footer>
      )}
      <OverlaySpinner visible={busy} />
    </AppShell>
  );
}
