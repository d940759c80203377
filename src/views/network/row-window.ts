/**
 * The window of a list whose rows all have the same height: which rows are in the scroll window (plus a
 * few either side), from the scroll offset and the window's height. Nothing is measured but the window:
 * a row's place is its index times the row height, so the list costs the same at 50 rows or 50 000.
 */
import { useCallback, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

export interface RowWindow {
  /** Callback ref for the scroll element. */
  ref: (el: HTMLDivElement | null) => void;
  /** Rows first … last - 1 are in (or near) the window. */
  first: number;
  last: number;
  /** Height of all the rows. */
  total: number;
}

/**
 * `initialHeight` is the window's height until it is known: the first render already has its rows without
 * reading the size, which would lay out the page then and there; a ResizeObserver corrects it once the
 * page is laid out.
 */
export function useRowWindow(count: number, rowHeight: number, overscan: number, initialHeight: number): RowWindow {
  const [view, setView] = useState({ top: 0, height: initialHeight });
  const detach = useRef<(() => void) | null>(null);
  const ref = useCallback((el: HTMLDivElement | null) => {
    detach.current?.();
    detach.current = null;
    if (!el) return;
    const read = () => {
      const next = { top: el.scrollTop, height: el.clientHeight };
      setView((v) => (v.top === next.top && v.height === next.height ? v : next));
    };
    // Scrolling shows the new rows in the same frame (not one frame late, as a scheduled render would).
    const onScroll = () => flushSync(read);
    el.addEventListener('scroll', onScroll, { passive: true });
    let observer: ResizeObserver | null = null;
    if (typeof ResizeObserver === 'undefined') read();
    else {
      observer = new ResizeObserver(read);
      observer.observe(el);
    }
    detach.current = () => {
      el.removeEventListener('scroll', onScroll);
      observer?.disconnect();
    };
  }, []);
  const first = Math.max(0, Math.min(count, Math.floor(view.top / rowHeight) - overscan));
  const last = Math.max(first, Math.min(count, Math.ceil((view.top + view.height) / rowHeight) + overscan));
  return { ref, first, last, total: count * rowHeight };
}
