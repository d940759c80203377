/**
 * One branch per state of a generic load machine (spec §4): a skeleton while loading (the data stays
 * on screen during a refresh), the connection-error and server-error views with retry, nothing
 * special while a forced logout happens, then the data.
 */
import { Skeleton, SimpleGrid, Stack } from '@mantine/core';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import type { ActorRef, Snapshot } from 'xstate';
import type { LoadContext, LoadEvent } from '../../machines/load.machine';
import { ErrorView } from '../components/error-view';
import { PageLoader } from '../components/page-loader';

type LoadSnapshot<T> = Snapshot<unknown> & { value: unknown; context: LoadContext<T, unknown>; matches: (v: never) => boolean };
export type LoadActor<T> = ActorRef<LoadSnapshot<T>, LoadEvent<unknown>>;

export function CardsSkeleton({ cards = 6, label }: { cards?: number; label: string }) {
  return (
    <Stack gap="md" aria-busy="true" aria-label={label} role="status" data-state="loading">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
        {Array.from({ length: cards }, (_, i) => (
          <Skeleton key={i} h={88} radius="md" />
        ))}
      </SimpleGrid>
      <Skeleton h={180} radius="md" />
    </Stack>
  );
}

export function LoadStates<T>({
  actor,
  loadingLabel,
  children,
}: {
  actor: LoadActor<T>;
  loadingLabel: string;
  children: (data: T, refreshing: boolean) => ReactNode;
}) {
  const value = useSelector(actor, (s) => s.value as string);
  const data = useSelector(actor, (s) => s.context.data);
  if (value === 'connectionError' || value === 'error') {
    return <ErrorView kind={value === 'connectionError' ? 'connection' : 'server'} onRetry={() => actor.send({ type: 'load.retry' })} />;
  }
  if (value === 'forceLogout') return <PageLoader />;
  if (data !== null && (value === 'loaded' || value === 'loading')) return <>{children(data, value === 'loading')}</>;
  return <CardsSkeleton label={loadingLabel} />;
}
