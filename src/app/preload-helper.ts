/**
 * What the build puts in front of every dynamic import of the app in the place of Vite's own preload helper
 * (vite.config.ts preloadHelper): a lazily loaded chunk's stylesheets, which the import waits for, and its imports,
 * fetched alongside it. It behaves as Vite's does, written for this app in a third of the size: the base is "/"
 * and the pages carry no CSP nonce (their policy names inline scripts by hash).
 *
 * - A file is asked for once, and not at all when the page already links it (a stylesheet: as a stylesheet).
 * - A failure (a stylesheet that did not load, or the chunk itself) is announced as a `vite:preloadError` event on
 *   window and thrown unless a listener prevents it; a stylesheet fails with "Unable to preload CSS for …"
 *   (src/views/components/router-error.tsx isChunkLoadError).
 */
const seen: Record<string, Promise<unknown> | undefined> = {};
let linked: { all: Set<string>; styles: Set<string> } | undefined;
let scriptRel: string | undefined;

function failed(error: unknown): never {
  const e = new Event('vite:preloadError', { cancelable: true }) as Event & { payload?: unknown };
  e.payload = error;
  window.dispatchEvent(e);
  if (!e.defaultPrevented) throw error;
  return undefined as never;
}

function preload(dep: string): Promise<unknown> | undefined {
  // The build's base is "/": the files are the page's own.
  const href = new URL(`/${dep}`, document.baseURI).href;
  if (href in seen) return seen[href];
  seen[href] = undefined;
  const css = href.endsWith('.css');
  if (!linked) {
    linked = { all: new Set(), styles: new Set() };
    for (const l of document.getElementsByTagName('link')) {
      linked.all.add(l.href);
      if (l.rel === 'stylesheet') linked.styles.add(l.href);
    }
  }
  if ((css ? linked.styles : linked.all).has(href)) return undefined;
  const link = document.createElement('link');
  scriptRel ??= link.relList?.supports?.('modulepreload') ? 'modulepreload' : 'preload';
  link.rel = css ? 'stylesheet' : scriptRel;
  if (!css) link.as = 'script';
  link.crossOrigin = '';
  link.href = href;
  document.head.appendChild(link);
  if (!css) return undefined;
  return (seen[href] = new Promise((resolve, reject) => {
    link.addEventListener('load', resolve);
    link.addEventListener('error', () => reject(new Error(`Unable to preload CSS for ${href}`)));
  }).finally(() => (seen[href] = undefined)));
}

export function __vitePreload<T>(load: () => Promise<T>, deps?: string[]): Promise<T> {
  const settled = (deps ?? []).map((dep) => Promise.resolve(preload(dep)).then(() => null, (error: unknown) => ({ error })));
  return Promise.all(settled).then((results) => {
    for (const r of results) if (r) failed(r.error);
    return load().catch(failed);
  });
}
