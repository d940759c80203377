/**
 * `<Toasts />`: mount once inside MantineProvider. The host (Mantine's notifications container and
 * its transitions, ~9 KB gzipped) loads in its own chunk when the first toast is shown; that toast
 * waits in the notifications store and appears as soon as the host mounts.
 */
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { isToastHostWanted, onToastHostWanted } from '../../lib/toast';

const ToastsHost = lazy(() => import('./toasts-host'));

export function Toasts() {
  const wanted = useSyncExternalStore(onToastHostWanted, isToastHostWanted, isToastHostWanted);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <ToastsHost />
    </Suspense>
  );
}
