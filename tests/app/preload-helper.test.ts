/** The helper in front of every dynamic import of the built app (vite.config.ts preloadHelper). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isChunkLoadError } from '../../src/views/components/router-error';

type Helper = typeof import('../../src/app/preload-helper');
let helper: Helper;

beforeEach(async () => {
  vi.resetModules();
  document.head.innerHTML = '';
  helper = await import('../../src/app/preload-helper');
});
afterEach(() => {
  document.head.innerHTML = '';
});

const links = () => [...document.head.querySelectorAll('link')].map((l) => `${l.rel} ${new URL(l.href).pathname}`);
const link = (path: string) => [...document.head.querySelectorAll('link')].find((l) => new URL(l.href).pathname === path)!;
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('preload helper', () => {
  it("fetches a chunk's imports alongside it and waits for its stylesheet; each file is asked for once", async () => {
    const load = vi.fn(async () => 'module');
    const imported = helper.__vitePreload(load, ['assets/area.js', 'assets/shared.js', 'assets/area.css']);
    await tick();
    // (modulepreload where the browser knows it, else a script preload: jsdom does not.)
    const script = (path: string) => expect.stringMatching(new RegExp(`^(module)?preload ${path}$`));
    expect(links()).toEqual([script('/assets/area.js'), script('/assets/shared.js'), 'stylesheet /assets/area.css']);
    expect(link('/assets/area.js').as).toBe('script');
    expect(load).not.toHaveBeenCalled();
    link('/assets/area.css').dispatchEvent(new Event('load'));
    await expect(imported).resolves.toBe('module');
    await expect(helper.__vitePreload(async () => 'again', ['assets/shared.js', 'assets/area.css', 'assets/other.js'])).resolves.toBe('again');
    expect(links()).toHaveLength(4);
  });

  it('does not ask again for what the page already links', async () => {
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/vendor.css"><link rel="modulepreload" href="/assets/vendor.js">';
    await expect(helper.__vitePreload(async () => 1, ['assets/vendor.js', 'assets/vendor.css'])).resolves.toBe(1);
    expect(links()).toEqual(['stylesheet /assets/vendor.css', 'modulepreload /assets/vendor.js']);
  });

  it('a stylesheet that does not load fails the import as a chunk-load error, announced as vite:preloadError', async () => {
    const announced = vi.fn();
    window.addEventListener('vite:preloadError', announced);
    try {
      const load = vi.fn(async () => 'module');
      const imported = helper.__vitePreload(load, ['assets/area.css']);
      await tick();
      link('/assets/area.css').dispatchEvent(new Event('error'));
      const error = await imported.catch((e: unknown) => e);
      expect(String(error)).toMatch(/Unable to preload CSS for .*\/assets\/area\.css/);
      expect(isChunkLoadError(error)).toBe(true);
      expect(announced).toHaveBeenCalledTimes(1);
      expect(load).not.toHaveBeenCalled();
    } finally {
      window.removeEventListener('vite:preloadError', announced);
    }
  });

  it('a listener that prevents the error lets the import go on; a chunk that fails to load is announced too', async () => {
    const prevent = (e: Event) => e.preventDefault();
    window.addEventListener('vite:preloadError', prevent);
    try {
      const imported = helper.__vitePreload(async () => 'module', ['assets/area.css']);
      await tick();
      link('/assets/area.css').dispatchEvent(new Event('error'));
      await expect(imported).resolves.toBe('module');
    } finally {
      window.removeEventListener('vite:preloadError', prevent);
    }
    const announced = vi.fn();
    window.addEventListener('vite:preloadError', announced);
    try {
      const failure = new TypeError('Failed to fetch dynamically imported module: /assets/area.js');
      await expect(helper.__vitePreload(() => Promise.reject(failure), [])).rejects.toBe(failure);
      expect(announced).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener('vite:preloadError', announced);
    }
  });
});
