/**
 * Network › genealogy: the tree drawn on a canvas (TreeCanvas), a toolbar (search, up, back to me, zoom)
 * and a details panel for the hovered, focused or tapped member (or empty slot, with "sign up here").
 */
import {
  ActionIcon,
  Alert,
  Anchor,
  Avatar,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { genealogyMachine } from '../../machines/genealogy.machine';
import { GROUP_SIZE, layoutTree, memberKey, moreKey, type LayoutItem } from '../../lib/tree-layout';
import type { TreeLabels } from '../../lib/tree-canvas';
import { formatDecimal, formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import type { Currency } from '../../schemas/common.schema';
import type { TreeNode } from '../../schemas/network.schema';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';
import { TreeCanvas, type TreeCanvasHandle } from './tree-canvas';

export interface GenealogyViewProps {
  actor: ActorRefFrom<typeof genealogyMachine>;
  currency?: Currency | null;
  datePattern?: string | null;
  /** Measurement hook (benchmarks): each paint's duration and items drawn. */
  onPaint?: (ms: number, drawn: number) => void;
  /** A search was sent (the page writes it to the URL, ?username=, so a reload and Back keep it). */
  onSearch?: (username: string) => void;
  /** "Back to me" was pressed (the page drops ?username= from the URL). */
  onTop?: () => void;
}

/** Where an empty slot's "sign up here" leads: the member signup with its place prefilled (binary: the leg; matrix: the place's number). */
export function signupHref(parentUsername: string, position: string): string {
  const q = new URLSearchParams({ placement: parentUsername, ...(position === 'L' || position === 'R' ? { position } : { slot: position }) });
  return `~/member/signup?${q.toString()}`;
}

export function GenealogyView({ actor, currency, datePattern, onPaint, onSearch, onTop }: GenealogyViewProps) {
  const { t, i18n } = useTranslation('network');
  const state = useSelector(actor, (s) => (s.matches('ready') ? 'ready' : (s.value as string)));
  const ctx = useSelector(actor, (s) => s.context);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const step = useSelector(actor, (s) => (s.matches('ready') ? (s.value as { ready: string }).ready : null));
  const [search, setSearch] = useState(ctx.query);
  // The box shows the search the tree is on: after Back or Forward (the URL's), or none after "Back to me".
  useEffect(() => setSearch(ctx.query), [ctx.query]);
  const [focusedKey, setFocusedKey] = useState<string | null>(null);
  const [hoveredKey, setHoveredKey] = useState<string | null>(null);
  /** Children shown of each wide member (member id → count). */
  const [shownChildren, setShownChildren] = useState<Record<number, number>>({});
  const canvas = useRef<TreeCanvasHandle>(null);
  const helpId = useId();

  const layout = useMemo(
    () => layoutTree(ctx.data, ctx.rootId, { plan: ctx.plan, maxWidth: ctx.maxWidth, shown: shownChildren }),
    [ctx.data, ctx.rootId, ctx.plan, ctx.maxWidth, shownChildren],
  );
  const errorIds = useMemo(() => new Set(Object.keys(ctx.nodeErrors).map(Number)), [ctx.nodeErrors]);
  const busyIds = useMemo(() => new Set([...(ctx.expanding !== null ? [ctx.expanding] : []), ...ctx.queue]), [ctx.expanding, ctx.queue]);
  const labels: TreeLabels = useMemo(
    () => ({
      empty: t('tree.empty'),
      left: t('tree.left'),
      right: t('tree.right'),
      active: t('tree.active'),
      inactive: t('tree.inactive'),
      signUpHere: t('tree.signUpHere'),
      more: (count: number) => t('tree.more', { count }),
      fewer: t('tree.fewer'),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.resolvedLanguage],
  );

  if (state === 'loading' || state === 'forceLogout') return <PageLoader />;
  if (state === 'connectionError' || state === 'error')
    return <ErrorView kind={state === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'tree.retry' })} />;

  const toggle = (item: LayoutItem) => {
    if ((item.kind === 'more' || item.kind === 'fewer') && item.parentId !== null) {
      const id = item.parentId;
      if (item.kind === 'fewer') {
        setShownChildren((s) => ({ ...s, [id]: GROUP_SIZE }));
        setFocusedKey(moreKey(id));
        return;
      }
      const next = Math.max(GROUP_SIZE, shownChildren[id] ?? GROUP_SIZE) + GROUP_SIZE;
      setShownChildren((s) => ({ ...s, [id]: next }));
      // Children not loaded yet come from the server with the member's branch.
      if (!ctx.data.known[id] && (ctx.data.children[id]?.length ?? 0) < next) actor.send({ type: 'tree.expand', id });
      return;
    }
    if (item.kind !== 'member' || !item.node) return;
    if (item.expanded) actor.send({ type: 'tree.collapse', id: item.node.id });
    else if (item.expandable || errorIds.has(item.node.id)) actor.send({ type: 'tree.expand', id: item.node.id });
  };

  const legName = (item: LayoutItem) =>
    item.position === 'L' ? t('tree.left') : item.position === 'R' ? t('tree.right') : `#${(item.slot ?? 0) + 1}`;

  const describe = (item: LayoutItem): string => {
    if (item.kind === 'more' || item.kind === 'fewer') {
      const parent = item.parentId !== null ? ctx.data.nodes[item.parentId] : undefined;
      return item.kind === 'more'
        ? t('tree.describeMore', { count: item.slot ?? 0, parent: parent?.username ?? '' })
        : t('tree.describeFewer', { count: GROUP_SIZE, parent: parent?.username ?? '' });
    }
    if (item.kind === 'empty') {
      const parent = item.parentId !== null ? ctx.data.nodes[item.parentId] : undefined;
      return t('tree.describeEmpty', { leg: legName(item), parent: parent?.username ?? '' });
    }
    const n = item.node!;
    const stateText = errorIds.has(n.id)
      ? t('tree.stateFailed')
      : n.child_count === 0
        ? t('tree.stateLeaf')
        : item.expanded
        ? t('tree.stateExpanded')
        : item.expandable
          ? t('tree.stateCollapsed')
          : t('tree.stateLeaf');
    return t('tree.describeMember', {
      username: n.username,
      name: [n.first_name, (n.last_name ?? '').trim()].filter(Boolean).join(' '),
      level: n.level,
      status: n.status === 1 ? t('tree.active') : t('tree.inactive'),
      children: n.child_count,
      downline: n.downlines_count,
      state: stateText,
    });
  };

  const shownKey = hoveredKey ?? focusedKey;
  const shown = shownKey ? layout.get(shownKey) : undefined;
  const atTop = ctx.rootId === ctx.topId;

  return (
    <Stack gap="sm" data-genealogy="">
      <Group gap="xs" wrap="wrap" align="flex-end">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            actor.send({ type: 'tree.search', username: search });
            if (search.trim()) onSearch?.(search.trim());
          }}
          style={{ display: 'flex', gap: 8, alignItems: 'flex-end', flex: '1 1 260px', maxWidth: 420 }}
        >
          <TextInput
            label={t('tree.search')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: 1 }}
            autoComplete="off"
            name="username"
          />
          <Button type="submit" loading={step === 'searching'} disabled={busy && step !== 'searching'}>
            {t('tree.searchButton')}
          </Button>
        </form>
        <Group gap="xs">
          <Button variant="default" onClick={() => actor.send({ type: 'tree.up' })} disabled={!ctx.parentUsername || busy} loading={step === 'rerooting'}>
            {t('tree.up')}
          </Button>
          <Button
            variant="default"
            onClick={() => {
              actor.send({ type: 'tree.top' });
              onTop?.();
            }}
            disabled={atTop || busy}
          >
            {t('tree.top')}
          </Button>
          <ActionIcon variant="default" size="lg" aria-label={t('tree.zoomOut')} onClick={() => canvas.current?.zoom(1 / 1.25)}>
            −
          </ActionIcon>
          <ActionIcon variant="default" size="lg" aria-label={t('tree.zoomIn')} onClick={() => canvas.current?.zoom(1.25)}>
            +
          </ActionIcon>
          <Button variant="subtle" onClick={() => canvas.current?.fit()}>
            {t('tree.fit')}
          </Button>
        </Group>
      </Group>

      {ctx.notInNetwork !== null && (
        <Alert
          color="orange"
          title={t('tree.notInNetworkTitle')}
          withCloseButton
          closeButtonLabel={t('tree.dismiss')}
          onClose={() => actor.send({ type: 'tree.dismiss' })}
          data-not-in-network=""
        >
          {t('tree.notInNetwork', { username: ctx.notInNetwork })}
        </Alert>
      )}
      {ctx.actionError && (
        <Alert color="red" withCloseButton closeButtonLabel={t('tree.dismiss')} onClose={() => actor.send({ type: 'tree.dismiss' })}>
          {t('tree.actionFailed')}
        </Alert>
      )}

      <Text id={helpId} size="xs" c="dimmed">
        {t('tree.help')}
      </Text>

      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', alignItems: 'stretch' }}>
        <div style={{ flex: '3 1 320px', height: 'min(70vh, 640px)', minHeight: 320 }}>
          <TreeCanvas
            layout={layout}
            labels={labels}
            ariaLabel={t('tree.label')}
            helpId={helpId}
            focusedKey={focusedKey}
            hoveredKey={hoveredKey}
            onFocusKey={setFocusedKey}
            onHoverKey={setHoveredKey}
            onToggle={toggle}
            errorIds={errorIds}
            busyIds={busyIds}
            signupFromTree={ctx.signupFromTree}
            rootVersion={ctx.rootVersion}
            describe={describe}
            handleRef={canvas}
            onPaint={onPaint}
          />
        </div>
        <Paper withBorder p="md" radius="md" style={{ flex: '1 1 260px' }} aria-label={t('tree.details')} role="region" data-details="">
          {shown ? (
            <Details
              item={shown}
              parent={shown.parentId !== null ? ctx.data.nodes[shown.parentId] : undefined}
              failed={shown.node ? errorIds.has(shown.node.id) : false}
              loading={shown.node ? busyIds.has(shown.node.id) : false}
              signupFromTree={ctx.signupFromTree}
              binary={ctx.plan === 'binary'}
              legName={legName(shown)}
              currency={currency}
              datePattern={datePattern}
              onToggle={() => toggle(shown)}
              onOpen={(id) => {
                setFocusedKey(memberKey(id));
                actor.send({ type: 'tree.open', id });
              }}
            />
          ) : (
            <Text c="dimmed" size="sm">
              {t('tree.detailsHint')}
            </Text>
          )}
        </Paper>
      </div>
    </Stack>
  );
}

