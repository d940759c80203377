/**
 * The next moment the page has nothing else to do (requestIdleCallback; at most `timeout` ms away), or the next
 * task where the browser has no idle callbacks.
 */
export function whenIdle(timeout = 1000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout });
    else setTimeout(resolve, 0);
  });
}
