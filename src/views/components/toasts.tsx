/**
 * `<Toasts />`: mount once inside MantineProvider. The toasts' store and host (Mantine's notifications, ~9 KB
 * gzipped) load in their own chunk when the first toast is wanted (the member area brings them along too); toasts
 * raised before wait in src/lib/toast.ts and appear as soon as the chunk has arrived. Should it fail to arrive
 * (offline), the next toast asks for it again.
 */
import { useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import { isToastHostWanted, onToastHostWanted, toastHostFailed } from '../../lib/toast';

let host: ComponentType | null = null;

export function Toasts() {
  const wanted = useSyncExternalStore(onToastHostWanted, isToastHostWanted, () => false);
  const [Host, setHost] = useState<ComponentType | null>(() => host);
  useEffect(() => {
    if (!wanted || Host) return;
    let live = true;
    import('./toasts-host').then(
      (m) => {
        host = m.default;
        if (live) setHost(() => m.default);
      },
      () => toastHostFailed(),
    );
    return () => {
      live = false;
    };
  }, [wanted, Host]);
  return Host ? <Host /> : null;
}
