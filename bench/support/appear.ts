/**
 * In-page timing of "when did this appear": a MutationObserver (plus animation frames) stamps performance.now()
 * the first time an element matching the selector has a non-empty box. The driver's own wait loop polls with
 * growing pauses (up to 500 ms), so timing with it measures the polling, not the page.
 */
import type { Page } from 'playwright-core';

/** Starts watching; returns a function that waits for the element and gives the page-clock time it appeared. */
export async function watchAppearance(page: Page, selector: string): Promise<() => Promise<number>> {
  // In-page code is passed as text: the TypeScript loader would otherwise add helper calls the page lacks.
  await page.evaluate(`(() => {
    const sel = ${JSON.stringify(selector)};
    window.__appeared = window.__appeared || {};
    const check = () => {
      if (window.__appeared[sel] !== undefined) return true;
      const el = document.querySelector(sel);
      const r = el && el.getBoundingClientRect();
      if (r && r.width > 0 && r.height > 0) { window.__appeared[sel] = performance.now(); return true; }
      return false;
    };
    const mo = new MutationObserver(() => { if (check()) mo.disconnect(); });
    mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    const frame = () => { if (!check()) requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  })()`);
  return async () => {
    await page.locator(selector).first().waitFor({ state: 'visible', timeout: 30_000 });
    return (await page.evaluate(`window.__appeared[${JSON.stringify(selector)}]`)) as number;
  };
}
