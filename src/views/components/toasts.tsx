/**
 * `<Toasts />`: mount once inside MantineProvider. The host (Mantine's notifications container and
 * its transitions, ~14 KB gzipped) loads in its own chunk after the first page renders; toasts shown
 * before it arrives wait in the notifications store and appear as soon as it mounts.
 */
import { lazy, Suspense } from 'react';

const ToastsHost = lazy(() => import('./toasts-host'));

export function Toasts() {
  return (
    <Suspense fallback={null}>
      <ToastsHost />
    </Suspense>
  );
}
