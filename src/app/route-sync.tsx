/**
 * Tells the session about every location change (links, Back/Forward, navigations by machines), so
 * the session picks the flow area and forwards the change to the flow inside it.
 */
import { useEffect } from 'react';
import { usePathname, useSearch } from 'wouter/use-browser-location';
import { useSessionActor } from './session-context';

export function RouteSync() {
  const actor = useSessionActor();
  const path = usePathname();
  // The raw query string ('?a=b'), not decoded.
  const search = useSearch();
  useEffect(() => {
    actor.send({ type: 'route.changed', path, search });
  }, [actor, path, search]);
  return null;
}
