/**
 * The page's path and raw query string ('?a=b', not decoded) from the router: the browser's location in
 * the browser, the location being rendered on the server (<Router ssrPath ssrSearch>).
 */
import { useRouter } from 'wouter';

export function usePagePath(): string {
  const router = useRouter();
  return router.hook(router)[0];
}

export function usePageSearch(): string {
  const router = useRouter();
  return router.searchHook(router);
}