function Details(props: {
  item: LayoutItem;
  parent: TreeNode | undefined;
  failed: boolean;
  loading: boolean;
  signupFromTree: boolean;
  /** Leg totals, carries and counts belong to a binary plan only. */
  binary: boolean;
  legName: string;
  currency?: Currency | null;
  datePattern?: string | null;
  onToggle: () => void;
  onOpen: (id: number) => void;
}) {
  const { t, i18n } = useTranslation('network');
  const { item } = props;
  if (item.kind === 'more' || item.kind === 'fewer') {
    return (
      <Stack gap="xs">
        <Title order={3} size="h5">
          {item.kind === 'more'
            ? t('tree.describeMore', { count: item.slot ?? 0, parent: props.parent?.username ?? '' })
            : t('tree.describeFewer', { count: GROUP_SIZE, parent: props.parent?.username ?? '' })}
        </Title>
        <Button size="xs" variant="default" onClick={props.onToggle} style={{ alignSelf: 'flex-start' }}>
          {item.kind === 'more' ? t('tree.more', { count: item.slot ?? 0 }) : t('tree.fewer')}
        </Button>
      </Stack>
    );
  }
  if (item.kind === 'empty') {
    return (
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('tree.describeEmpty', { leg: props.legName, parent: props.parent?.username ?? '' })}
        </Title>
        {props.signupFromTree && props.parent && (
          <Anchor component={Link} href={signupHref(props.parent.username, item.position ?? String((item.slot ?? 0) + 1))}>
            {t('tree.signUpHere')}
          </Anchor>
        )}
      </Stack>
    );
  }
  const n = item.node!;
  const name = [n.first_name, (n.last_name ?? '').trim()].filter(Boolean).join(' ');
  const num = (v: string) => formatDecimal(v, v.includes('.') ? 2 : 0);
  const rows: Array<[string, string]> = [
    [t('fields.pv'), num(n.pv)],
    [t('fields.tv'), num(n.tv)],
    [t('fields.cv'), num(n.cv)],
    ...(props.binary
      ? ([
          [t('fields.totalLeft'), num(n.total_left)],
          [t('fields.totalRight'), num(n.total_right)],
          [t('fields.carryLeft'), num(n.carry_left)],
          [t('fields.carryRight'), num(n.carry_right)],
          [t('fields.leftCount'), String(n.left_downline_count)],
          [t('fields.rightCount'), String(n.right_downline_count)],
        ] as Array<[string, string]>)
      : []),
    [t('fields.children'), String(n.child_count)],
    [t('fields.downlines'), String(n.downlines_count)],
    [t('fields.level'), String(n.level)],
    [t('fields.earnings'), formatMoney(n.total_earnings, props.currency)],
    [t('fields.joined'), formatDate(n.created_at, props.datePattern, { language: i18n.language })],
  ];
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="nowrap">
        <Avatar src={n.avatar} alt="" radius="xl" color="initials" name={name}>
          {(n.first_name[0] ?? '') + ((n.last_name ?? '').trim()[0] ?? '')}
        </Avatar>
        <div style={{ minWidth: 0 }}>
          <Title order={3} size="h5" style={{ overflowWrap: 'anywhere' }}>
            {n.username}
          </Title>
          <Text size="sm" c="dimmed">
            {name}
          </Text>
        </div>
      </Group>
      <Group gap={6}>
        <Badge color={n.status === 1 ? 'green' : 'red'} variant="light">
          {n.status === 1 ? t('tree.active') : t('tree.inactive')}
        </Badge>
        {n.rank_name && <Badge variant="outline">{n.rank_name}</Badge>}
        {n.package_name && <Badge variant="default">{n.package_name}</Badge>}
      </Group>
      <SimpleGrid cols={2} spacing={6} verticalSpacing={4} component="dl" style={{ margin: 0 }}>
        {rows.map(([label, value]) => (
          <div key={label}>
            <Text component="dt" size="xs" c="dimmed">
              {label}
            </Text>
            <Text component="dd" size="sm" fw={500} m={0}>
              {value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {props.failed && (
        <Alert color="red" p="xs">
          {t('tree.branchFailed', { username: n.username })}
        </Alert>
      )}
      <Group gap="xs">
        {props.loading ? (
          <Skeleton h={30} w={120} aria-label={t('tree.loadingBranch')} />
        ) : props.failed ? (
          <Button size="xs" color="red" onClick={props.onToggle}>
            {t('tree.retryBranch')}
          </Button>
        ) : item.expanded ? (
          <Button size="xs" variant="default" onClick={props.onToggle}>
            {t('tree.collapse')}
          </Button>
        ) : item.expandable ? (
          <Button size="xs" onClick={props.onToggle}>
            {t('tree.expand')}
          </Button>
        ) : null}
        {item.depth > 0 && (
          <Button size="xs" variant="subtle" onClick={() => props.onOpen(n.id)}>
            {t('tree.openHere')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
