/**
 * The phone profile of the sign-in figures: a mid-range phone on a slow mobile link, set through the Chrome
 * DevTools Protocol on one page — the CPU 4× slower, 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up.
 *
 * Two moments of /login are read from the page itself, on a cold cache (a fresh browser context per run):
 * - LCP: the last largest-contentful-paint entry before the visitor does anything;
 * - hydrated: the app is in control of the sign-in form — React has taken over the server's markup (or drawn
 *   the form itself) and submissions go to the app from now on. The app marks that moment `upline:ready`
 *   (performance.mark in src/app/server-page.ts pageReady); a build without the mark is read from the moment
 *   it sets window.__uplineReady, the same call.
 */
import type { Page } from 'playwright-core';

export const PHONE = {
  cpuSlowdown: 4,
  latencyMs: 150,
  downloadBytesPerSecond: 200_000, // 1.6 Mbit/s
  uploadBytesPerSecond: 93_750, // 750 kbit/s
} as const;

/** Throttles this page like the phone profile (before it navigates). */
export async function emulatePhone(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PHONE.latencyMs,
    downloadThroughput: PHONE.downloadBytesPerSecond,
    uploadThroughput: PHONE.uploadBytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpuSlowdown });
}

/** Records when the app says it is ready, for builds that do not mark it (see above). */
export async function watchReady(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    let ready;
    Object.defineProperty(window, '__uplineReady', {
      configurable: true,
      get: () => ready,
      set: (v) => { if (v && window.__uplineReadyAt === undefined) window.__uplineReadyAt = performance.now(); ready = v; },
    });
  })()`);
}

export interface PageMoments {
  lcp: number;
  hydrated: number;
  load: number;
}

/** After the page has loaded and the app is ready: LCP, hydrated and the load event, ms since navigation start. */
export async function pageMoments(page: Page): Promise<PageMoments> {
  // Polled from here: a function evaluated inside the page would need 'unsafe-eval', which the page's CSP refuses.
  const until = Date.now() + 60_000;
  while (!(await page.evaluate('window.__uplineReadyAt !== undefined'))) {
    if (Date.now() > until) throw new Error('the app never became ready on /login');
    await new Promise((r) => setTimeout(r, 50));
  }
  return (await page.evaluate(`new Promise((resolve) => {
    const mark = performance.getEntriesByName('upline:ready', 'mark')[0];
    const hydrated = mark ? mark.startTime : window.__uplineReadyAt;
    const nav = performance.getEntriesByType('navigation')[0];
    new PerformanceObserver((list) => {
      const entries = list.getEntries();
      resolve({ lcp: entries[entries.length - 1].startTime, hydrated, load: nav ? nav.loadEventStart : -1 });
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    setTimeout(() => resolve({ lcp: -1, hydrated, load: nav ? nav.loadEventStart : -1 }), 3000);
  })`)) as PageMoments;
}
